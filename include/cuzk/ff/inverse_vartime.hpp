// Field inversion in variable time, on the host: Bernstein and Yang's
// "safegcd" (Fast constant-time gcd computation and modular inversion, 2019)
// in its variable-time form, the divsteps in batches of 62 on single 64-bit
// words as libsecp256k1's modinv64_var does them, over moduli of any width.
//
// For values that are not secret, or whose handling is variable time anyway:
// the host MSM's batches of affine additions (Pippenger's buckets already
// depend on the scalars' digits) invert the product of a batch's
// denominators. There it costs about a tenth of the Fermat inverse (Fp::pow),
// which was 6 % of a 2^16 proof on the CPU. Key and randomness handling keeps
// the constant-time Fermat inverse.
//
// The Montgomery word a·R of an element is inverted as an integer, giving
// a⁻¹·R⁻¹, and multiplied by R³ (a Montgomery multiplication divides by R)
// to give a⁻¹·R, the Montgomery word of a⁻¹. Zero maps to zero, as with
// Fp::inverse.
#pragma once

#include <bit>
#include <cstdint>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/tower.hpp"

namespace cuzk::ff {

namespace safegcd {

// Signed integers in base 2^62: every limb but the top one in [0, 2^62), the
// top one signed (its sign is the number's).
template <size_t L>
struct Signed62 {
  int64_t v[L];
};

inline constexpr uint64_t kM62 = UINT64_MAX >> 2;

// The transition matrix of 62 divsteps, scaled by 2^62.
struct Matrix {
  int64_t u, v, q, r;
};

// 62 divsteps on the low words of f (odd) and g; eta = -delta. libsecp256k1's
// secp256k1_modinv64_divsteps_62_var: runs of zeros of g are skipped at once,
// and where eta allows, a multiple of f cancels several low bits of g.
inline int64_t divsteps_62(int64_t eta, uint64_t f0, uint64_t g0, Matrix& t) {
  uint64_t u = 1, v = 0, q = 0, r = 1, f = f0, g = g0;
  int i = 62;
  for (;;) {
    // The sentinel bit stops the count at the divsteps left.
    const int zeros = std::countr_zero(g | (UINT64_MAX << i));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    i -= zeros;
    if (i == 0) break;
    uint64_t m, w;
    if (eta < 0) {
      // Negate eta and replace (f, g) with (g, -f); then cancel up to 6 bits.
      eta = -eta;
      uint64_t tmp = f;
      f = g, g = -tmp;
      tmp = u, u = q, q = -tmp;
      tmp = v, v = r, r = -tmp;
      const int limit = (int)eta + 1 > i ? i : (int)eta + 1;
      m = (UINT64_MAX >> (64 - limit)) & 63u;
      w = (f * g * (f * f - 2)) & m;
    } else {
      // Up to 4 bits, eta being smaller here.
      const int limit = (int)eta + 1 > i ? i : (int)eta + 1;
      m = (UINT64_MAX >> (64 - limit)) & 15u;
      w = f + (((f + 1) & 4) << 1);
      w = (-w * g) & m;
    }
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t = {(int64_t)u, (int64_t)v, (int64_t)q, (int64_t)r};
  return eta;
}

// The modulus in base 2^62 and its inverse modulo 2^62.
template <size_t L>
struct Modulus {
  Signed62<L> m;
  uint64_t inv62;
};

// (t·[x, y] + m·[mx, my]) / 2^62 over the low `len` limbs; the caller makes
// the low 62 bits zero, so that the division is exact.
template <size_t L>
void combine(size_t len, Signed62<L>& x, Signed62<L>& y, const Matrix& t, const Signed62<L>& m, int64_t mx,
             int64_t my) {
  using I = __int128;
  I cx = 0, cy = 0;
  for (size_t i = 0; i < len; ++i) {
    cx += (I)t.u * x.v[i] + (I)t.v * y.v[i] + (I)m.v[i] * mx;
    cy += (I)t.q * x.v[i] + (I)t.r * y.v[i] + (I)m.v[i] * my;
    if (i > 0) {
      x.v[i - 1] = (int64_t)((uint64_t)cx & kM62);
      y.v[i - 1] = (int64_t)((uint64_t)cy & kM62);
    }
    cx >>= 62;
    cy >>= 62;
  }
  x.v[len - 1] = (int64_t)cx;
  y.v[len - 1] = (int64_t)cy;
}

// [d, e] <- (t·[d, e] + M·[md, me]) / 2^62, md and me chosen to make the
// division exact: d and e stay in (-2M, M).
template <size_t L>
void update_de(Signed62<L>& d, Signed62<L>& e, const Matrix& t, const Modulus<L>& mod) {
  const int64_t sd = d.v[L - 1] >> 63, se = e.v[L - 1] >> 63;
  int64_t md = (t.u & sd) + (t.v & se), me = (t.q & sd) + (t.r & se);
  // The low words of t·[d, e], wrapping as the 128-bit sums' do.
  const uint64_t low_d = (uint64_t)t.u * (uint64_t)d.v[0] + (uint64_t)t.v * (uint64_t)e.v[0];
  const uint64_t low_e = (uint64_t)t.q * (uint64_t)d.v[0] + (uint64_t)t.r * (uint64_t)e.v[0];
  md -= (int64_t)((mod.inv62 * low_d + (uint64_t)md) & kM62);
  me -= (int64_t)((mod.inv62 * low_e + (uint64_t)me) & kM62);
  combine(L, d, e, t, mod.m, md, me);
}

// [f, g] <- t·[f, g] / 2^62 over the low `len` limbs (exact by the divsteps).
template <size_t L>
void update_fg(size_t len, Signed62<L>& f, Signed62<L>& g, const Matrix& t) {
  static constexpr Signed62<L> kNone{};
  combine(len, f, g, t, kNone, 0, 0);
}

// d in (-2M, M), negated where `sign` is negative, brought into [0, M).
template <size_t L>
void normalize(Signed62<L>& d, int64_t sign, const Modulus<L>& mod) {
  const auto carry = [&] {
    for (size_t i = 0; i + 1 < L; ++i) {
      d.v[i + 1] += d.v[i] >> 62;
      d.v[i] &= (int64_t)kM62;
    }
  };
  int64_t add = d.v[L - 1] >> 63;
  for (size_t i = 0; i < L; ++i) d.v[i] += mod.m.v[i] & add;
  const int64_t negate = sign >> 63;
  for (size_t i = 0; i < L; ++i) d.v[i] = (d.v[i] ^ negate) - negate;
  carry();
  add = d.v[L - 1] >> 63;
  for (size_t i = 0; i < L; ++i) d.v[i] += mod.m.v[i] & add;
  carry();
}

template <size_t L, size_t N>
Signed62<L> to_signed62(const uint64_t (&x)[N]) {
  Signed62<L> s{};
  for (size_t i = 0; i < L; ++i) {
    const size_t bit = 62 * i, limb = bit / 64, off = bit % 64;
    uint64_t w = limb < N ? x[limb] >> off : 0;
    if (off > 2 && limb + 1 < N) w |= x[limb + 1] << (64 - off);
    s.v[i] = (int64_t)(w & kM62);
  }
  return s;
}

// A value in [0, 2^(64N)) with every limb in [0, 2^62) back to 64-bit limbs.
template <size_t N, size_t L>
void from_signed62(const Signed62<L>& s, uint64_t (&x)[N]) {
  for (size_t i = 0; i < N; ++i) x[i] = 0;
  for (size_t i = 0; i < L; ++i) {
    const size_t bit = 62 * i, limb = bit / 64, off = bit % 64;
    const uint64_t w = (uint64_t)s.v[i];
    if (limb < N) x[limb] |= w << off;
    if (off > 2 && limb + 1 < N) x[limb + 1] |= w >> (64 - off);
  }
}

}  // namespace safegcd

// a⁻¹ in variable time (see above); zero maps to zero.
template <class P>
Fp<P> inverse_vartime(const Fp<P>& a) {
  using F = Fp<P>;
  constexpr size_t N = F::N, L = (64 * N + 61) / 62 + 1;  // a spare limb for the sign and the matrix's growth
  if (a.is_zero()) return a;
  static const safegcd::Modulus<L> mod = [] {
    uint64_t p[N];
    for (size_t i = 0; i < N; ++i) p[i] = P::modulus(i);
    uint64_t inv = p[0];  // Newton's iteration: each step doubles the correct low bits (p is odd)
    for (int i = 0; i < 6; ++i) inv *= 2 - p[0] * inv;
    return safegcd::Modulus<L>{safegcd::to_signed62<L>(p), inv & safegcd::kM62};
  }();
  static const F r3 = F::r2() * F::r2();  // raw R³: R²·R²/R

  safegcd::Signed62<L> d{}, e{}, f = mod.m, g = safegcd::to_signed62<L>(a.limb);
  e.v[0] = 1;
  size_t len = L;
  int64_t eta = -1;
  for (;;) {
    safegcd::Matrix t;
    eta = safegcd::divsteps_62(eta, (uint64_t)f.v[0], (uint64_t)g.v[0], t);
    safegcd::update_de(d, e, t, mod);
    safegcd::update_fg(len, f, g, t);
    if (g.v[0] == 0) {
      int64_t rest = 0;
      for (size_t j = 1; j < len; ++j) rest |= g.v[j];
      if (rest == 0) break;
    }
    // Shorter once the top limbs of f and g are both 0 or -1: their sign
    // moves into the limb below.
    const int64_t fn = f.v[len - 1], gn = g.v[len - 1];
    if (len > 1 && (fn ^ (fn >> 63)) == 0 && (gn ^ (gn >> 63)) == 0) {
      f.v[len - 2] = (int64_t)((uint64_t)f.v[len - 2] | ((uint64_t)fn << 62));
      g.v[len - 2] = (int64_t)((uint64_t)g.v[len - 2] | ((uint64_t)gn << 62));
      --len;
    }
  }
  // g = 0 and f = ±gcd = ±1: d is ±a⁻¹ (as an integer inverse of the word).
  safegcd::normalize(d, f.v[len - 1], mod);
  F raw;
  safegcd::from_signed62(d, raw.limb);
  return raw * r3;
}

// In a quadratic extension with u² = -1: conj(a) / norm(a).
template <class B>
Fp2<B> inverse_vartime(const Fp2<B>& a) {
  const B t = inverse_vartime(a.norm());
  return {a.c0 * t, -(a.c1 * t)};
}

}  // namespace cuzk::ff
