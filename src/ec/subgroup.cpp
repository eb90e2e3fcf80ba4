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
// psi is the untwist-Frobenius-twist endomorphism, which on G2 is
// multiplication by p: p = x mod r (BLS12) and 6x^2 mod r (BN). Every value
// here is public: variable time is fine.
#include <cstdint>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/encode.hpp"

namespace cuzk::ec {
namespace {

// psi^e on Jacobian coordinates, psi^e(x, y) = (x^(p^e) cx, y^(p^e) cy) with
// cx = xi^(k (p^e - 1)/3) and cy = xi^(k (p^e - 1)/2), k = 1 on a D-type
// twist (BN254: psi(x, y) = (x w^2, y w^3)) and -1 on an M-type one
// (BLS12-381: (x w^-2, y w^-3)). Jacobian (X, Y, Z) maps to
// (X^(p^e) cx, Y^(p^e) cy, Z^(p^e)), no inversion.
template <class Tower, class C, bool m_type>
Jacobian<C> psi(const Jacobian<C>& q, unsigned e) {
  using Fq2 = typename Tower::Fq2;
  static const auto coefficients = [] {
    struct {
      Fq2 x[4], y[4];
    } c;
    for (unsigned k = 1; k < 4; ++k) {
      const Fq2* g = Tower::frobenius_coeffs(k);  // g[j] = xi^(j (p^k - 1)/6)
      c.x[k] = m_type ? g[2].inverse() : g[2];
      c.y[k] = m_type ? g[3].inverse() : g[3];
    }
    return c;
  }();
  return {q.X.frobenius(e) * coefficients.x[e], q.Y.frobenius(e) * coefficients.y[e], q.Z.frobenius(e)};
}

}  // namespace

namespace bls12_381 {

constexpr uint64_t kSeedAbs = 0xd201000000010000ull;  // x = -kSeedAbs

bool G1::in_prime_subgroup(const G1Affine& p) {
  // beta: the cube root of unity for which phi acts on G1 as -x^2 (EIP-2537's
  // decimal; the other one, beta^2, makes phi act as x^2 - 1).
  static const Fq beta = [] {
    Fq b;
    ff::from_decimal(
        "793479390729215512621379701633421447060886740281060493010456487427281649075476305620758731620350", b);
    return b;
  }();
  const uint64_t x2[2] = {0x0000000100000000ull, 0xac45a4010001a402ull};  // x^2
  const G1Jacobian x2p = mul_vartime(G1Jacobian::from(p), x2, 2);
  return G1Jacobian::from(G1Affine{p.x * beta, p.y}) == -x2p;
}

bool G2::in_prime_subgroup(const G2Affine& p) {
  const G2Jacobian q = G2Jacobian::from(p);
  const G2Jacobian xp = -mul_vartime(q, &kSeedAbs, 1);
  return psi<ff::bls12_381::Tower, G2, true>(q, 1) == xp;
}

}  // namespace bls12_381

namespace bn254 {

bool G2::in_prime_subgroup(const G2Affine& p) {
  constexpr uint64_t seed = 4965661367192848881ull;
  using Tower = ff::bn254::Tower;
  const G2Jacobian q = G2Jacobian::from(p);
  const G2Jacobian xp = mul_vartime(q, &seed, 1);
  const G2Jacobian lhs = xp.add(q).add(psi<Tower, G2, false>(xp, 1)).add(psi<Tower, G2, false>(xp, 2));
  return lhs == psi<Tower, G2, false>(xp.dbl(), 3);
}

}  // namespace bn254

}  // namespace cuzk::ec
