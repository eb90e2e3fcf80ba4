// Prime field in Montgomery form: one template over a field's constants.
//
// Layout: N 64-bit limbs, little-endian, holding a·R mod p with R = 2^(64N).
// That is byte for byte snarkjs's on-disk ("LEM") layout, so proving-key points
// can be used where they lie. Values are always fully reduced (< p), so equality
// is limb equality and the layout is canonical.
//
// Host code runs on 64-bit limbs (mont64.hpp); device code views the same bytes
// as 2N 32-bit words and runs PTX carry chains: the even/odd multiplication
// (mont32_eo.hpp), addition and subtraction (mont32.cuh).
#pragma once

#include "cuzk/config.hpp"
#include "cuzk/ff/detail/mont32.cuh"
#include "cuzk/ff/detail/mont32_eo.hpp"
#include "cuzk/ff/detail/mont64.hpp"

namespace cuzk::ff {

// Declares a field constant as a table of 64-bit limbs. A function, not an array
// member, because device code may not read a host constexpr array; the table is
// folded into immediates once loops over it are unrolled.
#define CUZK_LIMBS(name, ...)                                     \
  CUZK_HD_INLINE static constexpr uint64_t name(size_t i) {       \
    constexpr uint64_t v[] = {__VA_ARGS__};                       \
    return v[i];                                                  \
  }

template <class P>
struct Fp {
  using params = P;
  static constexpr size_t N = P::n64;
  static constexpr size_t bytes = 8 * N;
  static constexpr unsigned bits = P::bits;
  static_assert(P::modulus(N - 1) < 0x7fffffffffffffffull,
                "the no-carry Montgomery loop needs a spare top bit in the modulus");

  uint64_t limb[N];

  CUZK_HD_INLINE static constexpr Fp zero() {
    Fp r{};
    return r;
  }
  CUZK_HD_INLINE static constexpr Fp one() {
    Fp r{};
    for (size_t i = 0; i < N; ++i) r.limb[i] = P::one(i);
    return r;
  }
  CUZK_HD_INLINE static constexpr Fp r2() {
    Fp r{};
    for (size_t i = 0; i < N; ++i) r.limb[i] = P::r2(i);
    return r;
  }

  CUZK_HD_INLINE bool is_zero() const {
    uint64_t acc = 0;
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) acc |= limb[i];
    return acc == 0;
  }
  CUZK_HD_INLINE bool is_one() const { return *this == one(); }

