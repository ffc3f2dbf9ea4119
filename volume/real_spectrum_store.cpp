#include "volume/real_spectrum_store.hpp"

#include <algorithm>
#include <string>

#include "oocfft/error.hpp"

namespace oocfft::volume {

namespace {

Shape half_spectrum(const Shape& real) { return {real.nz, real.ny, real.nx / 2 + 1}; }

bool whole_rows(const Box& box, const Shape& volume) { return box.x0 == 0 && box.extent.nx == volume.nx; }

}  // namespace

// The real pass's DMA: real rows between the real array and the padded
// rows of the device brick (cudaMemcpy2D's two pitches), the half
// spectrum's own copies otherwise.
class RealSpectrumStore::Direct final : public DirectAccess {
 public:
  Direct(const RealSpectrumStore& store, std::unique_ptr<DirectAccess> real, std::unique_ptr<DirectAccess> input,
         std::unique_ptr<DirectAccess> spectrum)
      : store_(store), real_(std::move(real)), input_(std::move(input)), spectrum_(std::move(spectrum)) {}

  std::vector<DmaCopy> copies(const Box& box, Transfer transfer) override {
    if (store_.real_side(transfer)) return real_rows(box, transfer);
    DirectAccess* side = transfer == Transfer::upload && store_.inverse_ && store_.pass_ == 0 ? input_.get()
                                                                                             : spectrum_.get();
    return side == nullptr ? std::vector<DmaCopy>{} : side->copies(box, transfer);
  }

  double finish() override {
    double seconds = 0;
    for (DirectAccess* d : {real_.get(), input_.get(), spectrum_.get()})
      if (d != nullptr) seconds += d->finish();
    return seconds;
  }

 private:
  // The real session's copies of whole real rows, re-cut into rows at the
  // device brick's padded pitch. Anything else (part of a row) stages.
  std::vector<DmaCopy> real_rows(const Box& box, Transfer transfer) {
    const Shape real_shape = store_.real_.shape();
    if (real_ == nullptr || !whole_rows(box, store_.spectrum_shape_)) return {};
    const Box rows = store_.real_columns(box);
    const std::size_t row = real_shape.nx * store_.real_.element_bytes();
    const std::size_t pitch = box.extent.nx * store_.complex_bytes_;
    std::vector<DmaCopy> out;
    for (const DmaCopy& c : real_->copies(rows, transfer)) {
      if (c.device_offset % row != 0 || c.width % row != 0) return {};
      const std::size_t per_run = c.width / row;
      if (c.rows == 1 || per_run == 1) {
        const bool single = c.rows == 1;
        out.push_back({c.host, c.device_offset / row * pitch, row, single ? per_run : c.rows,
                       single ? row : c.host_pitch, pitch});
      } else {
        for (std::size_t r = 0; r < c.rows; ++r)
          out.push_back({c.host + r * c.host_pitch, (c.device_offset + r * c.width) / row * pitch, row, per_run, row,
                         pitch});
      }
    }
    return out;
  }

