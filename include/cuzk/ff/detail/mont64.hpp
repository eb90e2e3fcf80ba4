// Host Montgomery arithmetic on 64-bit limbs (unsigned __int128 products).
//
// Every field cuzk uses leaves its top limb below 2^63 - 1, so the CIOS loop can
// skip the extra carry word (the "no-carry" variant) and a + b never overflows
// N limbs. Fp<> static_asserts that condition for each field it is given.
#pragma once

#include "cuzk/config.hpp"

#include "cuzk/ff/detail/x86_intrinsics.hpp"

namespace cuzk::ff::mont64 {

using u128 = unsigned __int128;

// The field operations inline into their callers whatever GCC's size
// heuristics say: as calls they cost more than themselves (a 2^16 host MSM
// spent 18% of its time in calls to 4-limb add and sub).
#define CUZK_HOST_INLINE [[gnu::always_inline]] inline

// The modulus as a host array: indexing P::modulus(i) at run time would rebuild
// its table on every call, and these loops are the host's innermost.
template <class P, size_t N = P::n64>
struct modulus {
  static constexpr auto v = [] {
    struct {
      uint64_t l[N];
    } m{};
    for (size_t i = 0; i < N; ++i) m.l[i] = P::modulus(i);
    return m;
  }();
};

// Carry-chain steps. On x86-64 these are the ADC/SBB intrinsics, which GCC
// keeps in registers; the portable form through unsigned __int128 made GCC 12
// spill every limb to the stack (4-limb add + sub: 39 ns against 6 ns).
#if defined(__x86_64__)
inline unsigned char addc(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
  unsigned long long r;
  c = _addcarry_u64(c, a, b, &r);
  out = r;
  return c;
}
inline unsigned char subb(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
  unsigned long long r;
  c = _subborrow_u64(c, a, b, &r);
  out = r;
  return c;
}
#else
inline unsigned char addc(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
  const u128 x = (u128)a + b + c;
  out = (uint64_t)x;
  return (unsigned char)(x >> 64);
}
inline unsigned char subb(unsigned char c, uint64_t a, uint64_t b, uint64_t& out) {
  const u128 x = (u128)a - b - c;
  out = (uint64_t)x;
  return (unsigned char)((x >> 64) & 1);
}
#endif

// r = t - p if t >= p, else t (t < 2p), without a branch on the value.
template <class P, size_t N = P::n64>
CUZK_HOST_INLINE void reduce_once(uint64_t r[N], const uint64_t t[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t s[N];
  unsigned char borrow = 0;
  for (size_t j = 0; j < N; ++j) borrow = subb(borrow, t[j], p[j], s[j]);
  const uint64_t keep_t = 0 - (uint64_t)borrow;  // all ones when t < p
  for (size_t j = 0; j < N; ++j) r[j] = (t[j] & keep_t) | (s[j] & ~keep_t);
}

#if defined(__x86_64__)
// Whether this CPU has MULX (BMI2) and ADCX/ADOX (ADX): every x86-64 since
// Broadwell and Zen. Asked once; the branch on it is always predicted.
inline const bool kHaveMulxAdx = [] {
  // CPUID leaf 7: EBX bit 8 is BMI2, bit 19 ADX (asked directly: clang 14's
  // __builtin_cpu_supports does not know "adx").
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return ((ebx >> 8) & 1) && ((ebx >> 19) & 1);
}();

// The CIOS loop below with MULX and two carry chains (ADOX for the low halves
// of the products, ADCX for the high halves), fully unrolled for 4 limbs
// (BN254) and 6 (BLS12-381's Fq): the running sum lives in a ring of N + 1
// registers that turns by one limb per round, as the reduction shifts it. Same
// result and bound (t < 2p) as the portable loop, whose u128 carries GCC 12
// keeps in one chain: 4 limbs took 47-62 ns a dependent product there against
// 37-45 ns here on the 2-core EPYC (docs/PERFORMANCE.md, "Host arithmetic").
// The modulus and -p^-1 mod 2^64 are read from their static storage (one
// RIP-relative operand each), which leaves registers for the ring even in a
// build without optimization (6 limbs: 7 ring, lo, hi, z, a, b and rdx).
//
// The rounds are spelled by macros over the ring's register names; a round
// of N limbs adds a * b[i] to the ring (N - 1 steps and the top limb, which
// lands in the free register), then m * p (N steps), which clears its lowest.
#define CUZK_MULX_STEP(src, lo_to, hi_to) \
  "mulxq " src ", %[lo], %[hi]\n\t"       \
  "adoxq %[lo], %[" lo_to "]\n\t"         \
  "adcxq %[hi], %[" hi_to "]\n\t"
#define CUZK_MULX_TOP(src, lo_to, top) \
  "mulxq " src ", %[lo], %[" top "]\n\t" \
  "adoxq %[lo], %[" lo_to "]\n\t"        \
  "adcxq %[z], %[" top "]\n\t"           \
  "adoxq %[z], %[" top "]\n\t"
#define CUZK_MULX_ROW(offset) "movq " offset "(%[b]), %%rdx\n\txorl %k[z], %k[z]\n\t"
#define CUZK_MULX_M(low) "movq %[" low "], %%rdx\n\timulq %[inv], %%rdx\n\txorl %k[z], %k[z]\n\t"
#define CUZK_MULX_END(top) "adoxq %[z], %[" top "]\n\t"

#define CUZK_MULX4_ROUND(offset, t0, t1, t2, t3, t4)                                                          \
  CUZK_MULX_ROW(offset)                                                                                       \
  CUZK_MULX_STEP("0(%[a])", t0, t1) CUZK_MULX_STEP("8(%[a])", t1, t2) CUZK_MULX_STEP("16(%[a])", t2, t3)      \
  CUZK_MULX_TOP("24(%[a])", t3, t4)                                                                           \
  CUZK_MULX_M(t0) CUZK_MULX_STEP("%[p0]", t0, t1) CUZK_MULX_STEP("%[p1]", t1, t2) CUZK_MULX_STEP("%[p2]", t2, t3) \
  CUZK_MULX_STEP("%[p3]", t3, t4) CUZK_MULX_END(t4)

#define CUZK_MULX6_ROUND(offset, t0, t1, t2, t3, t4, t5, t6)                                                  \
  CUZK_MULX_ROW(offset)                                                                                       \
  CUZK_MULX_STEP("0(%[a])", t0, t1) CUZK_MULX_STEP("8(%[a])", t1, t2) CUZK_MULX_STEP("16(%[a])", t2, t3)      \
  CUZK_MULX_STEP("24(%[a])", t3, t4) CUZK_MULX_STEP("32(%[a])", t4, t5) CUZK_MULX_TOP("40(%[a])", t5, t6)     \
  CUZK_MULX_M(t0) CUZK_MULX_STEP("%[p0]", t0, t1) CUZK_MULX_STEP("%[p1]", t1, t2) CUZK_MULX_STEP("%[p2]", t2, t3) \
  CUZK_MULX_STEP("%[p3]", t3, t4) CUZK_MULX_STEP("%[p4]", t4, t5) CUZK_MULX_STEP("%[p5]", t5, t6) CUZK_MULX_END(t6)

template <class P>
CUZK_HOST_INLINE void mul4_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]) {
  static constexpr uint64_t inv = P::inv;
  using p = modulus<P, 4>;
  uint64_t t0, t1, t2, t3, t4, lo, hi, z;
  asm("xorl %k[z], %k[z]\n\t"
      "movq %[z], %[t0]\n\tmovq %[z], %[t1]\n\tmovq %[z], %[t2]\n\tmovq %[z], %[t3]\n\t"
      CUZK_MULX4_ROUND("0", "t0", "t1", "t2", "t3", "t4")
      CUZK_MULX4_ROUND("8", "t1", "t2", "t3", "t4", "t0")
      CUZK_MULX4_ROUND("16", "t2", "t3", "t4", "t0", "t1")
      CUZK_MULX4_ROUND("24", "t3", "t4", "t0", "t1", "t2")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo),
        [hi] "=&r"(hi), [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), [p0] "m"(p::v.l[0]), [p1] "m"(p::v.l[1]), [p2] "m"(p::v.l[2]),
        [p3] "m"(p::v.l[3]), [inv] "m"(inv)
      : "rdx", "cc", "memory");  // "memory": the asm reads a[] and b[]
  r[0] = t4, r[1] = t0, r[2] = t1, r[3] = t2;  // the ring turned four times
}

