#pragma once
// Errors never hang: every step a rank may fail alone (checking its
// arguments, building or running its local transform) runs inside
// agree_on(), which every rank calls. The ranks then agree, by one
// MPI_Allreduce, whether any failed, and the first failing rank broadcasts
// its error, so every rank throws the same oocfft::Error and none waits in
// an exchange that the others never join.
#include <mpi.h>

#include <exception>
#include <optional>

#include "oocfft/error.hpp"

namespace oocfft::distributed {

// Collective over `comm`. Every rank passes its own failure, or none;
// throws on every rank the failure of the lowest failing rank, with its
// kind and message, or returns when no rank failed.
void throw_if_any_failed(MPI_Comm comm, const std::optional<Error>& local);

// The exception in flight as an oocfft::Error: itself, or out_of_memory for
// std::bad_alloc, or unsupported with the message of any other exception.
Error as_error(std::exception_ptr failure);

// Runs `step` on this rank, then agrees with the others (throw_if_any_failed).
template <class Step>
void agree_on(MPI_Comm comm, Step&& step) {
  std::optional<Error> local;
  try {
    step();
  } catch (...) {
    local = as_error(std::current_exception());
  }
  throw_if_any_failed(comm, local);
}

}  // namespace oocfft::distributed
