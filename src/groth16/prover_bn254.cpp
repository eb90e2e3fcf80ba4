#include "cuzk/ec/bn254.hpp"
#include "prover_templates.hpp"

namespace cuzk::groth16 {
CUZK_GROTH16_PROVER_INSTANTIATE(ec::Bn254)
}  // namespace cuzk::groth16
