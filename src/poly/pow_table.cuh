// Powers of a field element as the device reads them: c·b^i is the product of
// two small tables, lo[i mod 2^10] and hi[i >> 10] (PowTable), one
// multiplication a point; the tables are made on the host, and a table of
// every power is expanded from them on the device (powers_kernel), so that
// 2^10 + count/2^10 values go up instead of count. For ntt_cuda.cu.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::poly::gpu {

constexpr unsigned kPowLowBits = 10;

// at(i) = lo[i mod 2^10] · hi[i >> 10] = c·b^i.
template <class Fr>
struct PowTable {
  const Fr* lo = nullptr;
  const Fr* hi = nullptr;
  __device__ __forceinline__ Fr at(size_t i) const {
    return lo[i & ((size_t(1) << kPowLowBits) - 1)] * hi[i >> kPowLowBits];
  }
};

// first·base^i for i < count, on every core.
template <class Fr>
std::vector<Fr> powers(const Fr& base, const Fr& first, size_t count) {
  std::vector<Fr> out(count);
  parallel_chunks(count, [&](size_t b, size_t e, size_t) {
    uint64_t exp[1] = {b};
    Fr p = first * base.pow(exp, 1);
    for (size_t i = b; i < e; ++i, p *= base) out[i] = p;
  });
  return out;
}

// out[i] = table.at(i) for i < n: a table of powers expanded on the device.
template <class Fr>
__global__ void powers_kernel(Fr* out, size_t n, PowTable<Fr> table) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = table.at(i);
}

// scale·base^i for i < count as PowTable's two tables, made on the host:
// 2^10 + count/2^10 values go up instead of count.
template <class Fr>
void upload_pow_table(const Fr& base, const Fr& scale, size_t count, cuda::DeviceBuffer<Fr>& lo,
                      cuda::DeviceBuffer<Fr>& hi) {
  const size_t lo_n = size_t(1) << kPowLowBits, hi_n = ((std::max<size_t>(count, 1) - 1) >> kPowLowBits) + 1;
  uint64_t e[1] = {lo_n};
  lo = cuda::DeviceBuffer<Fr>(lo_n);
  hi = cuda::DeviceBuffer<Fr>(hi_n);
  lo.upload(powers(base, Fr::one(), lo_n));
  hi.upload(powers(base.pow(e, 1), scale, hi_n));
}

}  // namespace cuzk::poly::gpu
