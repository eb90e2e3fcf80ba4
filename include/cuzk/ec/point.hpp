// Short Weierstrass points y^2 = x^3 + b (a = 0) in three coordinate systems,
// one template over a curve description C that supplies the field F, the scalar
// field Fr and the constant b:
//   Affine   (x, y); infinity is (0, 0), which is never on a curve with b != 0 and
//            is exactly snarkjs's all-zero encoding, so zkey points load as-is.
//   Jacobian (X, Y, Z) for x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
//   Xyzz     (X, Y, ZZ, ZZZ) for x = X/ZZ, y = Y/ZZZ; infinity has ZZ = 0. Mixed
//            additions cost 8M + 2S, the cheapest bucket representation for MSM.
// Formulas are the EFD's (hyperelliptic.org/EFD/g1p/auto-shortw-*.html), named
// where used. Every addition handles infinity and P = +-Q.
#pragma once

#include "cuzk/config.hpp"

namespace cuzk::ec {

template <class C>
struct Affine {
  using F = typename C::F;
  F x, y;

  CUZK_HD_INLINE static constexpr Affine infinity() { return {F::zero(), F::zero()}; }
  CUZK_HD_INLINE bool is_inf() const { return x.is_zero() && y.is_zero(); }
  CUZK_HD_INLINE Affine operator-() const { return {x, -y}; }  // -0 = 0 keeps infinity
  CUZK_HD_INLINE friend bool operator==(const Affine& a, const Affine& b) { return a.x == b.x && a.y == b.y; }
  CUZK_HD_INLINE friend bool operator!=(const Affine& a, const Affine& b) { return !(a == b); }
  CUZK_HD bool on_curve() const { return is_inf() || y.sqr() == x.sqr() * x + C::b(); }
};

template <class C>
struct Jacobian {
  using F = typename C::F;
  F X, Y, Z;

  CUZK_HD_INLINE static constexpr Jacobian infinity() { return {F::one(), F::one(), F::zero()}; }
  CUZK_HD_INLINE static Jacobian from(const Affine<C>& p) {
    return p.is_inf() ? infinity() : Jacobian{p.x, p.y, F::one()};
  }
  CUZK_HD_INLINE bool is_inf() const { return Z.is_zero(); }
  CUZK_HD_INLINE Jacobian operator-() const { return {X, -Y, Z}; }

  // Projective equality: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3.
  CUZK_HD friend bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_inf() || b.is_inf()) return a.is_inf() == b.is_inf();
    const F z1z1 = a.Z.sqr(), z2z2 = b.Z.sqr();
    return a.X * z2z2 == b.X * z1z1 && a.Y * z2z2 * b.Z == b.Y * z1z1 * a.Z;
  }
  CUZK_HD_INLINE friend bool operator!=(const Jacobian& a, const Jacobian& b) { return !(a == b); }

  CUZK_HD bool on_curve() const {  // Y^2 = X^3 + b Z^6
    if (is_inf()) return true;
    const F z2 = Z.sqr(), z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + C::b() * z6;
  }

  // dbl-2009-l: 2M + 5S.
  CUZK_HD Jacobian dbl() const {
    if (is_inf()) return *this;
    const F A = X.sqr(), B = Y.sqr(), Cc = B.sqr();
    const F D = ((X + B).sqr() - A - Cc).dbl();
    const F E = A.dbl() + A, Fs = E.sqr();
    const F X3 = Fs - D.dbl();
    return {X3, E * (D - X3) - Cc.dbl().dbl().dbl(), (Y * Z).dbl()};
  }

  // add-2007-bl: 11M + 5S.
  CUZK_HD Jacobian add(const Jacobian& q) const {
    if (is_inf()) return q;
    if (q.is_inf()) return *this;
    const F z1z1 = Z.sqr(), z2z2 = q.Z.sqr();
    const F u1 = X * z2z2, u2 = q.X * z1z1;
    const F s1 = Y * q.Z * z2z2, s2 = q.Y * Z * z1z1;
    const F h = u2 - u1, r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : infinity();
    const F i = h.dbl().sqr(), j = h * i, v = u1 * i;
    const F X3 = r.sqr() - j - v.dbl();
    return {X3, r * (v - X3) - (s1 * j).dbl(), ((Z + q.Z).sqr() - z1z1 - z2z2) * h};
  }

  // madd-2007-bl: 7M + 4S.
  CUZK_HD Jacobian add(const Affine<C>& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return from(q);
    const F z1z1 = Z.sqr();
    const F u2 = q.x * z1z1, s2 = q.y * Z * z1z1;
    const F h = u2 - X, r = (s2 - Y).dbl();
    if (h.is_zero()) return r.is_zero() ? from(q).dbl() : infinity();
    const F hh = h.sqr(), i = hh.dbl().dbl(), j = h * i, v = X * i;
    const F X3 = r.sqr() - j - v.dbl();
    return {X3, r * (v - X3) - (Y * j).dbl(), (Z + h).sqr() - z1z1 - hh};
  }

  CUZK_HD Affine<C> to_affine() const {
    if (is_inf()) return Affine<C>::infinity();
    const F zi = Z.inverse(), zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi};
  }
};

