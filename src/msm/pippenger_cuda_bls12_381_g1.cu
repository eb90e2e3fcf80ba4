#include "cuzk/ec/bls12_381.hpp"
#include "pippenger_cuda.cuh"

namespace cuzk::msm::gpu {
CUZK_MSM_CUDA_INSTANTIATE(ec::bls12_381::G1)
}  // namespace cuzk::msm::gpu
