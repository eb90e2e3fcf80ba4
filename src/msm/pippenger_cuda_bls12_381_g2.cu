// G2 coordinates are Fq2 elements, three Fq multiplications each: with every
// multiplication inlined, the kernels take ptxas many minutes to compile. As a
// called function it compiles in a fraction of that, for a small cost in run
// time (the call; Fq2 arithmetic around it is unchanged).
#define CUZK_DEVICE_MUL_NOINLINE
#include "cuzk/ec/bls12_381.hpp"
#include "pippenger_cuda.cuh"

namespace cuzk::msm::gpu {
CUZK_MSM_CUDA_INSTANTIATE(ec::bls12_381::G2)
}  // namespace cuzk::msm::gpu
