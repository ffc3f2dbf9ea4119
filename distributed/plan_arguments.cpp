#include "distributed/plan_arguments.hpp"

#include <string>

#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/mpi_communicator.hpp"

namespace oocfft::distributed {
namespace {

// What every rank says about its arguments, gathered on every rank.
struct RankArguments {
  std::int64_t shape[3];
  std::int64_t precision;
  std::int64_t norm, shift;  // what is computed: the same on every rank
  std::int64_t first_low[3], first_high[3], second_low[3], second_high[3];
};
constexpr int argument_count = sizeof(RankArguments) / sizeof(std::int64_t);

RankArguments arguments_of(Shape shape, Precision precision, const Options& options, const Box3& first,
                           const Box3& second) {
  RankArguments a{};
  const std::size_t n[3] = {shape.nz, shape.ny, shape.nx};
  for (int k = 0; k < 3; ++k) {
    a.shape[k] = static_cast<std::int64_t>(n[k]);
    a.first_low[k] = first.low[k];
    a.first_high[k] = first.high[k];
    a.second_low[k] = second.low[k];
    a.second_high[k] = second.high[k];
  }
  a.precision = static_cast<std::int64_t>(precision);
  a.norm = static_cast<std::int64_t>(options.norm);
  a.shift = options.shift ? 1 : 0;
  return a;
}

// Why the gathered arguments cannot make a plan; the same on every rank.
RankBoxes checked(const std::vector<RankArguments>& all, Shape shape, const BoxSpace& first_space,
                  const BoxSpace& second_space) {
  if (shape.nz == 0 || shape.ny == 0 || shape.nx == 0)
    throw Error(ErrorKind::invalid_argument, "distributed plan of the empty shape " + shape.to_string());
  RankBoxes boxes;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const RankArguments& a = all[r];
    for (int k = 0; k < 3; ++k)
      if (a.shape[k] != all[0].shape[k])
        throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(r) + " passes another shape than rank 0's " +
                                                     shape.to_string());
    if (a.precision != all[0].precision)
      throw Error(ErrorKind::invalid_argument, "rank " + std::to_string(r) + " passes another precision than rank 0");
    if (a.norm != all[0].norm)
      throw Error(ErrorKind::invalid_argument,
                  "rank " + std::to_string(r) + " passes another Options::norm than rank 0");
    if (a.shift != all[0].shift)
      throw Error(ErrorKind::invalid_argument,
                  "rank " + std::to_string(r) + " passes another Options::shift than rank 0");
    Box3 first, second;
    for (int k = 0; k < 3; ++k) {
      first.low[k] = a.first_low[k];
      first.high[k] = a.first_high[k];
      second.low[k] = a.second_low[k];
      second.high[k] = a.second_high[k];
    }
    boxes.first.push_back(first);
    boxes.second.push_back(second);
  }
  if (auto fault = tiling_fault(boxes.first, first_space.shape, first_space.name))
    throw Error(ErrorKind::invalid_argument, *fault);
  if (auto fault = tiling_fault(boxes.second, second_space.shape, second_space.name))
    throw Error(ErrorKind::invalid_argument, *fault);
  return boxes;
}

}  // namespace

RankBoxes gather_checked_boxes(MPI_Comm comm, Shape shape, Precision precision, const Options& options,
                               const Box3& first, const Box3& second, const BoxSpace& first_space,
                               const BoxSpace& second_space) {
  int ranks = 0;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  std::vector<RankArguments> all(static_cast<std::size_t>(ranks));
  const RankArguments mine = arguments_of(shape, precision, options, first, second);
  check_mpi(MPI_Allgather(&mine, argument_count, MPI_INT64_T, all.data(), argument_count, MPI_INT64_T, comm),
            "MPI_Allgather");
  RankBoxes boxes;
  agree_on(comm, [&] { boxes = checked(all, shape, first_space, second_space); });
  return boxes;
}

}  // namespace oocfft::distributed
