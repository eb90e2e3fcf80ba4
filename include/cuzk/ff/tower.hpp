// The extension tower shared by BN254 and BLS12-381:
//   Fq2  = Fq[u]  / (u^2 + 1)
//   Fq6  = Fq2[v] / (v^3 - xi),  xi = XiC0 + u  (9 + u for BN254, 1 + u for BLS12-381)
//   Fq12 = Fq6[w] / (w^2 - v)
// This is the tower snarkjs, noble and the pairing literature use, so elements
// compare coefficient by coefficient with those implementations.
//
// Fq2 is host/device (G2 arithmetic runs on the GPU); Fq6 and Fq12 exist for the
// pairing, which runs on the host, but are written the same way.
#pragma once

#include "cuzk/config.hpp"

#if !CUZK_DEVICE_PASS
#include "cuzk/ff/bigint.hpp"
#endif

namespace cuzk::ff {

// x^e for an exponent of n little-endian limbs, by square-and-multiply. The
// exponent is public (p-derived constants, test values): the operations depend
// on it, never on x.
template <class T>
CUZK_HD T pow_square_multiply(const T& x, const uint64_t* e, size_t n) {
  T r = T::one();
  for (size_t i = n; i-- > 0;)
    for (int b = 63; b >= 0; --b) {
      r = r.sqr();
      if ((e[i] >> b) & 1) r *= x;
    }
  return r;
}

template <class Fq_>
struct Fp2 {
  using Base = Fq_;
  Base c0, c1;

