#pragma once
// The one-line summary of a finished transform.
#include <cstddef>
#include <string>

#include <oocfft/run_report.hpp>

namespace oocfft::apps {

// "done in 1.234 s, 27.1 GB/s (16.0 GiB volume read and written once per
// pass, 2 passes), two_pass on cuda, streamed". The GB/s counts the volume's
// bytes x 2 x passes over `seconds`: the traffic between the volume and the
// transform, not what the disk or PCIe saw. `where` says in-memory or
// streamed (or "host array" for the demo). After a re-plan (RunReport::
// replans) it adds the bricks and budget of the plan that ran.
std::string run_summary(double seconds, std::size_t volume_bytes, const RunReport& run, const std::string& where);

}  // namespace oocfft::apps
