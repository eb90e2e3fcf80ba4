// The process-wide switches a front end takes from its environment: the
// layers below read none, so each front end (cuzk, cuzkd, the C libraries,
// the GPU tests' main) applies them once before its first proof.
//   CUZK_IFMA=0          the host arithmetic's scalar path, where the CPU has
//                        AVX-512 IFMA (to compare the two)
//   CUZK_LOGICAL_GPUS=N  N logical GPUs on the physical ones
//                        (cuda::set_logical_gpus; tests and benchmarks)
#pragma once

namespace cuzk::service {

// Throws std::invalid_argument, naming the variable, for a value it cannot
// take (CUZK_LOGICAL_GPUS not a whole number from 0 to 64).
void apply_environment_switches();

}  // namespace cuzk::service
