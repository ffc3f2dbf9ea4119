#pragma once
// Transform options: backend, normalisation (numpy's `norm=`) and threads.
#include <cstddef>

namespace oocfft {

enum class Direction { forward, inverse };

// numpy's norm modes: backward = forward unscaled, inverse 1/N;
// ortho = 1/sqrt(N) both ways; forward = forward 1/N, inverse unscaled.
enum class Norm { backward, ortho, forward };

// automatic: the CUDA backend when the library was built with it and a GPU is
// present, otherwise the host backend.
enum class Backend { automatic, host, cuda };

enum class Precision { single, double_precision };

struct Options {
  Backend backend = Backend::automatic;
  Norm norm = Norm::backward;
  // Host threads for the host backend and for host-side copies; 0 = all cores.
  unsigned threads = 0;
};

const char* to_string(Direction) noexcept;
const char* to_string(Norm) noexcept;
const char* to_string(Backend) noexcept;
const char* to_string(Precision) noexcept;

}  // namespace oocfft
