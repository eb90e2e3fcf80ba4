#include "cuzk/ec/point_check_cuda.hpp"

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/point_check.hpp"

namespace cuzk::ec::gpu {

namespace {

template <class C>
__global__ void lower_to_first_bad(const Affine<C>* points, size_t n, unsigned long long* first_bad) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    if (check_point(points[i]) != PointFault::none) {
      atomicMin(first_bad, (unsigned long long)i);
      return;  // this thread's later points have larger indices
    }
}

}  // namespace

template <class C>
void find_first_bad_point(const Affine<C>* points, size_t n, unsigned long long* first_bad, cudaStream_t stream) {
  if (n == 0) return;
  int device = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&device));
  lower_to_first_bad<C><<<cuda::grid_stride_blocks(n, device), 256, 0, stream>>>(points, n, first_bad);
  CUZK_CUDA_CHECK_LAUNCH();
}

#define CUZK_POINT_CHECK_INSTANTIATE(C) \
  template void find_first_bad_point<C>(const Affine<C>*, size_t, unsigned long long*, cudaStream_t);
CUZK_POINT_CHECK_INSTANTIATE(bn254::G1)
CUZK_POINT_CHECK_INSTANTIATE(bn254::G2)
CUZK_POINT_CHECK_INSTANTIATE(bls12_381::G1)
CUZK_POINT_CHECK_INSTANTIATE(bls12_381::G2)

}  // namespace cuzk::ec::gpu
