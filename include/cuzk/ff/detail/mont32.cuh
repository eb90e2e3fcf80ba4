// Device modular addition and subtraction on 32-bit words with PTX carry
// chains (the multiplication is mont32_eo.hpp's).
//
// A field element of N 64-bit limbs is handled as n = 2N words. The carry flag
// lives between consecutive asm statements, so every one of them is volatile:
// the compiler may not reorder volatile asm, and a chain whose last step (say,
// reading the borrow) carries no data dependence on the ones before could
// otherwise be moved away from them, and the flag it reads would be another's.
//
// Bound: for all cuzk fields p < 2^(32n-1), so a + b < 2p fits in n words and
// one conditional subtraction reduces it.
#pragma once

#include "cuzk/config.hpp"

#if defined(__CUDACC__)
namespace cuzk::ff::mont32 {

template <class P>
__device__ __forceinline__ constexpr uint32_t mod32(size_t j) {
  return (uint32_t)(P::modulus(j / 2) >> (32 * (j % 2)));
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
