#include "distributed/pencil_rounds.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>

#include "core/format_bytes.hpp"
#include "distributed/box_partition.hpp"
#include "distributed/failure_agreement.hpp"
#include "distributed/uninitialised_buffer.hpp"
#include "oocfft/error.hpp"

namespace oocfft::distributed {

PencilRounds::PencilRounds(Shape shape, int rank, int ranks, Precision precision, const Options& local,
                           std::size_t pencil_bytes)
    : shape_(shape),
      rank_(rank),
      ranks_(ranks),
      element_(precision == Precision::single ? 8 : 16),
      z_slab_(slab_box(shape, 0, rank, ranks)) {
  // K from the global shape, the same on every rank: the widest rank's
  // pencils of the whole y range, in rounds of at most pencil_bytes.
  const std::size_t widest = (shape.nx + static_cast<std::size_t>(ranks) - 1) / static_cast<std::size_t>(ranks);
  const std::size_t all_pencils = shape.nz * shape.ny * widest * element_;
  rounds_ = std::clamp<std::size_t>((all_pencils + pencil_bytes - 1) / std::max<std::size_t>(pencil_bytes, 1), 1,
                                    shape.ny);
  const Box3 my_x = slab_box(shape, 2, rank, ranks);
  for (std::size_t k = 0; k < rounds_; ++k) {
    const Box3 rows = y_range(k);
    const Box3 mine = intersection(rows, my_x);
    largest_pencils_ = std::max(largest_pencils_, mine.count());
    const std::vector<Box3> from = slab_rows(k), to = pencils(k);
    for (int r = 0; r < ranks; ++r)
      if (r != rank)
        bytes_to_others_ += 2 * intersection(from[static_cast<std::size_t>(rank)], to[static_cast<std::size_t>(r)])
                                    .count() * element_;
    if (mine.empty()) continue;
    const Shape extent = mine.extent();
    if (precision == Precision::single) {
      if (!single_.count(extent.ny)) single_.emplace(extent.ny, engine::ZLineTransform<float>(extent, local));
    } else {
      if (!double_.count(extent.ny)) double_.emplace(extent.ny, engine::ZLineTransform<double>(extent, local));
    }
  }
}

Box3 PencilRounds::y_range(std::size_t round) const {
  Box3 b = whole_box(shape_);
  b.low[1] = static_cast<std::int64_t>(shape_.ny * round / rounds_);
  b.high[1] = static_cast<std::int64_t>(shape_.ny * (round + 1) / rounds_) - 1;
  return b;
}

std::vector<Box3> PencilRounds::slab_rows(std::size_t round) const {
  std::vector<Box3> boxes;
  for (const Box3& slab : slab_boxes(shape_, 0, ranks_)) boxes.push_back(intersection(slab, y_range(round)));
  return boxes;
}

std::vector<Box3> PencilRounds::pencils(std::size_t round) const {
  std::vector<Box3> boxes;
  for (int r = 0; r < ranks_; ++r) boxes.push_back(intersection(y_range(round), slab_box(shape_, 2, r, ranks_)));
  return boxes;
}

template <class T>
void PencilRounds::run(MPI_Comm comm, std::complex<T>* planes, bool inverse, double scale) const {
  const MPI_Datatype type = std::is_same_v<T, float> ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX;
  std::optional<UninitialisedBuffer<std::complex<T>>> buffer;
  agree_on(comm, [&] { buffer.emplace(largest_pencils_); });
  for (std::size_t k = 0; k < rounds_; ++k) {
    const std::vector<Box3> rows = slab_rows(k), mine = pencils(k);
    const Box3 pencil_box = mine[static_cast<std::size_t>(rank_)];
    // Out of the z-slab and back into it: the rows' array is the slab.
    const BoxExchange there(rows, mine, rank_, element_, BoxExchange::default_round_bytes, z_slab_, std::nullopt);
    const BoxExchange back(mine, rows, rank_, element_, BoxExchange::default_round_bytes, std::nullopt, z_slab_);
    there.run(comm, type, static_cast<const std::complex<T>*>(planes), buffer->data());
    agree_on(comm, [&] {
      if (pencil_box.empty()) return;
      const std::size_t rows_y = pencil_box.extent().ny;
      if constexpr (std::is_same_v<T, float>)
        single_.at(rows_y).execute(buffer->data(), inverse, scale);
      else
        double_.at(rows_y).execute(buffer->data(), inverse, scale);
    });
    back.run(comm, type, static_cast<const std::complex<T>*>(buffer->data()), planes);
  }
}

std::string PencilRounds::describe() const {
  std::string s = "z lines of the z-slabs in " + std::to_string(rounds_) + " round(s) of y rows: each round's pencils (all z, " +
                  "a range of y, this rank's x slab " + to_string(slab_box(shape_, 2, rank_, ranks_)) +
                  ") come from every z-slab (MPI_Alltoallv), through the z pass and back; " +
                  format_bytes(double(pencil_bytes())) + " of pencils a round at most, " +
                  std::to_string(bytes_to_others_) + " bytes to other ranks in all";
  const std::string z = !single_.empty() ? single_.begin()->second.describe()
                        : !double_.empty() ? double_.begin()->second.describe()
                                           : std::string();
  return s + (z.empty() ? std::string(" (no pencils on this rank)\n") : ":\n" + z);
}

template void PencilRounds::run(MPI_Comm, std::complex<float>*, bool, double) const;
template void PencilRounds::run(MPI_Comm, std::complex<double>*, bool, double) const;

}  // namespace oocfft::distributed