template <class P>
CUZK_HOST_INLINE void mul6_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]) {
  static constexpr uint64_t inv = P::inv;
  using p = modulus<P, 6>;
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, z;
  asm("xorl %k[z], %k[z]\n\t"
      "movq %[z], %[t0]\n\tmovq %[z], %[t1]\n\tmovq %[z], %[t2]\n\t"
      "movq %[z], %[t3]\n\tmovq %[z], %[t4]\n\tmovq %[z], %[t5]\n\t"
      CUZK_MULX6_ROUND("0", "t0", "t1", "t2", "t3", "t4", "t5", "t6")
      CUZK_MULX6_ROUND("8", "t1", "t2", "t3", "t4", "t5", "t6", "t0")
      CUZK_MULX6_ROUND("16", "t2", "t3", "t4", "t5", "t6", "t0", "t1")
      CUZK_MULX6_ROUND("24", "t3", "t4", "t5", "t6", "t0", "t1", "t2")
      CUZK_MULX6_ROUND("32", "t4", "t5", "t6", "t0", "t1", "t2", "t3")
      CUZK_MULX6_ROUND("40", "t5", "t6", "t0", "t1", "t2", "t3", "t4")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), [p0] "m"(p::v.l[0]), [p1] "m"(p::v.l[1]), [p2] "m"(p::v.l[2]),
        [p3] "m"(p::v.l[3]), [p4] "m"(p::v.l[4]), [p5] "m"(p::v.l[5]), [inv] "m"(inv)
      : "rdx", "cc", "memory");
  r[0] = t6, r[1] = t0, r[2] = t1, r[3] = t2, r[4] = t3, r[5] = t4;  // the ring turned six times
}