  const RealSpectrumStore& store_;
  std::unique_ptr<DirectAccess> real_, input_, spectrum_;
};

namespace {
// A store of the half spectrum of `real`: its shape and complex elements.
void check_spectrum(const VolumeStore& spectrum, const VolumeStore& real, const char* which) {
  const Shape want = half_spectrum(real.shape());
  const Shape got = spectrum.shape();
  if (got.nz != want.nz || got.ny != want.ny || got.nx != want.nx ||
      spectrum.element_bytes() != 2 * real.element_bytes())
    throw Error(ErrorKind::invalid_argument, std::string("internal: the ") + which + " store of a real transform is " +
                                                 got.to_string() + " of " + std::to_string(spectrum.element_bytes()) +
                                                 "-byte elements, not the half spectrum " + want.to_string() + " of " +
                                                 std::to_string(2 * real.element_bytes()) + "-byte ones");
}
}  // namespace

RealSpectrumStore::RealSpectrumStore(VolumeStore& real, VolumeStore& spectrum)
    : real_(real), spectrum_(&spectrum), real_pass_(0), inverse_(false),
      spectrum_shape_(half_spectrum(real.shape())), complex_bytes_(2 * real.element_bytes()) {
  check_spectrum(spectrum, real, "spectrum");
}

RealSpectrumStore::RealSpectrumStore(VolumeStore& input, VolumeStore& real, VolumeStore* spectrum)
    : real_(real), input_(&input), spectrum_(spectrum), real_pass_(0), inverse_(true),
      spectrum_shape_(half_spectrum(real.shape())), complex_bytes_(2 * real.element_bytes()) {
  check_spectrum(input, real, "input");
  if (spectrum != nullptr) check_spectrum(*spectrum, real, "intermediate");
}

void RealSpectrumStore::run_starting(unsigned passes) {
  pass_ = 0;
  real_pass_ = inverse_ && passes > 0 ? passes - 1 : 0;
}

Box RealSpectrumStore::real_columns(const Box& box) const {
  const std::size_t nx = real_.shape().nx;
  const std::size_t begin = std::min(2 * box.x0, nx);
  const std::size_t end = std::min(2 * (box.x0 + box.extent.nx), nx);
  return {box.z0, box.y0, begin, {box.extent.nz, box.extent.ny, end - begin}};
}

std::size_t RealSpectrumStore::scratch_bytes() const {
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  return scratch_ ? scratch_->bytes() : 0;
}

const VolumeStore& RealSpectrumStore::spectrum_to_read() const {
  if (inverse_ && pass_ == 0) return *input_;
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (spectrum_ == nullptr)
    throw Error(ErrorKind::invalid_argument, "internal: a real inverse reads an intermediate no pass has written");
  return *spectrum_;
}

VolumeStore& RealSpectrumStore::spectrum_to_write() {
  std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (spectrum_ == nullptr) {
    scratch_.emplace(spectrum_shape_.bytes(complex_bytes_), "the half spectrum between the passes of a real inverse");
    scratch_volume_.emplace(scratch_->data(), spectrum_shape_, complex_bytes_);
    spectrum_ = &*scratch_volume_;
  }
  return *spectrum_;
}

void RealSpectrumStore::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  if (!(real_pass() && !inverse_)) {
    spectrum_to_read().read(box, layout, staging);
    return;
  }
  if (layout != BrickLayout::natural)
    throw Error(ErrorKind::invalid_argument, "internal: the x stage of a real transform in a line layout");
  const Box rows = real_columns(box);
  if (rows.extent.nx > 0) real_.read_rows(rows, staging, box.extent.nx * complex_bytes_);
}

std::size_t RealSpectrumStore::packed_row_bytes(const Box& box, Transfer transfer) const {
  return real_side(transfer) ? real_columns(box).extent.nx * real_.element_bytes() : 0;
}

void RealSpectrumStore::read_packed(const Box& box, std::byte* staging) const {
  if (packed_row_bytes(box, Transfer::upload) == 0)
    throw Error(ErrorKind::invalid_argument, "internal: read_packed() outside the real rows of a forward");
  real_.read(real_columns(box), BrickLayout::natural, staging);
}

void RealSpectrumStore::write_packed(const Box& box, const std::byte* staging) {
  if (packed_row_bytes(box, Transfer::download) == 0)
    throw Error(ErrorKind::invalid_argument, "internal: write_packed() outside the real rows of an inverse");
  real_.write(real_columns(box), BrickLayout::natural, staging);
}

void RealSpectrumStore::write(const Box& box, BrickLayout layout, const std::byte* staging) {
  if (!(real_pass() && inverse_)) {
    spectrum_to_write().write(box, layout, staging);
    return;
  }
  if (layout != BrickLayout::natural)
    throw Error(ErrorKind::invalid_argument, "internal: the x stage of a real transform in a line layout");
  const Box rows = real_columns(box);
  if (rows.extent.nx > 0) real_.write_rows(rows, staging, box.extent.nx * complex_bytes_);
}

std::unique_ptr<DirectAccess> RealSpectrumStore::open_direct_access(HostRegistration policy,
                                                                    const PageLocker& locker) {
  std::unique_ptr<DirectAccess> real = real_.open_direct_access(policy, locker);
  std::unique_ptr<DirectAccess> input = input_ != nullptr ? input_->open_direct_access(policy, locker) : nullptr;
  std::unique_ptr<DirectAccess> spectrum =
      spectrum_ != nullptr ? spectrum_->open_direct_access(policy, locker) : nullptr;
  if (real == nullptr && input == nullptr && spectrum == nullptr) return nullptr;
  return std::make_unique<Direct>(*this, std::move(real), std::move(input), std::move(spectrum));
}

}  // namespace oocfft::volume
