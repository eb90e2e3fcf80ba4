#include "cuzk/ec/bls12_381.hpp"
#include "pippenger_host_templates.hpp"

namespace cuzk::msm {
CUZK_MSM_HOST_INSTANTIATE(ec::bls12_381::G1)
}  // namespace cuzk::msm
