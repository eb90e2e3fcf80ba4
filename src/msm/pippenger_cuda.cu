#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "pippenger_cuda.cuh"

namespace cuzk::msm::cuda {

unsigned window_bits(size_t n) {
  // Per window: one bucket addition per term, and about three full additions
  // per bucket to weight and sum them. Windows number ceil(257 / c) (the digit
  // offset needs bits + 2). c stays within [6, 20], and [6, 21] from 2^26
  // terms: the model's c = 21 is measured there only, where it beat two chunks
  // of c = 20 (docs/PERFORMANCE.md); larger windows multiply the buckets to
  // weight.
  const unsigned max_c = n >= (size_t(1) << 26) ? 21 : 20;
  unsigned best = 6;
  double best_cost = 0;
  for (unsigned c = 6; c <= max_c; ++c) {
    const double windows = (257.0 + c - 1) / c;
    const double cost = windows * ((double)n + 3.0 * (double)(size_t(1) << (c - 1)));
    if (c == 6 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

namespace detail {

size_t sort_pairs(void* temp, size_t temp_bytes, uint32_t* keys, uint32_t* keys_out, uint32_t* vals,
                  uint32_t* vals_out, size_t n, unsigned key_bits, cudaStream_t stream) {
  // DoubleBuffer lets the sort ping-pong between the two buffers instead of
  // needing a third; when it ends in the input buffer, one copy moves it.
  cub::DoubleBuffer<uint32_t> k(keys, keys_out), v(vals, vals_out);
  CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, n, 0, (int)key_bits, stream));
  if (temp && k.selector == 0) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(keys_out, keys, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(vals_out, vals, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream));
  }
  return temp_bytes;
}

template <class Fr>
struct IsSignificant {
  const Fr* scalars;
  __device__ bool operator()(uint32_t i) const {
    const Fr s = scalars[i];
    return !s.is_zero() && !(s == Fr::one());
  }
};

template <class Fr>
size_t select_significant(void* temp, size_t temp_bytes, const Fr* scalars, size_t n, uint32_t* indices,
                          uint32_t* count, cudaStream_t stream) {
  CUZK_CUDA_CHECK(cub::DeviceSelect::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), indices, count,
                                        (int64_t)n, IsSignificant<Fr>{scalars}, stream));
  return temp_bytes;
}

template size_t select_significant<ff::bn254::Fr>(void*, size_t, const ff::bn254::Fr*, size_t, uint32_t*, uint32_t*,
                                                  cudaStream_t);
template size_t select_significant<ff::bls12_381::Fr>(void*, size_t, const ff::bls12_381::Fr*, size_t, uint32_t*,
                                                      uint32_t*, cudaStream_t);

}  // namespace detail

}  // namespace cuzk::msm::cuda
