#pragma once
// UniqueHandle<Handle, Destroy>: the one owner of a CUDA (or NVRTC) handle,
// destroyed by `Destroy` when the owner goes; move-only, and the destructor
// never throws (a destroy's status is ignored: nothing can be done about it
// there). Streams, events, device and pinned buffers, loaded libraries and
// NVRTC programs all hold theirs in one (stream.hpp, device_buffer.hpp,
// cuda_library.hpp, plan_time_compiler.cpp), so no handle is freed by hand.
// An owner takes a handle only once its create call has succeeded: the
// call writes into a plain local, its status is checked, and only then is
// the local wrapped. A failed create may leave anything in its
// out-parameter, and an owner that held it would destroy that; so there is
// no way to hand an owner's slot to a create call.
#include <utility>

namespace oocfft::kernels::cuda {

template <class Handle, auto Destroy>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(Handle handle) noexcept : handle_(handle) {}
  ~UniqueHandle() { reset(); }
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.handle_, Handle{}));
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  Handle get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != Handle{}; }
  // Destroys the handle held, if any, and takes `handle`.
  void reset(Handle handle = Handle{}) noexcept {
    if (handle_ != Handle{}) (void)Destroy(handle_);
    handle_ = handle;
  }

 private:
  Handle handle_{};
};

}  // namespace oocfft::kernels::cuda
