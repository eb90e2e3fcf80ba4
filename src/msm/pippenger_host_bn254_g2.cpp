#include "cuzk/ec/bn254.hpp"
#include "pippenger_host_templates.hpp"

namespace cuzk::msm {
CUZK_MSM_HOST_INSTANTIATE(ec::bn254::G2)
}  // namespace cuzk::msm
