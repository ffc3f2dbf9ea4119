#pragma once
// RAII owners of a CUDA stream and a CUDA event (UniqueHandle). Move-only;
// destructors never throw. Event::elapsed_ms times device work between two
// recorded events.
#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/unique_handle.hpp"

namespace oocfft::kernels::cuda {

class Stream {
 public:
  // A non-blocking stream: it does not synchronise with the legacy default
  // stream, so independent streams of the pipeline overlap.
  Stream() {
    cudaStream_t created = nullptr;  // adopted only once the create has succeeded
    check_cuda(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    stream_.reset(created);
  }

  cudaStream_t get() const noexcept { return stream_.get(); }
  void synchronize() const { check_cuda(cudaStreamSynchronize(get()), "cudaStreamSynchronize"); }

 private:
  UniqueHandle<cudaStream_t, cudaStreamDestroy> stream_;
};

class Event {
 public:
  // timing = false makes a lighter event for ordering only.
  explicit Event(bool timing = true) {
    cudaEvent_t created = nullptr;  // adopted only once the create has succeeded
    check_cuda(cudaEventCreateWithFlags(&created, timing ? cudaEventDefault : cudaEventDisableTiming),
               "cudaEventCreateWithFlags");
    event_.reset(created);
  }

  cudaEvent_t get() const noexcept { return event_.get(); }
  void record(cudaStream_t stream) const { check_cuda(cudaEventRecord(get(), stream), "cudaEventRecord"); }
  void synchronize() const { check_cuda(cudaEventSynchronize(get()), "cudaEventSynchronize"); }
  // Makes `stream` wait for this event's last record.
  void wait_on(cudaStream_t stream) const {
    check_cuda(cudaStreamWaitEvent(stream, get(), 0), "cudaStreamWaitEvent");
  }
  // Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start.get(), get()), "cudaEventElapsedTime");
    return ms;
  }

 private:
  UniqueHandle<cudaEvent_t, cudaEventDestroy> event_;
};

}  // namespace oocfft::kernels::cuda
