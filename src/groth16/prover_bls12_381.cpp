#include "cuzk/ec/bls12_381.hpp"
#include "prover_templates.hpp"

namespace cuzk::groth16 {
CUZK_GROTH16_PROVER_INSTANTIATE(ec::Bls12_381)
}  // namespace cuzk::groth16
