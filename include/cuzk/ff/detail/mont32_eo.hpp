// The device Montgomery multiplication (Fp's operator* under __CUDA_ARCH__),
// on 32-bit words with even/odd accumulators (the layout of Emmart and Weems,
// "Optimizing Modular Multiplication for NVIDIA's Maxwell GPUs", ARITH 2016),
// written for cuzk from that idea.
//
// The words of a are split by parity: a[j]·b_i for even j adds its low half at
// word j and its high half at word j+1 of accumulator A, and for odd j the same
// into accumulator B. Each chain then runs lo, hi, lo, hi over consecutive
// words, the two halves of one 32x32-bit product side by side in one carry
// chain, which is what a wide multiply-add with carry does; a row that adds all
// low halves and then all high halves keeps them apart.
//
// State between rows, value T = A + pend + B·2^32:
//   A[0..n]    words at positions 0..n,
//   B[0..n-1]  words at positions 1..n (offset one word),
//   pend       one word at position 0, still to be added into A[0].
// Row i:
//   (1) A[0] += pend (carry at position 1), then in the same chain B += a_odd·b_i
//       (its first word is position 1, so it takes that carry);
//   (2) A += a_even·b_i, carry into A[n];
//   (3) m = A[0]·(-p^-1) mod 2^32 (A[0] is T mod 2^32: B has no position 0);
//   (4) A += p_even·m, B += p_odd·m: A[0] becomes 0;
//   (5) divide by 2^32, by renaming only: the new A is B (positions 1..n -> 0..n-1,
//       its word n zero), the new pend is A[1], the new B is A[2..n] (positions
//       2..n -> 1..n-1, its last word zero).
// After n rows the result is A + pend + B·2^32 < 2p in n words, then one
// conditional subtraction of p.
//
// Bounds (p < 2^(32n-1), a, b < p): T < 2p before each row, and within a row
// T + a·b_i + m·p < 2p + 2·(2^32 - 1)·p < 2^(32n+32). A and B are partial sums
// of T, so each fits in its words at every step, and the carry out of each
// chain's top word is zero: the chains end without .cc. The host emulation
// (HostIsa) checks exactly that.
//
// Isa: the seven carry-chain operations, as PTX on the device (DeviceIsa, each
// statement volatile for the reason given in mont32.cuh) and as a carry bit in
// a member on the host (HostIsa, used by the unit test to run the very same
// sequence). mul(r, a, b) is the device entry point.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/config.hpp"

namespace cuzk::ff::mont32eo {

template <class P>
CUZK_HD_INLINE constexpr uint32_t mod32(size_t j) {
  return (uint32_t)(P::modulus(j / 2) >> (32 * (j % 2)));
}

// The host model of the PTX carry flag. `dropped` counts carries lost at a
// chain's end (must stay 0).
struct HostIsa {
  uint32_t cf = 0;
  uint64_t dropped = 0;
  static uint64_t lo(uint32_t a, uint32_t b) { return (uint64_t)(uint32_t)((uint64_t)a * b); }
  static uint64_t hi(uint32_t a, uint32_t b) { return ((uint64_t)a * b) >> 32; }
  void set(uint32_t& d, uint64_t s) {
    d = (uint32_t)s;
    cf = (uint32_t)(s >> 32);
  }
  void end(uint32_t& d, uint64_t s) {
    d = (uint32_t)s;
    dropped += s >> 32;
    cf = 0;
  }
  // d = lo(a·b) + d, carry out.
  void mad_lo_cc(uint32_t& d, uint32_t a, uint32_t b) { set(d, lo(a, b) + d); }
  void madc_lo_cc(uint32_t& d, uint32_t a, uint32_t b) { set(d, lo(a, b) + d + cf); }
  void madc_hi_cc(uint32_t& d, uint32_t a, uint32_t b) { set(d, hi(a, b) + d + cf); }
  void madc_hi(uint32_t& d, uint32_t a, uint32_t b) { end(d, hi(a, b) + d + cf); }
  void add_cc(uint32_t& d, uint32_t a) { set(d, (uint64_t)d + a); }
  void addc_cc(uint32_t& d, uint32_t a) { set(d, (uint64_t)d + a + cf); }
  void addc(uint32_t& d, uint32_t a) { end(d, (uint64_t)d + a + cf); }
};

#if defined(__CUDACC__)
struct DeviceIsa {
  __device__ __forceinline__ void mad_lo_cc(uint32_t& d, uint32_t a, uint32_t b) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void madc_lo_cc(uint32_t& d, uint32_t a, uint32_t b) {
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void madc_hi_cc(uint32_t& d, uint32_t a, uint32_t b) {
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void madc_hi(uint32_t& d, uint32_t a, uint32_t b) {
    asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void add_cc(uint32_t& d, uint32_t a) {
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a));
  }
  __device__ __forceinline__ void addc_cc(uint32_t& d, uint32_t a) {
    asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a));
  }
  __device__ __forceinline__ void addc(uint32_t& d, uint32_t a) {
    asm volatile("addc.u32 %0, %0, %1;" : "+r"(d) : "r"(a));
  }
};
#endif

