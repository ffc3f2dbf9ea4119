#pragma once
// The headers that NVRTC compiles at plan time (compiled_schedule_kernels.cuh and
// what it includes), embedded into the library when it is built
// (cmake/EmbedSources.cmake): a plan never reads the source tree, which a
// user's machine does not have, and the kernels it compiles are the ones
// this build's ahead-of-time kernels came from.
#include <cstddef>

namespace oocfft::kernels::cuda {

struct EmbeddedSource {
  const char* path;  // as the headers include it: "kernels/cuda/tile_job.hpp"
  const char* text;
};

struct EmbeddedSources {
  const EmbeddedSource* files;
  std::size_t count;
  // SHA-256 of every path and text: part of the key of a cached kernel, so
  // a library built from other sources never loads this one's cubins.
  const char* digest;
};

const EmbeddedSources& schedule_sources() noexcept;

}  // namespace oocfft::kernels::cuda
