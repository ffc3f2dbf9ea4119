#pragma once
// What the suites run under mpiexec share: the rank and the ranks of
// MPI_COMM_WORLD, the host backend's options, and the check that an Error reached every rank alike
// (the same kind and message), reduced over the ranks so that every rank
// reaches the same verdict.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>

#include "oocfft/error.hpp"
#include "oocfft/options.hpp"

namespace oocfft::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// The host backend on one thread a rank (several ranks share CI's two
// cores), with `norm`.
inline Options host_options(Norm norm) {
  Options o;
  o.backend = Backend::host;
  o.threads = 1;
  o.norm = norm;
  return o;
}

// The Error a call threw on this rank, if any.
struct Caught {
  bool thrown = false;
  ErrorKind kind = ErrorKind::invalid_argument;
  std::string message;
};

template <class Call>
Caught catch_error(Call&& call) {
  Caught c;
  try {
    call();
  } catch (const Error& e) {
    c = {true, e.kind(), e.what()};
  }
  return c;
}

// Every rank threw an Error of `kind` whose message holds `fragment`, and
// the ranks' messages are the same (their hashes' minimum and maximum over
// the ranks agree).
inline void expect_same_error_everywhere(const Caught& c, ErrorKind kind, const std::string& fragment) {
  EXPECT_TRUE(c.thrown) << "rank " << world_rank() << " did not throw";
  EXPECT_EQ(c.kind, kind) << c.message;
  EXPECT_NE(c.message.find(fragment), std::string::npos) << c.message;
  const long long mine[2] = {static_cast<long long>(std::hash<std::string>{}(c.message) >> 2),
                             -static_cast<long long>(std::hash<std::string>{}(c.message) >> 2)};
  long long lowest[2] = {0, 0};
  MPI_Allreduce(mine, lowest, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(lowest[0], -lowest[1]) << "the ranks' messages differ; this rank's: " << c.message;
}

// The ranks of MPI_COMM_WORLD with this one's parity: as the ranks of one
// "node" of two, where every rank of a test shares one machine (the
// suites pass it as the ranks that share memory).
class ParityGroup {
 public:
  ParityGroup() { MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, 0, &comm_); }
  ~ParityGroup() { MPI_Comm_free(&comm_); }
  ParityGroup(const ParityGroup&) = delete;
  ParityGroup& operator=(const ParityGroup&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace oocfft::test