// acc[0..n-1] += Σ_{j ≡ par (mod 2)} x[j]·y·2^(32(j - par)), one chain that
// starts a new carry (Start) or continues the flag's (after add_cc); the last
// high half ends the chain without carry out when Close, else leaves the carry
// for the caller. par = 0: words 0..n-1 of acc get lo, hi of x[0], x[2], ...;
// par = 1: the same for x[1], x[3], ....
template <size_t n, unsigned par, bool Start, bool Close, class Isa, class X>
CUZK_HD_INLINE void mad_chain(Isa& isa, uint32_t acc[], const X& x, uint32_t y) {
CUZK_UNROLL
  for (size_t j = par; j < n; j += 2) {
    if (Start && j == par)
      isa.mad_lo_cc(acc[j - par], x(j), y);
    else
      isa.madc_lo_cc(acc[j - par], x(j), y);
    if (Close && j + 2 >= n)
      isa.madc_hi(acc[j - par + 1], x(j), y);
    else
      isa.madc_hi_cc(acc[j - par + 1], x(j), y);
  }
}

template <class P, size_t n, class Isa>
CUZK_HD_INLINE void mul(Isa& isa, uint32_t r[n], const uint32_t a[n], const uint32_t b[n]) {
  static_assert(n % 2 == 0 && n >= 4, "even word counts only");
  uint32_t A[n + 1], B[n], pend = 0;
CUZK_UNROLL
  for (size_t j = 0; j <= n; ++j) A[j] = 0;
CUZK_UNROLL
  for (size_t j = 0; j < n; ++j) B[j] = 0;
  const auto xa = [&](size_t j) { return a[j]; };
  const auto xp = [](size_t j) { return mod32<P>(j); };
CUZK_UNROLL
  for (size_t i = 0; i < n; ++i) {
    // (1) pend into A[0]; its carry (position 1) starts B's odd chain.
    isa.add_cc(A[0], pend);
    mad_chain<n, 1, false, true, Isa>(isa, B, xa, b[i]);
    // (2) even products into A[0..n-1], carry into A[n].
    mad_chain<n, 0, true, false, Isa>(isa, A, xa, b[i]);
    isa.addc(A[n], 0);
    // (3), (4)
    const uint32_t m = A[0] * (uint32_t)P::inv;
    mad_chain<n, 0, true, false, Isa>(isa, A, xp, m);
    isa.addc(A[n], 0);
    mad_chain<n, 1, true, true, Isa>(isa, B, xp, m);
    // (5) divide by 2^32 by renaming.
    const uint32_t a1 = A[1];
    uint32_t nb[n];
CUZK_UNROLL
    for (size_t j = 0; j + 1 < n; ++j) nb[j] = A[j + 2];
    nb[n - 1] = 0;
CUZK_UNROLL
    for (size_t j = 0; j < n; ++j) A[j] = B[j];
    A[n] = 0;
CUZK_UNROLL
    for (size_t j = 0; j < n; ++j) B[j] = nb[j];
    pend = a1;
  }
  // t = A + pend + B·2^32 < 2p < 2^(32n).
  uint32_t t[n];
  t[0] = A[0];
  isa.add_cc(t[0], pend);
CUZK_UNROLL
  for (size_t j = 1; j < n; ++j) {
    t[j] = A[j];
    if (j + 1 < n)
      isa.addc_cc(t[j], B[j - 1]);
    else
      isa.addc(t[j], B[j - 1]);
  }
  // r = t - p if t >= p, else t.
  uint32_t s[n];
CUZK_UNROLL
  for (size_t j = 0; j < n; ++j) s[j] = t[j];
  // s = t + (2^(32n) - p): a carry out means t >= p.
  uint32_t negp[n];
  {
    // two's complement of p, word by word (constants: folded by the compiler)
    uint64_t c = 1;
CUZK_UNROLL
    for (size_t j = 0; j < n; ++j) {
      const uint64_t v = (uint64_t)(uint32_t)~mod32<P>(j) + c;
      negp[j] = (uint32_t)v;
      c = v >> 32;
    }
  }
  isa.add_cc(s[0], negp[0]);
CUZK_UNROLL
  for (size_t j = 1; j < n; ++j) isa.addc_cc(s[j], negp[j]);
  uint32_t ge = 0;
  isa.addc(ge, 0);  // 1 when t >= p
  const uint32_t mask = 0u - ge;
CUZK_UNROLL
  for (size_t j = 0; j < n; ++j) r[j] = (s[j] & mask) | (t[j] & ~mask);
}

#if defined(__CUDACC__)
// Multiplication is inlined by default, as the hot kernels want. A translation
// unit that instantiates many large kernels (the arithmetic tests, the G2 MSM)
// may define CUZK_DEVICE_MUL_NOINLINE to compile it once as a function: the
// same code, minutes less compile time.
#ifdef CUZK_DEVICE_MUL_NOINLINE
#define CUZK_DEVICE_MUL_ATTR __device__ __noinline__
#else
#define CUZK_DEVICE_MUL_ATTR __device__ __forceinline__
#endif

template <class P, size_t n>
CUZK_DEVICE_MUL_ATTR void mul(uint32_t r[n], const uint32_t a[n], const uint32_t b[n]) {
  DeviceIsa isa;
  mul<P, n>(isa, r, a, b);
}
#endif

}  // namespace cuzk::ff::mont32eo
