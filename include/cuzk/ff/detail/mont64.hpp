// Host Montgomery arithmetic on 64-bit limbs (unsigned __int128 products).
//
// Every field cuzk uses leaves its top limb below 2^63 - 1, so the CIOS loop can
// skip the extra carry word (the "no-carry" variant) and a + b never overflows
// N limbs. Fp<> static_asserts that condition for each field it is given.
#pragma once

#include "cuzk/config.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cuzk::ff::mont64 {

using u128 = unsigned __int128;

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
inline void reduce_once(uint64_t r[N], const uint64_t t[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t s[N];
  unsigned char borrow = 0;
  for (size_t j = 0; j < N; ++j) borrow = subb(borrow, t[j], p[j], s[j]);
  const uint64_t keep_t = 0 - (uint64_t)borrow;  // all ones when t < p
  for (size_t j = 0; j < N; ++j) r[j] = (t[j] & keep_t) | (s[j] & ~keep_t);
}

template <class P, size_t N = P::n64>
inline void mul(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
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

template <class P, size_t N = P::n64>
inline void add(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  uint64_t t[N];
  unsigned char carry = 0;  // a + b < 2p < 2^(64N): no carry out
  for (size_t j = 0; j < N; ++j) carry = addc(carry, a[j], b[j], t[j]);
  reduce_once<P>(r, t);
}

template <class P, size_t N = P::n64>
inline void sub(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t t[N];
  unsigned char borrow = 0;
  for (size_t j = 0; j < N; ++j) borrow = subb(borrow, a[j], b[j], t[j]);
  const uint64_t add_p = 0 - (uint64_t)borrow;  // add p back when a < b
  unsigned char carry = 0;
  for (size_t j = 0; j < N; ++j) carry = addc(carry, t[j], p[j] & add_p, r[j]);
}

}  // namespace cuzk::ff::mont64
