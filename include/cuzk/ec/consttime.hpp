// Scalar multiplication whose timing does not depend on the scalar, for the
// prover's secret randomness r and s (a leaked r or s reveals Σ w_i A_i, and
// through it facts about the witness).
//
// Two things make the usual code variable-time: table lookups indexed by a
// secret digit, and additions that branch on infinity or P = Q. So here
//   - points are homogeneous projective (X : Y : Z), y^2 Z = X^3 + b Z^3, with
//     the complete addition formula of Renes, Costello and Batina
//     (eprint 2015/1060, Algorithm 7, a = 0): one straight-line formula for
//     every pair of inputs, infinity (0 : 1 : 0) and doubling included;
//   - the window table is read in full for every digit and the wanted entry
//     kept by masking, so the memory access pattern is the same for every
//     digit;
//   - digits are taken from all 256 bits of the canonical scalar, so the loop
//     length does not depend on the scalar's size.
// The field operations themselves are branch-free (ff/detail/mont64.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuzk/ec/point.hpp"
#include "cuzk/util/secure_zero.hpp"

namespace cuzk::ec {

template <class C>
struct Projective {
  using F = typename C::F;
  F X, Y, Z;

  static Projective infinity() { return {F::zero(), F::one(), F::zero()}; }
  // The only branch is on the point being infinity: a key point, or a sum of
  // MSM results and a key point (πA; B1' + β1), which is infinity only by a
  // chance as small as guessing the setup's secrets.
  static Projective from(const Affine<C>& p) { return p.is_inf() ? infinity() : Projective{p.x, p.y, F::one()}; }
  // (X : Y : Z) is the Jacobian (XZ, YZ^2, Z): both give x = X/Z, y = Y/Z.
  Jacobian<C> to_jacobian() const { return {X * Z, Y * Z.sqr(), Z}; }

  // RCB Algorithm 7: 12M + 2 multiplications by 3b + 19 additions.
  Projective add(const Projective& q) const {
    const F b3 = C::b().dbl() + C::b();
    F t0 = X * q.X, t1 = Y * q.Y, t2 = Z * q.Z;
    F t3 = (X + Y) * (q.X + q.Y) - (t0 + t1);
    F t4 = (Y + Z) * (q.Y + q.Z) - (t1 + t2);
    F y3 = (X + Z) * (q.X + q.Z) - (t0 + t2);
    t0 = t0.dbl() + t0;
    t2 = b3 * t2;
    F z3 = t1 + t2;
    t1 = t1 - t2;
    y3 = b3 * y3;
    const F x3 = t3 * t1 - t4 * y3;
    y3 = t1 * z3 + y3 * t0;
    z3 = z3 * t4 + t0 * t3;
    return {x3, y3, z3};
  }

  // RCB Algorithm 9, the same formula's doubling: 6M + 2S + 1 multiplication
  // by 3b, complete as well (infinity doubles to infinity; these curves'
  // groups have odd order, so no point of order two). The scalar loop is
  // mostly doublings.
  Projective dbl() const {
    const F b3 = C::b().dbl() + C::b();
    F t0 = Y.sqr();
    F z3 = t0.dbl().dbl().dbl();
    F t1 = Y * Z;
    F t2 = b3 * Z.sqr();
    F x3 = t2 * z3;
    F y3 = t0 + t2;
    z3 = t1 * z3;
    t2 = t2.dbl() + t2;
    t0 = t0 - t2;
    y3 = x3 + t0 * y3;
    x3 = (t0 * (X * Y)).dbl();
    return {x3, y3, z3};
  }
};

// dst = src where mask is all ones, dst unchanged where it is zero, word by
// word, so neither the branch predictor nor the cache sees which.
template <class T>
void select_if(T& dst, const T& src, uint64_t mask) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 8 == 0);
  uint64_t d[sizeof(T) / 8], s[sizeof(T) / 8];
  std::memcpy(d, &dst, sizeof d);
  std::memcpy(s, &src, sizeof s);
  for (size_t i = 0; i < sizeof(T) / 8; ++i) d[i] ^= (d[i] ^ s[i]) & mask;
  std::memcpy(&dst, d, sizeof d);
}

// k·P in time independent of k: 4-bit fixed windows over every bit of the
// canonical k, 4 complete doublings and one complete addition of a masked
// table entry per window. The scalar's canonical copy is zeroed before return.
template <class C>
Jacobian<C> mul_consttime(const Affine<C>& p, const typename C::Fr& k) {
  using Fr = typename C::Fr;
  using P = Projective<C>;
  P table[16];
  table[0] = P::infinity();
  table[1] = P::from(p);
  for (int i = 2; i < 16; ++i) table[i] = i % 2 ? table[i - 1].add(table[1]) : table[i / 2].dbl();

  uint64_t v[Fr::N];
  k.to_canonical(v);
  P acc = P::infinity();
  for (size_t i = Fr::N; i-- > 0;)
    for (int nib = 15; nib >= 0; --nib) {
      for (int d = 0; d < 4; ++d) acc = acc.dbl();
      const uint64_t digit = (v[i] >> (4 * nib)) & 15;
      P entry = table[0];
      for (uint64_t j = 1; j < 16; ++j) select_if(entry, table[j], 0 - (uint64_t)(j == digit));
      acc = acc.add(entry);
    }
  secure_zero(v);
  return acc.to_jacobian();
}

}  // namespace cuzk::ec
