#include <stdexcept>

#include "commands.hpp"

namespace cuzk::cli {

// The CUDA prover is not part of this build yet (it arrives with the cuda
// backend's NTT and MSM), so auto means cpu and cuda is refused by name
// rather than silently run on the CPU.
Backend resolve_backend(Backend requested) {
  if (requested == Backend::cuda)
    throw std::invalid_argument("--backend cuda: this build has no CUDA prover yet; use --backend cpu");
  return Backend::cpu;
}

}  // namespace cuzk::cli
