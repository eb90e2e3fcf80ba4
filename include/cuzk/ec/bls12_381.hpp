// BLS12-381 G1 (y^2 = x^3 + 4 over Fq) and G2 (y^2 = x^3 + 4(1 + u) over Fq2,
// the M-type sextic twist).
#pragma once

#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::ec::bls12_381 {

using ff::bls12_381::Fq;
using ff::bls12_381::Fq2;
using ff::bls12_381::Fr;

// The BLS parameter x = -kSeedAbs: p and r are polynomials in it (the
// pairing's loop, the membership tests).
inline constexpr uint64_t kSeedAbs = 0xd201000000010000ull;

struct G1 {
  using F = Fq;
  using Fr = ff::bls12_381::Fr;
  static constexpr bool cofactor_is_one = false;
  CUZK_HD_INLINE static F b() { return F::from_uint(4); }
  // P (on the curve) in the order-r subgroup: phi(P) = -[x^2]P (subgroup.cpp).
  static bool in_prime_subgroup(const Affine<G1>& p);
};

struct G2 {
  using F = Fq2;
  using Fr = ff::bls12_381::Fr;
  static constexpr bool cofactor_is_one = false;
  CUZK_HD_INLINE static F b() { return F{Fq::from_uint(4), Fq::from_uint(4)}; }
  // P (on the twist) in the order-r subgroup: psi(P) = [x]P (subgroup.cpp).
  static bool in_prime_subgroup(const Affine<G2>& p);
};

using G1Affine = Affine<G1>;
using G1Jacobian = Jacobian<G1>;
using G1Xyzz = Xyzz<G1>;
using G2Affine = Affine<G2>;
using G2Jacobian = Jacobian<G2>;
using G2Xyzz = Xyzz<G2>;

// The standard generators (as in the IETF pairing-friendly-curves draft, ZCash, noble).
G1Affine g1_generator();
G2Affine g2_generator();

}  // namespace cuzk::ec::bls12_381
