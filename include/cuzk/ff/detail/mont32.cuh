// Device Montgomery arithmetic on 32-bit limbs with PTX carry chains.
//
// The GPU multiplies 32x32 bits natively (IMAD), so a field element of N 64-bit
// limbs is handled as n = 2N words. Each CIOS row adds a·b_i and m·p as two
// carry chains apiece: the low halves of the products land on words j, the high
// halves on words j+1. The carry flag lives between consecutive asm statements,
// so every one of them is volatile: the compiler may not reorder volatile asm,
// and a chain whose last step (say, reading the borrow) carries no data
// dependence on the ones before would otherwise be moved away from them; that
// was seen on sm_90 with nvcc 13.0 (half of all additions wrong).
//
// Bound: for all cuzk fields p < 2^(32n-1), so the accumulator never needs more
// than n+1 words (t < 2p + 2p·2^32 < 2^(32n+32)) and ends below 2p.
#pragma once

#include "cuzk/config.hpp"

#if defined(__CUDACC__)
namespace cuzk::ff::mont32 {

template <class P>
__device__ __forceinline__ constexpr uint32_t mod32(size_t j) {
  return (uint32_t)(P::modulus(j / 2) >> (32 * (j % 2)));
}

// acc[0..n] += a[0..n-1] * bi   (acc[n] receives the last carry and high half).
template <class P, size_t n>
__device__ __forceinline__ void mac_row(uint32_t acc[n + 1], const uint32_t a[n], uint32_t bi) {
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(a[0]), "r"(bi));
#pragma unroll
  for (size_t j = 1; j < n; ++j)
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(a[j]), "r"(bi));
  asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n]));
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(a[0]), "r"(bi));
#pragma unroll
  for (size_t j = 1; j < n - 1; ++j)
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(a[j]), "r"(bi));
  asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(acc[n]) : "r"(a[n - 1]), "r"(bi));
}

// acc[0..n] += m * p, then shift down one word (acc[0] is zero by choice of m).
template <class P, size_t n>
__device__ __forceinline__ void reduce_row(uint32_t acc[n + 1]) {
  const uint32_t m = acc[0] * (uint32_t)P::inv;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[0]) : "r"(m), "r"(mod32<P>(0)));
#pragma unroll
  for (size_t j = 1; j < n; ++j)
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j]) : "r"(m), "r"(mod32<P>(j)));
  asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[n]));
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[1]) : "r"(m), "r"(mod32<P>(0)));
#pragma unroll
  for (size_t j = 1; j < n - 1; ++j)
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(acc[j + 1]) : "r"(m), "r"(mod32<P>(j)));
  asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(acc[n]) : "r"(m), "r"(mod32<P>(n - 1)));
#pragma unroll
  for (size_t j = 0; j < n; ++j) acc[j] = acc[j + 1];
  acc[n] = 0;
}

// r = t - p if t >= p else t, for t < 2p.
template <class P, size_t n>
__device__ __forceinline__ void final_sub(uint32_t r[n], const uint32_t t[n]) {
  uint32_t s[n], borrow;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(t[0]), "r"(mod32<P>(0)));
#pragma unroll
  for (size_t j = 1; j < n; ++j)
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s[j]) : "r"(t[j]), "r"(mod32<P>(j)));
  asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));  // 0 or 0xffffffff
#pragma unroll
  for (size_t j = 0; j < n; ++j) r[j] = (t[j] & borrow) | (s[j] & ~borrow);
}

// Multiplication is inlined by default, as the hot kernels want. A translation
// unit that instantiates many large kernels (the arithmetic tests) may define
// CUZK_DEVICE_MUL_NOINLINE to compile it once as a function: the same code,
// minutes less compile time.
#ifdef CUZK_DEVICE_MUL_NOINLINE
#define CUZK_DEVICE_MUL_ATTR __device__ __noinline__
#else
#define CUZK_DEVICE_MUL_ATTR __device__ __forceinline__
#endif

template <class P, size_t n>
CUZK_DEVICE_MUL_ATTR void mul(uint32_t r[n], const uint32_t a[n], const uint32_t b[n]) {
  uint32_t acc[n + 1];
#pragma unroll
  for (size_t j = 0; j <= n; ++j) acc[j] = 0;
#pragma unroll
  for (size_t i = 0; i < n; ++i) {
    mac_row<P, n>(acc, a, b[i]);
    reduce_row<P, n>(acc);
  }
  final_sub<P, n>(r, acc);
}

template <class P, size_t n>
__device__ __forceinline__ void add(uint32_t r[n], const uint32_t a[n], const uint32_t b[n]) {
  uint32_t t[n];
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a[0]), "r"(b[0]));
#pragma unroll
  for (size_t j = 1; j < n; ++j) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(t[j]) : "r"(a[j]), "r"(b[j]));
  final_sub<P, n>(r, t);
}

template <class P, size_t n>
__device__ __forceinline__ void sub(uint32_t r[n], const uint32_t a[n], const uint32_t b[n]) {
  uint32_t t[n], borrow;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(a[0]), "r"(b[0]));
#pragma unroll
  for (size_t j = 1; j < n; ++j) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[j]) : "r"(a[j]), "r"(b[j]));
  asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
  asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(t[0]) : "r"(mod32<P>(0) & borrow));
#pragma unroll
  for (size_t j = 1; j < n; ++j) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(t[j]) : "r"(mod32<P>(j) & borrow));
#pragma unroll
  for (size_t j = 0; j < n; ++j) r[j] = t[j];
}

}  // namespace cuzk::ff::mont32
#endif
