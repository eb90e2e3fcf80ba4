// Fixed-base multiplication on the GPU, compiled once a group by
// fixed_base_cuda_<curve>_<group>.cu: the four groups in one file were one
// nvcc of 119 s on the 2-core VM, a cold build's second-longest step.
#pragma once

#include "cuzk/ec/fixed_base_cuda.hpp"

#include <algorithm>

#include "cuzk/cuda/runtime.hpp"

namespace cuzk::ec::gpu {

using cuda::DeviceBuffer;

namespace {

// Scalars a launch takes: bounds the scratch (2^22 XYZZ points of BLS12-381
// G2 are 1.5 GiB) while leaving every SM many waves.
constexpr size_t kChunk = size_t(1) << 22;
// Points a thread brings to affine with one inversion: a BLS12-381 Fq
// inversion (Fermat) is ~570 multiplications, ~9 a point at 64.
constexpr unsigned kAffineBatch = 64;

template <class C>
__global__ void fixed_base_sums(const Affine<C>* entries, unsigned w, unsigned windows, const typename C::Fr* k,
                                size_t n, Xyzz<C>* out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  typename FixedBaseTable<C>::Digits digits(k[i], w);
  Xyzz<C> acc = Xyzz<C>::infinity();
  for (unsigned j = 0; j < windows; ++j)
    if (const int32_t d = digits.next()) acc = acc.add(FixedBaseTable<C>::entry(entries, w, j, d));
  out[i] = acc;
}

// Montgomery's trick over each thread's kAffineBatch points: the products of
// their ZZZ forward (in `prefix`), one inversion, then each 1/ZZZ peeled off
// backward; x = X (ZZ/ZZZ)², y = Y/ZZZ as in Xyzz::to_affine.
template <class C>
__global__ void to_affine(const Xyzz<C>* in, size_t n, typename C::F* prefix, Affine<C>* out) {
  using F = typename C::F;
  const size_t begin = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * kAffineBatch;
  if (begin >= n) return;
  const size_t end = begin + kAffineBatch < n ? begin + kAffineBatch : n;
  F acc = F::one();
  for (size_t i = begin; i < end; ++i) {
    prefix[i] = acc;
    if (!in[i].is_inf()) acc *= in[i].ZZZ;
  }
  F inv = acc.inverse();
  for (size_t i = end; i-- > begin;) {
    const Xyzz<C> p = in[i];
    if (p.is_inf()) {
      out[i] = Affine<C>::infinity();
      continue;
    }
    const F zzz_inv = inv * prefix[i];
    inv *= p.ZZZ;
    const F z_inv = p.ZZ * zzz_inv;
    out[i] = {p.X * z_inv.sqr(), p.Y * zzz_inv};
  }
}

}  // namespace

template <class C>
void fixed_base_mul(const FixedBaseTable<C>& table, std::span<const typename C::Fr> k, Affine<C>* d_out,
                    Progress* progress, uint64_t weight) {
  if (k.empty()) return;
  const size_t chunk = std::min(kChunk, k.size());
  DeviceBuffer<Affine<C>> entries(table.entries.size());
  entries.upload(table.entries);
  DeviceBuffer<typename C::Fr> scalars(chunk);
  DeviceBuffer<Xyzz<C>> sums(chunk);
  DeviceBuffer<typename C::F> prefix(chunk);
  cuda::Stream stream;
  constexpr unsigned kThreads = 128;
  for (size_t b = 0; b < k.size(); b += chunk) {
    const size_t m = std::min(chunk, k.size() - b);
    scalars.upload(k.subspan(b, m), stream);
    fixed_base_sums<C><<<(unsigned)((m + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        entries.data(), table.window_bits, table.windows, scalars.data(), m, sums.data());
    CUZK_CUDA_CHECK_LAUNCH();
    const size_t batches = (m + kAffineBatch - 1) / kAffineBatch;
    to_affine<C><<<(unsigned)((batches + kThreads - 1) / kThreads), kThreads, 0, stream>>>(sums.data(), m,
                                                                                           prefix.data(), d_out + b);
    CUZK_CUDA_CHECK_LAUNCH();
    stream.sync();
    if (progress) progress->add(weight * m);
  }
}

#define CUZK_FIXED_BASE_CUDA_INSTANTIATE(C)                                                                \
  template void fixed_base_mul<C>(const FixedBaseTable<C>&, std::span<const C::Fr>, Affine<C>*, Progress*, \
                                  uint64_t);

}  // namespace cuzk::ec::gpu
