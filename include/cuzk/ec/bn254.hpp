// BN254 G1 (y^2 = x^3 + 3 over Fq) and G2 (y^2 = x^3 + 3/xi over Fq2, the
// D-type sextic twist, xi = 9 + u).
#pragma once

#include "cuzk/ec/ops.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::ec::bn254 {

using ff::bn254::Fq;
using ff::bn254::Fq2;
using ff::bn254::Fr;

// The BN parameter x: p and r are polynomials in it (the pairing's loop, G2's
// membership test).
inline constexpr uint64_t kSeed = 4965661367192848881ull;

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
  // b' = 3 / (9 + u) = (27 - 3u) / 82, as canonical limbs; tests check b' (9 + u) = 3.
  CUZK_HD_INLINE static F b() {
    constexpr uint64_t c0[4] = {0x3267e6dc24a138e5, 0xb5b4c5e559dbefa3, 0x81be18991be06ac3, 0x2b149d40ceb8aaae};
    constexpr uint64_t c1[4] = {0xe4a2bd0685c315d2, 0xa74fa084e52d1852, 0xcd2cafadeed8fdf4, 0x009713b03af0fed4};
    return {Fq::from_canonical_unchecked(c0), Fq::from_canonical_unchecked(c1)};
  }
  // P (on the twist) in the order-r subgroup:
  // [x+1]P + psi([x]P) + psi^2([x]P) = psi^3([2x]P) (subgroup.cpp).
  static bool in_prime_subgroup(const Affine<G2>& p);
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
