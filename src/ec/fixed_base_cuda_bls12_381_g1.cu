#include "cuzk/ec/bls12_381.hpp"
#include "fixed_base_cuda.cuh"

namespace cuzk::ec::gpu {
CUZK_FIXED_BASE_CUDA_INSTANTIATE(bls12_381::G1)
}  // namespace cuzk::ec::gpu
