// Subgroup membership by endomorphism: for a point already on its curve, one
// equation in an endomorphism and a multiple by the curve's seed x that holds
// exactly on the order-r subgroup, in place of r·P = O (ops.hpp,
// in_subgroup_by_order, which tests/ec/subgroup_test.cpp checks these
// against, on points with and without components outside the subgroup).
//   BLS12-381 G1: phi(P) = -[x^2]P, phi(x, y) = (beta x, y), beta a cube root
//     of unity (Scott, ePrint 2021/1130 section 6; proof corrected in
//     El Housni, Guillevic, Piellard, ePrint 2022/352; EIP-2537's test).
//   BLS12-381 G2: psi(P) = [x]P (ePrint 2021/1130 section 4, 2022/352).
//   BN254 G2: [x+1]P + psi([x]P) + psi^2([x]P) = psi^3([2x]P) (Dai, Lin,
//     Zhao, Zhou, ePrint 2022/348; its conditions x != 4 mod 13 and
//     x != 92 mod 97 hold for BN254's x).
// psi is the untwist-Frobenius-twist endomorphism (twist_frobenius.hpp),
// which on G2 is multiplication by p: p = x mod r (BLS12) and 6x^2 mod r (BN).
// Every value here is public: variable time is fine.
#include <cstdint>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/encode.hpp"
#include "twist_frobenius.hpp"

namespace cuzk::ec {

namespace bls12_381 {

bool G1::in_prime_subgroup(const G1Affine& p) {
  // beta: the cube root of unity for which phi acts on G1 as -x^2 (EIP-2537's
  // decimal; the other one, beta^2, makes phi act as x^2 - 1).
  static const Fq beta = [] {
    Fq b;
    ff::from_decimal(
        "793479390729215512621379701633421447060886740281060493010456487427281649075476305620758731620350", b);
    return b;
  }();
  __extension__ typedef unsigned __int128 u128;
  constexpr u128 x2 = (u128)kSeedAbs * kSeedAbs;
  const uint64_t x2_limbs[2] = {uint64_t(x2), uint64_t(x2 >> 64)};
  const G1Jacobian x2p = mul_vartime(G1Jacobian::from(p), x2_limbs, 2);
  return G1Jacobian::from(G1Affine{p.x * beta, p.y}) == -x2p;
}

bool G2::in_prime_subgroup(const G2Affine& p) {
  const G2Jacobian q = G2Jacobian::from(p);
  const G2Jacobian xp = -mul_vartime(q, &kSeedAbs, 1);
  return TwistFrobenius<ff::bls12_381::Tower, true>::apply(q, 1) == xp;
}

}  // namespace bls12_381

namespace bn254 {

bool G2::in_prime_subgroup(const G2Affine& p) {
  using Psi = TwistFrobenius<ff::bn254::Tower, false>;
  const G2Jacobian q = G2Jacobian::from(p);
  const G2Jacobian xp = mul_vartime(q, &kSeed, 1);
  const G2Jacobian lhs = xp.add(q).add(Psi::apply(xp, 1)).add(Psi::apply(xp, 2));
  return lhs == Psi::apply(xp.dbl(), 3);
}

}  // namespace bn254

}  // namespace cuzk::ec
