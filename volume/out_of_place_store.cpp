#include "volume/out_of_place_store.hpp"

#include <utility>

#include "oocfft/error.hpp"

namespace oocfft::volume {

// The two stores' sessions, each serving the transfers that touch its array.
class OutOfPlaceStore::Direct final : public DirectAccess {
 public:
  Direct(const OutOfPlaceStore& store, std::unique_ptr<DirectAccess> input, std::unique_ptr<DirectAccess> output)
      : store_(store), input_(std::move(input)), output_(std::move(output)) {}

  std::vector<DmaCopy> copies(const Box& box, Transfer transfer) override {
    DirectAccess* session = transfer == Transfer::upload && store_.pass_ == 0 ? input_.get() : output_.get();
    if (session == nullptr) return {};
    return session->copies(box, transfer);
  }

  double finish() override {
    double seconds = 0;
    if (input_) seconds += input_->finish();
    if (output_) seconds += output_->finish();
    return seconds;
  }

 private:
  const OutOfPlaceStore& store_;
  std::unique_ptr<DirectAccess> input_;
  std::unique_ptr<DirectAccess> output_;
};

OutOfPlaceStore::OutOfPlaceStore(VolumeStore& input, VolumeStore& output) : input_(input), output_(output) {
  if (input.shape() != output.shape() || input.element_bytes() != output.element_bytes())
    throw Error(ErrorKind::invalid_argument, "out-of-place transform: the input (" + input.shape().to_string() +
                                                 ") and the output (" + output.shape().to_string() +
                                                 ") differ in shape or element size");
}

void OutOfPlaceStore::read(const Box& box, BrickLayout layout, std::byte* staging) const {
  to_read().read(box, layout, staging);
}

void OutOfPlaceStore::write(const Box& box, BrickLayout layout, const std::byte* staging) {
  output_.write(box, layout, staging);
}

void OutOfPlaceStore::read_rows(const Box& box, std::byte* staging, std::size_t row_pitch) const {
  to_read().read_rows(box, staging, row_pitch);
}

void OutOfPlaceStore::write_rows(const Box& box, const std::byte* staging, std::size_t row_pitch) {
  output_.write_rows(box, staging, row_pitch);
}

void OutOfPlaceStore::run_starting(unsigned passes) {
  pass_ = 0;
  input_.run_starting(passes);
  output_.run_starting(passes);
}

std::unique_ptr<DirectAccess> OutOfPlaceStore::open_direct_access(HostRegistration policy, const PageLocker& locker) {
  std::unique_ptr<DirectAccess> input = input_.open_direct_access(policy, locker);
  std::unique_ptr<DirectAccess> output = output_.open_direct_access(policy, locker);
  if (!input && !output) return nullptr;
  return std::make_unique<Direct>(*this, std::move(input), std::move(output));
}

}  // namespace oocfft::volume
