#pragma once
// RAII owners of a CUDA stream and a CUDA event. Move-only; destructors never
// throw. Event::elapsed_ms times device work between two recorded events.
#include <cuda_runtime_api.h>

#include <utility>

#include "kernels/cuda/cuda_check.hpp"

namespace oocfft::kernels::cuda {

class Stream {
 public:
  // A non-blocking stream: it does not synchronise with the legacy default
  // stream, so independent streams of the pipeline overlap.
  Stream() { check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  ~Stream() {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const { check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  // timing = false makes a lighter event for ordering only.
  explicit Event(bool timing = true) {
    check_cuda(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming),
               "cudaEventCreateWithFlags");
  }
  ~Event() {
    if (event_ != nullptr) (void)cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      if (event_ != nullptr) (void)cudaEventDestroy(event_);
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  void record(cudaStream_t stream) const { check_cuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  void synchronize() const { check_cuda(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  // Makes `stream` wait for this event's last record.
  void wait_on(cudaStream_t stream) const {
    check_cuda(cudaStreamWaitEvent(stream, event_, 0), "cudaStreamWaitEvent");
  }
  // Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace oocfft::kernels::cuda
