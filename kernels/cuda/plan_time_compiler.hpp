#pragma once
// PlanTimeCompiler: compiles one compiled schedule (compiled_schedule_kernels.cuh) for
// a length outside the build's OOCFFT_KERNEL_SET with NVRTC, the CUDA
// Toolkit's run-time compiler, into a cubin for one GPU architecture. It
// compiles the headers embedded into the library when it was built
// (embedded_sources.hpp), so the kernel is the one nvcc would have built.
// Needs no GPU: the architecture is a number (90 for sm_90). Throws
// Error(unsupported) naming the schedule, with NVRTC's log, when NVRTC
// refuses; the plan then records why and takes the general kernel.
#include <string>
#include <vector>

#include "kernels/cuda/schedule_key.hpp"

namespace oocfft::kernels::cuda {

// A compiled kernel: the cubin and the name it has in it (the C++ name
// mangled, for cudaLibraryGetKernel).
struct CompiledCubin {
  std::vector<char> image;
  std::string kernel_name;
};

class PlanTimeCompiler {
 public:
  // Compiles for sm_<arch> (major * 10 + minor: 90 for compute capability 9.0).
  explicit PlanTimeCompiler(int arch);
  // For the current device (cudaGetDevice's compute capability).
  static PlanTimeCompiler for_current_device();

  int arch() const { return arch_; }
  // "13.0": NVRTC's own version, which the library was linked against.
  std::string nvrtc_version() const;
  // Every input of a compilation besides the schedule: architecture, NVRTC
  // version, options and the digest of the embedded sources. Two
  // compilations with the same key and the same fingerprint give the same
  // cubin: the cache keys its entries by both.
  std::string fingerprint() const;
  // The cubin of the kernel that serves `key`. Throws Error(unsupported).
  CompiledCubin compile(const ScheduleKey& key) const;

 private:
  std::vector<std::string> options() const;
  int arch_;
};

}  // namespace oocfft::kernels::cuda