  CUZK_HD_INLINE friend bool operator==(const Fp& a, const Fp& b) {
    uint64_t acc = 0;
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) acc |= a.limb[i] ^ b.limb[i];
    return acc == 0;
  }
  CUZK_HD_INLINE friend bool operator!=(const Fp& a, const Fp& b) { return !(a == b); }

  CUZK_HD_INLINE friend Fp operator*(const Fp& a, const Fp& b) {
    Fp r;
#if CUZK_DEVICE_PASS
    uint32_t x[2 * N], y[2 * N], z[2 * N];
    a.split(x);
    b.split(y);
    mont32eo::mul<P, 2 * N>(z, x, y);
    r.join(z);
#else
    mont64::mul<P>(r.limb, a.limb, b.limb);
#endif
    return r;
  }
  CUZK_HD_INLINE friend Fp operator+(const Fp& a, const Fp& b) {
    Fp r;
#if CUZK_DEVICE_PASS
    uint32_t x[2 * N], y[2 * N], z[2 * N];
    a.split(x);
    b.split(y);
    mont32::add<P, 2 * N>(z, x, y);
    r.join(z);
#else
    mont64::add<P>(r.limb, a.limb, b.limb);
#endif
    return r;
  }
  CUZK_HD_INLINE friend Fp operator-(const Fp& a, const Fp& b) {
    Fp r;
#if CUZK_DEVICE_PASS
    uint32_t x[2 * N], y[2 * N], z[2 * N];
    a.split(x);
    b.split(y);
    mont32::sub<P, 2 * N>(z, x, y);
    r.join(z);
#else
    mont64::sub<P>(r.limb, a.limb, b.limb);
#endif
    return r;
  }
  CUZK_HD_INLINE Fp operator-() const { return zero() - *this; }
  CUZK_HD_INLINE Fp& operator*=(const Fp& b) { return *this = *this * b; }
  CUZK_HD_INLINE Fp& operator+=(const Fp& b) { return *this = *this + b; }
  CUZK_HD_INLINE Fp& operator-=(const Fp& b) { return *this = *this - b; }

  CUZK_HD_INLINE Fp dbl() const { return *this + *this; }
  CUZK_HD_INLINE Fp sqr() const { return *this * *this; }

  // Small constant multiple by double-and-add; k is known at compile time
  // wherever it matters (curve constants, tower non-residues).
  CUZK_HD_INLINE Fp mul_small(unsigned k) const {
    Fp acc = zero(), base = *this;
    for (; k; k >>= 1) {
      if (k & 1) acc += base;
      base = base.dbl();
    }
    return acc;
  }

  // this^e for an exponent of n limbs (little-endian). The exponent is public:
  // the sequence of operations depends on it, never on this value.
  CUZK_HD Fp pow(const uint64_t* e, size_t n) const {
    Fp table[16];
    table[0] = one();
    for (int i = 1; i < 16; ++i) table[i] = table[i - 1] * *this;
    Fp r = one();
    bool started = false;
    for (size_t i = n; i-- > 0;) {
      for (int nib = 15; nib >= 0; --nib) {
        const unsigned d = (unsigned)(e[i] >> (4 * nib)) & 15;
        if (started) r = r.sqr().sqr().sqr().sqr();
        if (d) {
          r *= table[d];
          started = true;
        }
      }
    }
    return r;
  }

  // Fermat inverse, constant time in the value; zero maps to zero.
  CUZK_HD Fp inverse() const {
    uint64_t e[N];
    modulus_minus_small(e, 2);
    return pow(e, N);
  }

  // a^((p-1)/2): 1 for non-zero squares, -1 for non-squares, 0 for 0.
  CUZK_HD int legendre() const {
    uint64_t e[N];
    modulus_minus_small(e, 1);
    shift_right(e, 1);
    const Fp l = pow(e, N);
    if (l.is_zero()) return 0;
    return l == one() ? 1 : -1;
  }

  // Square root for p = 3 mod 4 (both base fields): a^((p+1)/4), checked.
  CUZK_HD bool sqrt(Fp& out) const {
    static_assert(P::p_mod4 == 3, "sqrt is provided for fields with p = 3 mod 4");
    uint64_t e[N];
    modulus_minus_small(e, 0);
    add_small(e, 1);
    shift_right(e, 2);
    const Fp s = pow(e, N);
    if (s.sqr() != *this) return false;
    out = s;
    return true;
  }

  // Conversions between Montgomery form and canonical integers (as limbs).
  CUZK_HD_INLINE static Fp from_canonical_unchecked(const uint64_t v[N]) {
    Fp t;
    for (size_t i = 0; i < N; ++i) t.limb[i] = v[i];
    return t * r2();
  }
  // False when v >= p: a canonical value must be reduced.
  CUZK_HD static bool from_canonical(const uint64_t v[N], Fp& out) {
    if (!less_than_modulus(v)) return false;
    out = from_canonical_unchecked(v);
    return true;
  }
  CUZK_HD_INLINE void to_canonical(uint64_t v[N]) const {
#if CUZK_DEVICE_PASS
    Fp raw{};
    raw.limb[0] = 1;
    const Fp t = *this * raw;  // multiplying by 1 (not R) divides by R
#else
    const Fp t = divided_by_r();
#endif
    for (size_t i = 0; i < N; ++i) v[i] = t.limb[i];
  }
  // This element's limbs divided by R, on the host: the Montgomery reduction
  // alone. It gives to_canonical's limbs, and a zkey's coefficient (stored
  // as v·R²) in Montgomery form (v·R).
  Fp divided_by_r() const {
    Fp r;
    mont64::redc<P>(r.limb, limb);
    return r;
  }
  CUZK_HD_INLINE static Fp from_uint(uint64_t x) {
    uint64_t v[N] = {};
    v[0] = x;
    return from_canonical_unchecked(v);
  }
  CUZK_HD static bool less_than_modulus(const uint64_t v[N]) {
    for (size_t i = N; i-- > 0;) {
      if (v[i] != P::modulus(i)) return v[i] < P::modulus(i);
    }
    return false;
  }

 private:
#if CUZK_DEVICE_PASS
  __device__ __forceinline__ void split(uint32_t w[2 * N]) const {
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      w[2 * i] = (uint32_t)limb[i];
      w[2 * i + 1] = (uint32_t)(limb[i] >> 32);
    }
  }
  __device__ __forceinline__ void join(const uint32_t w[2 * N]) {
CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) limb[i] = ((uint64_t)w[2 * i + 1] << 32) | w[2 * i];
  }
#endif
  CUZK_HD static void modulus_minus_small(uint64_t e[N], uint64_t k) {
    uint64_t borrow = k;
    for (size_t i = 0; i < N; ++i) {
      const uint64_t m = P::modulus(i);
      e[i] = m - borrow;
      borrow = m < borrow ? 1 : 0;
    }
  }
  CUZK_HD static void add_small(uint64_t e[N], uint64_t k) {
    for (size_t i = 0; i < N && k; ++i) {
      e[i] += k;
      k = e[i] < k ? 1 : 0;
    }
  }
  CUZK_HD static void shift_right(uint64_t e[N], unsigned s) {
    for (size_t i = 0; i < N; ++i) e[i] = (e[i] >> s) | (i + 1 < N ? e[i + 1] << (64 - s) : 0);
  }
};

}  // namespace cuzk::ff
