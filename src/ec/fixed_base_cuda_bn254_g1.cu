#include "cuzk/ec/bn254.hpp"
#include "fixed_base_cuda.cuh"

namespace cuzk::ec::gpu {
CUZK_FIXED_BASE_CUDA_INSTANTIATE(bn254::G1)
}  // namespace cuzk::ec::gpu
