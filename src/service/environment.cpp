#include "cuzk/service/environment.hpp"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/util/env_flag.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif

namespace cuzk::service {

namespace {

constexpr long kMaxLogicalGpus = 64;  // cuda::kMaxLogicalGpus, also where CUDA is not built

// CUZK_LOGICAL_GPUS: 0 when unset or empty.
int logical_gpus_wanted() {
  const char* v = std::getenv("CUZK_LOGICAL_GPUS");
  if (!v || !*v) return 0;
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(v, &end, 10);
  if (*end || errno || n < 0 || n > kMaxLogicalGpus)
    throw std::invalid_argument(std::string("CUZK_LOGICAL_GPUS=") + v + ": not a number of GPUs from 0 to " +
                                std::to_string(kMaxLogicalGpus));
  return (int)n;
}

}  // namespace

void apply_environment_switches() {
  ff::mont52x8::set_ifma(env_flag("CUZK_IFMA", true));
  const int logical = logical_gpus_wanted();  // checked even where CUDA is not built
#if defined(CUZK_HAVE_CUDA)
  static_assert(kMaxLogicalGpus == cuda::kMaxLogicalGpus);
  cuda::set_logical_gpus(logical);
#else
  (void)logical;
#endif
}

}  // namespace cuzk::service
