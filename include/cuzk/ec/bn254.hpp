// BN254 G1 (y^2 = x^3 + 3 over Fq) and G2 (y^2 = x^3 + 3/xi over Fq2, the
// D-type sextic twist, xi = 9 + u).
#pragma once

#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::ec::bn254 {

using ff::bn254::Fq;
using ff::bn254::Fq2;
using ff::bn254::Fr;

struct G1 {
  using F = Fq;
  using Fr = ff::bn254::Fr;
  static constexpr bool cofactor_is_one = true;
  CUZK_HD_INLINE static F b() { return F::from_uint(3); }
};

struct G2 {
  using F = Fq2;
  using Fr = ff::bn254::Fr;
  static constexpr bool cofactor_is_one = false;
  CUZK_HD static F b() { return F{Fq::from_uint(3), Fq::zero()} * ff::bn254::Tower::xi().inverse(); }
};

using G1Affine = Affine<G1>;
using G1Jacobian = Jacobian<G1>;
using G1Xyzz = Xyzz<G1>;
using G2Affine = Affine<G2>;
using G2Jacobian = Jacobian<G2>;
using G2Xyzz = Xyzz<G2>;

// The standard generators (EIP-196/197, as in snarkjs and noble).
G1Affine g1_generator();
G2Affine g2_generator();

}  // namespace cuzk::ec::bn254
