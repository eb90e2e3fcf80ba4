#include "cuzk/ec/bn254.hpp"
#include "pippenger_cuda.cuh"

namespace cuzk::msm::gpu {
CUZK_MSM_CUDA_INSTANTIATE(ec::bn254::G1)
}  // namespace cuzk::msm::gpu
