#include "engine/planning/options_check.hpp"

#include <string>

#include "oocfft/error.hpp"

namespace oocfft::engine {

namespace {

bool known(Norm n) { return n == Norm::backward || n == Norm::ortho || n == Norm::forward; }
bool known(Backend b) { return b == Backend::automatic || b == Backend::host || b == Backend::cuda; }
bool known(Strategy s) {
  return s == Strategy::automatic || s == Strategy::in_core || s == Strategy::two_pass ||
         s == Strategy::three_pass || s == Strategy::line_transpose;
}
bool known(HostRegistration r) {
  return r == HostRegistration::automatic || r == HostRegistration::on || r == HostRegistration::off;
}

template <class E>
void require_known(E value, const char* field) {
  if (!known(value))
    throw Error(ErrorKind::invalid_argument, std::string(field) + " is " + std::to_string(static_cast<long long>(value)) +
                                                 ", not one of its enumerators");
}

}  // namespace

void check_options(const Options& options) {
  require_known(options.norm, "options.norm");
  require_known(options.backend, "options.backend");
  require_known(options.strategy, "options.strategy");
  require_known(options.register_host_memory, "options.register_host_memory");
  if (!options.host_threads.empty() && options.threads != 0 && options.threads != options.host_threads.threads())
    throw Error(ErrorKind::invalid_argument, "options.threads is " + std::to_string(options.threads) +
                                                 " but options.host_threads has " +
                                                 std::to_string(options.host_threads.threads()) +
                                                 "; set one, or both the same");
}

void check_direction(Direction direction) {
  if (direction != Direction::forward && direction != Direction::inverse)
    throw Error(ErrorKind::invalid_argument,
                "direction is " + std::to_string(static_cast<long long>(direction)) + ", not forward or inverse");
}

}  // namespace oocfft::engine
