#include "apps/mpi_launch.hpp"

#include <cstdlib>
#include <string>

namespace oocfft::apps {
namespace {

// The variable's value as a positive count, or 0.
int count_in(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr) return 0;
  try {
    const int n = std::stoi(text);
    return n > 0 ? n : 0;
  } catch (...) {
    return 0;
  }
}

}  // namespace

MpiLaunch mpi_launch_from_environment() {
  MpiLaunch launch;
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const int n = count_in(size); n > 0) {
      launch.launched = true;
      launch.ranks = n;
      return launch;
    }
  launch.launched = std::getenv("PMIX_RANK") != nullptr;
  return launch;
}

}  // namespace oocfft::apps