template <class C>
struct Xyzz {
  using F = typename C::F;
  F X, Y, ZZ, ZZZ;

  CUZK_HD_INLINE static constexpr Xyzz infinity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD_INLINE static Xyzz from(const Affine<C>& p) {
    return p.is_inf() ? infinity() : Xyzz{p.x, p.y, F::one(), F::one()};
  }
  CUZK_HD_INLINE bool is_inf() const { return ZZ.is_zero(); }
  CUZK_HD_INLINE Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // dbl-2008-s-1 (a = 0): 6M + 3S.
  CUZK_HD Xyzz dbl() const {
    if (is_inf()) return *this;
    const F U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
    const F X2 = X.sqr(), M = X2.dbl() + X2;
    const F X3 = M.sqr() - S.dbl();
    return {X3, M * (S - X3) - W * Y, V * ZZ, W * ZZZ};
  }

  // add-2008-s: 12M + 2S.
  CUZK_HD Xyzz add(const Xyzz& q) const {
    if (is_inf()) return q;
    if (q.is_inf()) return *this;
    const F u1 = X * q.ZZ, u2 = q.X * ZZ, s1 = Y * q.ZZZ, s2 = q.Y * ZZZ;
    const F P = u2 - u1, R = s2 - s1;
    if (P.is_zero()) return R.is_zero() ? dbl() : infinity();
    const F PP = P.sqr(), PPP = P * PP, Q = u1 * PP;
    const F X3 = R.sqr() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - s1 * PPP, ZZ * q.ZZ * PP, ZZZ * q.ZZZ * PPP};
  }

  // madd-2008-s: 8M + 2S.
  CUZK_HD Xyzz add(const Affine<C>& q) const {
    if (q.is_inf()) return *this;
    if (is_inf()) return from(q);
    const F u2 = q.x * ZZ, s2 = q.y * ZZZ;
    const F P = u2 - X, R = s2 - Y;
    if (P.is_zero()) return R.is_zero() ? from(q).dbl() : infinity();
    const F PP = P.sqr(), PPP = P * PP, Q = X * PP;
    const F X3 = R.sqr() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - Y * PPP, ZZ * PP, ZZZ * PPP};
  }

  // An XYZZ point is (x ZZ, y ZZZ, ZZ, ZZZ) with ZZ = Z^2, ZZZ = Z^3 for Z = ZZZ/ZZ.
  // As Jacobian take Z' = ZZ ZZZ: X' = x Z'^2 = X ZZ ZZZ^2, Y' = y Z'^3 = Y ZZ^3 ZZZ^2
  // = Y ZZZ^4 (since ZZ^3 = ZZZ^2). No inversion needed.
  CUZK_HD Jacobian<C> to_jacobian() const {
    if (is_inf()) return Jacobian<C>::infinity();
    const F zzz2 = ZZZ.sqr();
    return {X * ZZ * zzz2, Y * zzz2.sqr(), ZZ * ZZZ};
  }

  // One inversion: 1/Z = ZZ/ZZZ, so x = X (1/Z)^2 and y = Y/ZZZ.
  CUZK_HD Affine<C> to_affine() const {
    if (is_inf()) return Affine<C>::infinity();
    const F zzz_inv = ZZZ.inverse();
    const F z_inv = ZZ * zzz_inv;
    return {X * z_inv.sqr(), Y * zzz_inv};
  }
};

}  // namespace cuzk::ec