  CUZK_HD_INLINE static constexpr Fp2 zero() { return {Base::zero(), Base::zero()}; }
  CUZK_HD_INLINE static constexpr Fp2 one() { return {Base::one(), Base::zero()}; }
  CUZK_HD_INLINE bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD_INLINE friend bool operator==(const Fp2& a, const Fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD_INLINE friend bool operator!=(const Fp2& a, const Fp2& b) { return !(a == b); }

  CUZK_HD_INLINE friend Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD_INLINE friend Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD_INLINE Fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: three base multiplications.
  CUZK_HD_INLINE friend Fp2 operator*(const Fp2& a, const Fp2& b) {
    const Base t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  CUZK_HD_INLINE friend Fp2 operator*(const Fp2& a, const Base& k) { return {a.c0 * k, a.c1 * k}; }
  CUZK_HD_INLINE Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  CUZK_HD_INLINE Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  CUZK_HD_INLINE Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  CUZK_HD_INLINE Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: two multiplications.
  CUZK_HD_INLINE Fp2 sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  CUZK_HD_INLINE Fp2 conj() const { return {c0, -c1}; }
  CUZK_HD_INLINE Fp2 mul_small(unsigned k) const { return {c0.mul_small(k), c1.mul_small(k)}; }
  CUZK_HD_INLINE Base norm() const { return c0.sqr() + c1.sqr(); }
  CUZK_HD Fp2 inverse() const {
    const Base t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  // x^(p^e): conjugation for odd e, identity for even e.
  CUZK_HD_INLINE Fp2 frobenius(unsigned e) const { return (e & 1) ? conj() : *this; }

  CUZK_HD Fp2 pow(const uint64_t* e, size_t n) const { return pow_square_multiply(*this, e, n); }

  // An element is a square iff its norm is a square in Fq.
  CUZK_HD int legendre() const { return norm().legendre(); }

  // Square root through the norm (p = 3 mod 4): with a = a0 + a1 u and
  // alpha = sqrt(a0^2 + a1^2), x0^2 = (a0 +- alpha)/2 and x1 = a1 / (2 x0).
  CUZK_HD bool sqrt(Fp2& out) const {
    if (c1.is_zero()) {
      Base s;
      if (c0.sqrt(s)) {
        out = {s, Base::zero()};
        return true;
      }
      if ((-c0).sqrt(s)) {  // -1 = u^2, so sqrt(c0) = u sqrt(-c0)
        out = {Base::zero(), s};
        return true;
      }
      return false;
    }
    Base alpha;
    if (!norm().sqrt(alpha)) return false;
    const Base half = Base::from_uint(2).inverse();
    Base delta = (c0 + alpha) * half, x0;
    if (!delta.sqrt(x0)) {
      delta = (c0 - alpha) * half;
      if (!delta.sqrt(x0)) return false;
    }
    const Fp2 x{x0, c1 * (x0.dbl()).inverse()};
    if (x.sqr() != *this) return false;
    out = x;
    return true;
  }
};

template <class Tower>
struct Fp6 {
  using F2 = typename Tower::Fq2;
  F2 c0, c1, c2;

  CUZK_HD_INLINE static constexpr Fp6 zero() { return {F2::zero(), F2::zero(), F2::zero()}; }
  CUZK_HD_INLINE static constexpr Fp6 one() { return {F2::one(), F2::zero(), F2::zero()}; }
  CUZK_HD_INLINE bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD_INLINE friend bool operator==(const Fp6& a, const Fp6& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  CUZK_HD_INLINE friend bool operator!=(const Fp6& a, const Fp6& b) { return !(a == b); }
  CUZK_HD_INLINE friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  CUZK_HD_INLINE friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  CUZK_HD_INLINE Fp6 operator-() const { return {-c0, -c1, -c2}; }
  CUZK_HD_INLINE Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  CUZK_HD_INLINE Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  CUZK_HD_INLINE Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  // Karatsuba over the three coefficients, v^3 = xi.
  CUZK_HD friend Fp6 operator*(const Fp6& a, const Fp6& b) {
    const F2 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
    return {Tower::mul_by_xi((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2) + t0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + Tower::mul_by_xi(t2),
            (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1};
  }
  CUZK_HD_INLINE friend Fp6 operator*(const Fp6& a, const F2& k) { return {a.c0 * k, a.c1 * k, a.c2 * k}; }
  CUZK_HD_INLINE Fp6 sqr() const { return *this * *this; }
  CUZK_HD_INLINE Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
  // (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2.
  CUZK_HD_INLINE Fp6 mul_by_v() const { return {Tower::mul_by_xi(c2), c0, c1}; }
  CUZK_HD Fp6 inverse() const {
    const F2 t0 = c0.sqr() - Tower::mul_by_xi(c1 * c2);
    const F2 t1 = Tower::mul_by_xi(c2.sqr()) - c0 * c1;
    const F2 t2 = c1.sqr() - c0 * c2;
    const F2 inv = (c0 * t0 + Tower::mul_by_xi(c2 * t1 + c1 * t2)).inverse();
    return {t0 * inv, t1 * inv, t2 * inv};
  }
};

template <class Tower>
struct Fp12 {
  using F2 = typename Tower::Fq2;
  using F6 = typename Tower::Fq6;
  F6 c0, c1;

  CUZK_HD_INLINE static constexpr Fp12 zero() { return {F6::zero(), F6::zero()}; }
  CUZK_HD_INLINE static constexpr Fp12 one() { return {F6::one(), F6::zero()}; }
  CUZK_HD_INLINE bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD_INLINE bool is_one() const { return *this == one(); }
  CUZK_HD_INLINE friend bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD_INLINE friend bool operator!=(const Fp12& a, const Fp12& b) { return !(a == b); }
  CUZK_HD_INLINE friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD_INLINE friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD_INLINE Fp12 operator-() const { return {-c0, -c1}; }
  CUZK_HD_INLINE Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  // Karatsuba over w, w^2 = v.
  CUZK_HD friend Fp12 operator*(const Fp12& a, const Fp12& b) {
    const F6 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_v(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  // (c0 + c1 w)^2 = (c0 + c1)(c0 + v c1) - (1 + v) c0 c1 + 2 c0 c1 w.
  CUZK_HD Fp12 sqr() const {
    const F6 ab = c0 * c1;
    const F6 t = (c0 + c1) * (c0 + c1.mul_by_v()) - ab - ab.mul_by_v();
    return {t, ab.dbl()};
  }
  // The inverse of a unitary element (norm 1, as after the easy part of the
  // final exponentiation); equals frobenius(6).
  CUZK_HD_INLINE Fp12 conj() const { return {c0, -c1}; }
  CUZK_HD Fp12 inverse() const {
    const F6 t = (c0.sqr() - c1.sqr().mul_by_v()).inverse();
    return {c0 * t, -(c1 * t)};
  }
  CUZK_HD Fp12 pow(const uint64_t* e, size_t n) const { return pow_square_multiply(*this, e, n); }

#if !CUZK_DEVICE_PASS
  // x^(p^e). Writing x = sum a_k w^k over Fq2 (k = i + 2j for c_i's v^j term),
  // (a w^k)^(p^e) = a^(p^e) w^k xi^(k (p^e - 1) / 6) since w^6 = xi.
  Fp12 frobenius(unsigned e) const {
    const auto& g = Tower::frobenius_coeffs(e);
    auto f = [&](const F2& a, int k) { return a.frobenius(e) * g[k]; };
    return {{f(c0.c0, 0), f(c0.c1, 2), f(c0.c2, 4)}, {f(c1.c0, 1), f(c1.c1, 3), f(c1.c2, 5)}};
  }
#endif
};

// Binds a base field and xi = XiC0 + u into one tower.
template <class Fq_, unsigned XiC0>
struct tower {
  using Fq = Fq_;
  using Fq2 = Fp2<Fq>;
  using Fq6 = Fp6<tower>;
  using Fq12 = Fp12<tower>;
  static constexpr unsigned xi_c0 = XiC0;

  // (a0 + a1 u)(c + u) = (c a0 - a1) + (a0 + c a1) u
  CUZK_HD_INLINE static Fq2 mul_by_xi(const Fq2& a) {
    return {a.c0.mul_small(XiC0) - a.c1, a.c0 + a.c1.mul_small(XiC0)};
  }
  CUZK_HD_INLINE static Fq2 xi() { return {Fq::from_uint(XiC0), Fq::one()}; }

#if !CUZK_DEVICE_PASS
  // xi^(k (p^e - 1) / 6) for k = 0..5, e = 1..11; derived once from p, so there
  // is no table of magic numbers to get wrong.
  static const Fq2* frobenius_coeffs(unsigned e) {
    static const auto table = [] {
      struct T {
        Fq2 g[12][6];
      } t;
      uint64_t pl[Fq::N];
      for (size_t i = 0; i < Fq::N; ++i) pl[i] = Fq::params::modulus(i);
      const BigUint p = BigUint::from_limbs(pl, Fq::N);
      BigUint pe(1);
      for (unsigned e = 0; e < 12; ++e) {
        BigUint x = pe - BigUint(1);
        x.divmod_small(6);  // p^e - 1 is divisible by 6 for these primes
        const auto& xl = x.limbs();
        const Fq2 base = xl.empty() ? Fq2::one() : xi().pow(xl.data(), xl.size());
        t.g[e][0] = Fq2::one();
        for (int k = 1; k < 6; ++k) t.g[e][k] = t.g[e][k - 1] * base;
        pe = pe * p;
      }
      return t;
    }();
    return table.g[e % 12];
  }
#endif
};

}  // namespace cuzk::ff