#undef CUZK_MULX6_ROUND
#undef CUZK_MULX4_ROUND
#undef CUZK_MULX_END
#undef CUZK_MULX_M
#undef CUZK_MULX_ROW
#undef CUZK_MULX_TOP
#undef CUZK_MULX_STEP
#endif

// CIOS with u128 carries: every field size, and 4 or 6 limbs without MULX/ADX.
template <class P, size_t N = P::n64>
inline void mul_portable(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t t[N] = {};
  for (size_t i = 0; i < N; ++i) {
    u128 ab = (u128)a[0] * b[i] + t[0];
    t[0] = (uint64_t)ab;
    uint64_t A = (uint64_t)(ab >> 64);
    const uint64_t m = t[0] * P::inv;
    u128 mp = (u128)m * p[0] + t[0];
    uint64_t C = (uint64_t)(mp >> 64);
    for (size_t j = 1; j < N; ++j) {
      ab = (u128)a[j] * b[i] + t[j] + A;
      A = (uint64_t)(ab >> 64);
      mp = (u128)m * p[j] + (uint64_t)ab + C;
      C = (uint64_t)(mp >> 64);
      t[j - 1] = (uint64_t)mp;
    }
    t[N - 1] = C + A;
  }
  reduce_once<P>(r, t);  // t < 2p
}

// r = a·R⁻¹ mod p (a < 2^(64N)): the Montgomery reduction alone, N rounds of
// adding the multiple of p that clears the low limb. What a multiplication by
// a raw 1 computes, in half its products. The result is at most p before
// reduce_once: (a + m·p) / R < 1 + p for every m < R.
template <class P, size_t N = P::n64>
CUZK_HOST_INLINE void redc(uint64_t r[N], const uint64_t a[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t t[N];
  for (size_t j = 0; j < N; ++j) t[j] = a[j];
  for (size_t i = 0; i < N; ++i) {
    const uint64_t m = t[0] * P::inv;
    u128 acc = (u128)m * p[0] + t[0];  // its low limb is 0
    for (size_t j = 1; j < N; ++j) {
      acc = (u128)m * p[j] + t[j] + (uint64_t)(acc >> 64);
      t[j - 1] = (uint64_t)acc;
    }
    t[N - 1] = (uint64_t)(acc >> 64);
  }
  reduce_once<P>(r, t);
}

template <class P, size_t N = P::n64>
CUZK_HOST_INLINE void mul(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
#if defined(__x86_64__)
  if constexpr (N == 4 || N == 6) {
    if (kHaveMulxAdx) {
      uint64_t t[N];
      if constexpr (N == 4) mul4_mulx<P>(t, a, b);
      else mul6_mulx<P>(t, a, b);
      reduce_once<P>(r, t);  // t < 2p
      return;
    }
  }
#endif
  mul_portable<P, N>(r, a, b);
}

template <class P, size_t N = P::n64>
CUZK_HOST_INLINE void add(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  uint64_t t[N];
  unsigned char carry = 0;  // a + b < 2p < 2^(64N): no carry out
  for (size_t j = 0; j < N; ++j) carry = addc(carry, a[j], b[j], t[j]);
  reduce_once<P>(r, t);
}

template <class P, size_t N = P::n64>
CUZK_HOST_INLINE void sub(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t t[N];
  unsigned char borrow = 0;
  for (size_t j = 0; j < N; ++j) borrow = subb(borrow, a[j], b[j], t[j]);
  const uint64_t add_p = 0 - (uint64_t)borrow;  // add p back when a < b
  unsigned char carry = 0;
  for (size_t j = 0; j < N; ++j) carry = addc(carry, t[j], p[j] & add_p, r[j]);
}

}  // namespace cuzk::ff::mont64
