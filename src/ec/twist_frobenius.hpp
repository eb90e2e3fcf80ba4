// psi^e = psi_t^-1 o pi_p^e o psi_t on a sextic twist's points, psi_t being
// the twist's map into E(Fq12): the p^e-power Frobenius carried to the twist,
// which on G2 is multiplication by p^e. pairing.cpp's BN Frobenius lines and
// subgroup.cpp's membership tests take it. Host only.
//   D-type (BN254, psi_t(x, y) = (x w^2, y w^3)): (x w^2)^(p^e) =
//     x^(p^e) w^2 w^(2(p^e - 1)) and w^(2(p^e - 1)) = xi^((p^e - 1)/3), likewise y
//     with xi^((p^e - 1)/2): tower.hpp's Frobenius coefficients
//     xi^(k (p^e - 1)/6), k = 2 and 3.
//   M-type (BLS12-381, psi_t(x, y) = (x w^-2, y w^-3)): their inverses.
// On Jacobian coordinates (X, Y, Z) -> (X^(p^e) cx, Y^(p^e) cy, Z^(p^e)), no
// inversion; the affine infinity (0, 0) maps to itself.
#pragma once

#include "cuzk/ec/point.hpp"

namespace cuzk::ec {

template <class Tower, bool m_type>
struct TwistFrobenius {
  using Fq2 = typename Tower::Fq2;
  static constexpr unsigned kMaxPower = 3;

  // (cx, cy) of psi^e, 1 <= e <= kMaxPower.
  static const Fq2* coefficients(unsigned e) {
    static const auto table = [] {
      struct {
        Fq2 c[kMaxPower + 1][2];
      } t;
      for (unsigned k = 1; k <= kMaxPower; ++k) {
        const Fq2* g = Tower::frobenius_coeffs(k);  // g[j] = xi^(j (p^k - 1)/6)
        t.c[k][0] = m_type ? g[2].inverse() : g[2];
        t.c[k][1] = m_type ? g[3].inverse() : g[3];
      }
      return t;
    }();
    return table.c[e];
  }

  template <class C>
  static Affine<C> apply(const Affine<C>& q, unsigned e) {
    const Fq2* c = coefficients(e);
    return {q.x.frobenius(e) * c[0], q.y.frobenius(e) * c[1]};
  }
  template <class C>
  static Jacobian<C> apply(const Jacobian<C>& q, unsigned e) {
    const Fq2* c = coefficients(e);
    return {q.X.frobenius(e) * c[0], q.Y.frobenius(e) * c[1], q.Z.frobenius(e)};
  }
};

}  // namespace cuzk::ec
