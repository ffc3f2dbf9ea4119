#include "distributed/node_window.hpp"

#include <sys/statvfs.h>

#include <cstdint>
#include <limits>
#include <numeric>

#include "core/format_bytes.hpp"
#include "distributed/mpi_communicator.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {
namespace {
constexpr const char* shared_memory_directory = "/dev/shm";
}  // namespace

NodeWindow::NodeWindow(MPI_Comm comm, std::size_t segment_bytes, MPI_Comm node) : segment_bytes_(segment_bytes) {
  if (node == MPI_COMM_NULL)
    check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
  else
    check_mpi(MPI_Comm_dup(node, &node_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN);
  MPI_Comm_size(node_, &node_size_);

  // Which ranks of comm are on this node, and their ranks here.
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Group comm_group, node_group;
  MPI_Comm_group(comm, &comm_group);
  MPI_Comm_group(node_, &node_group);
  std::vector<int> everyone(static_cast<std::size_t>(ranks));
  std::iota(everyone.begin(), everyone.end(), 0);
  node_rank_.assign(everyone.size(), MPI_UNDEFINED);
  const int translated = MPI_Group_translate_ranks(comm_group, ranks, everyone.data(), node_group, node_rank_.data());
  MPI_Group_free(&comm_group);
  MPI_Group_free(&node_group);
  check_mpi(translated, "MPI_Group_translate_ranks");
  for (int& r : node_rank_)
    if (r == MPI_UNDEFINED) r = -1;

  // The segments are files of a memory file system (OpenMPI maps them
  // under /dev/shm): one that cannot hold them all would end the process
  // with SIGBUS at the first touch past its end, so the node's first rank
  // checks the room first and every rank of the node hears its answer.
  // Best effort: statvfs counts the pages touched, not the untouched rest
  // of windows opened before (a plan's segments, pencils and y-slabs), and
  // another MPI library may map them elsewhere.
  std::uint64_t room = std::numeric_limits<std::uint64_t>::max();
  int node_rank = 0;
  MPI_Comm_rank(node_, &node_rank);
  struct statvfs fs {};
  if (node_rank == 0 && statvfs(shared_memory_directory, &fs) == 0)
    room = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  check_mpi(MPI_Bcast(&room, 1, MPI_UINT64_T, 0, node_), "MPI_Bcast");
  const std::uint64_t needed = static_cast<std::uint64_t>(segment_bytes) * static_cast<std::uint64_t>(node_size_);
  if (needed > room) {
    MPI_Comm_free(&node_);
    throw Error(ErrorKind::out_of_memory, "the node's shared segments need " + format_bytes(double(needed)) + " in " +
                                              shared_memory_directory + ", which has " + format_bytes(double(room)) +
                                              " free");
  }

  // A segment of its own for each rank (not one block split between
  // them), each mapped where it is first touched.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* mine = nullptr;
  const int allocated = MPI_Win_allocate_shared(static_cast<MPI_Aint>(segment_bytes), 1, info, node_, &mine, &window_);
  MPI_Info_free(&info);
  if (allocated != MPI_SUCCESS) {
    MPI_Comm_free(&node_);
    check_mpi(allocated, "MPI_Win_allocate_shared");
  }
  MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN);
  bases_.reserve(static_cast<std::size_t>(node_size_));  // no throw between the allocation and the lock
  for (int r = 0; r < node_size_; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* base = nullptr;
    MPI_Win_shared_query(window_, r, &size, &unit, &base);
    bases_.push_back(static_cast<std::byte*>(base));
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
}

NodeWindow::~NodeWindow() {
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
  MPI_Comm_free(&node_);
}

void NodeWindow::synchronise() const {
  MPI_Win_sync(window_);
  check_mpi(MPI_Barrier(node_), "MPI_Barrier");
  MPI_Win_sync(window_);
}

}  // namespace oocfft::distributed
