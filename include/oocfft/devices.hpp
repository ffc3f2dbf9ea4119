#pragma once
// Devices: which devices a plan runs on (Options::devices). A lane of the
// streaming engine is one stream of one device; each device has its own
// budget, buffers, kernels and carry-over, and the plan says which device
// owns which bricks (docs/ARCHITECTURE.md, "Several devices").
//
// The default is the calling thread's current CUDA device alone: the
// behaviour of a plan made before devices could be named, and the one that
// does not take GPUs another process on the node may be using. Name them
// (Devices::list) or take all (Devices::all) to spread a plan over them.
//
// The host backend has no devices: it emulates them. `current` and `all`
// are one emulated device; a list of n ordinals runs n emulated devices,
// each with its own budget, lanes and carry-over in host memory, and an
// explicit exchange between them, so that the multi-device logic runs
// where no GPU is present. What the emulated devices keep between the
// passes is host memory beside the array (the whole volume, for in_core
// on several: the resident plan across them, not the transform in place).
//
// The CUDA backend runs each device's lanes on that device (its own
// streams, buffers, kernels and carry-over); the planes one device keeps
// reach another by peer copies where the devices allow peer access, and
// through the host otherwise, as describe() says.
//
// A failure on one device stops the lanes of every device after their
// bricks in flight, and the error names the brick and the device; an
// in-place array is then in the state Options::cancel describes.
#include <string>
#include <vector>

namespace oocfft {

enum class DeviceChoice {
  current,  // the calling thread's current CUDA device (one emulated device on the host backend)
  all,      // every CUDA device the process sees (one emulated device on the host backend)
  listed,   // the ordinals given
};

class Devices {
 public:
  // At most this many devices in a list (and emulated devices on the host).
  static constexpr int max_listed = 64;

  Devices() = default;  // DeviceChoice::current
  static Devices all();
  // CUDA ordinals (cudaSetDevice's numbering under CUDA_VISIBLE_DEVICES),
  // in the order their lanes are numbered; on the host backend, the
  // emulated devices. Throws Error(invalid_argument) for an empty list, a
  // negative ordinal, one named twice or more than max_listed; whether each
  // exists is checked when a plan is made.
  static Devices list(std::vector<int> ordinals);

  DeviceChoice choice() const { return choice_; }
  // The ordinals of a listed choice; empty otherwise.
  const std::vector<int>& ordinals() const { return ordinals_; }
  // "current", "all" or the list, "0,1": the command line's spelling.
  std::string to_string() const;

  friend bool operator==(const Devices& a, const Devices& b) {
    return a.choice_ == b.choice_ && a.ordinals_ == b.ordinals_;
  }

 private:
  DeviceChoice choice_ = DeviceChoice::current;
  std::vector<int> ordinals_;
};

}  // namespace oocfft
