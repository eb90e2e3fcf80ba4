// Host Montgomery arithmetic on 64-bit limbs (unsigned __int128 products).
//
// Every field cuzk uses leaves its top limb below 2^63 - 1, so the CIOS loop can
// skip the extra carry word (the "no-carry" variant) and a + b never overflows
// N limbs. Fp<> static_asserts that condition for each field it is given.
#pragma once

#include "cuzk/config.hpp"

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
  // t < 2p: one conditional subtraction, done without a branch on the value.
  uint64_t s[N];
  uint64_t borrow = 0;
  for (size_t j = 0; j < N; ++j) {
    u128 d = (u128)t[j] - p[j] - borrow;
    s[j] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  const uint64_t keep_t = 0 - borrow;  // all ones when t < p
  for (size_t j = 0; j < N; ++j) r[j] = (t[j] & keep_t) | (s[j] & ~keep_t);
}

template <class P, size_t N = P::n64>
inline void add(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t t[N], s[N];
  uint64_t carry = 0, borrow = 0;
  for (size_t j = 0; j < N; ++j) {
    u128 x = (u128)a[j] + b[j] + carry;
    t[j] = (uint64_t)x;
    carry = (uint64_t)(x >> 64);
  }
  for (size_t j = 0; j < N; ++j) {
    u128 d = (u128)t[j] - p[j] - borrow;
    s[j] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  const uint64_t keep_t = 0 - borrow;
  for (size_t j = 0; j < N; ++j) r[j] = (t[j] & keep_t) | (s[j] & ~keep_t);
}

template <class P, size_t N = P::n64>
inline void sub(uint64_t r[N], const uint64_t a[N], const uint64_t b[N]) {
  constexpr auto& p = modulus<P>::v.l;
  uint64_t borrow = 0;
  uint64_t t[N];
  for (size_t j = 0; j < N; ++j) {
    u128 d = (u128)a[j] - b[j] - borrow;
    t[j] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  const uint64_t add_p = 0 - borrow;  // add p back when a < b
  uint64_t carry = 0;
  for (size_t j = 0; j < N; ++j) {
    u128 x = (u128)t[j] + (p[j] & add_p) + carry;
    r[j] = (uint64_t)x;
    carry = (uint64_t)(x >> 64);
  }
}

}  // namespace cuzk::ff::mont64
