// The optimal ate pairing e: G1 x G2 -> GT (a subgroup of Fq12*) for BN254 and
// BLS12-381, host only. It serves verification (pairing_product_is_one) and
// the constants of a verifying key (e(alpha, beta)); it is not on a hot path.
//
// WHICH VALUE: snarkjs's / noble's, not the "textbook" one.
//   The exact reduced pairing is e = f^((p^12 - 1)/r) of the Miller loop value
//   f. cuzk, like @noble/curves and snarkjs (ffjavascript), returns e^k, the
//   value their final exponentiations produce, for a fixed k per curve:
//     BN254:     k = 2x(6x^2 + 3x + 1), x = 4965661367192848881. The hard part
//                is the chain of Fuentes-Castaneda, Knapp and Rodriguez-
//                Henriquez ("Faster hashing to G2", SAC 2011), whose
//                exponent is k (p^4 - p^2 + 1)/r.
//     BLS12-381: k = 3. The hard part is Hayashida, Hayasaka and Teruya's
//                (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 = 3 (p^4 - p^2 + 1)/r
//                (ePrint 2020/875), x = -0xd201000000010000.
//   Both k are prime to r, so e^k is as good a pairing as e (bilinear and
//   non-degenerate), and matching snarkjs matters more: a verifying key's
//   vk_alphabeta_12 must come out byte for byte as snarkjs writes it.
//   tests/ec/pairing_test.cpp checks the value against noble's (the oracle
//   emits the exact e and k; the test compares with e^k).
//
// INPUTS are trusted: P must lie in G1 and Q in G2 (on the curve and in the
// order-r subgroup; ec::in_subgroup checks that). Points from an untrusted
// source must be checked before they come here; the loop does not look.
// The infinity point (all-zero affine) is allowed on either side and makes its
// pair contribute 1.
//
// The Miller loop value is only meaningful after final_exponentiation: it is
// defined up to factors in proper subfields (noble's raw Miller loop differs
// from ours by such factors), which the final exponentiation kills.
#pragma once

#include <span>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"

namespace cuzk::ec {

// A G2 point's Miller-loop lines, each as its value at P = (xP, yP) needs
// them (ly yP + lx xP + l0), in the order the loop takes them: the loop's G2
// half, which depends on Q alone. Made once (prepare) for a Q that pairs with
// many P, such as a verifying key's gamma and delta; empty for infinity.
template <class Fq2>
struct G2Lines {
  struct Line {
    Fq2 ly, lx, l0;
  };
  std::vector<Line> lines;
};

// Each curve's namespace below declares its Fq12 and G2Prepared, then the
// same functions (CUZK_PAIRING_FUNCTIONS):
//   miller_loop(p, q)           the optimal ate Miller loop over the pairs:
//                               BN254's prod_i f_{6x+2, Q_i}(P_i) times the two
//                               Frobenius lines per pair (Vercauteren 2010);
//                               BLS12-381's conj(prod_i f_{|x|, Q_i}(P_i)), x < 0
//                               (conj is the inverse once the final
//                               exponentiation has run)
//   final_exponentiation(f)     f^((p^6 - 1)(p^2 + 1)), then the hard part (k above)
//   pairing(p, q)               e(P, Q)^k: final_exponentiation(miller_loop({P}, {Q}))
//   pairing_product_is_one      prod_i e(P_i, Q_i) == 1, one shared final exponentiation
//   prepare(q)                  Q's lines
//   prepared_miller_loop(p, q)  the Miller loop over Qs given by their lines (the
//                               value miller_loop gives for the points)
// Pairs with an infinity point are skipped; the spans must have equal lengths
// (std::invalid_argument otherwise).
#define CUZK_PAIRING_FUNCTIONS                                                           \
  Fq12 miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q);            \
  Fq12 final_exponentiation(const Fq12& f);                                              \
  Fq12 pairing(const G1Affine& p, const G2Affine& q);                                    \
  bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q); \
  G2Prepared prepare(const G2Affine& q);                                                 \
  Fq12 prepared_miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared* const> q);

namespace bn254 {
using ff::bn254::Fq12;
using G2Prepared = G2Lines<ff::bn254::Fq2>;
CUZK_PAIRING_FUNCTIONS
// The p-power Frobenius endomorphism carried to the twist, psi^-1 o pi_p o psi
// with psi(x, y) = (x w^2, y w^3). On G2 it is multiplication by p.
G2Affine twist_frobenius(const G2Affine& q);
}  // namespace bn254

namespace bls12_381 {
using ff::bls12_381::Fq12;
using G2Prepared = G2Lines<ff::bls12_381::Fq2>;
CUZK_PAIRING_FUNCTIONS
}  // namespace bls12_381
#undef CUZK_PAIRING_FUNCTIONS

// Squaring in the cyclotomic subgroup of Fq12 (the elements of order dividing
// p^4 - p^2 + 1, as after the easy part of the final exponentiation): Granger
// and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
// extensions" (PKC 2010). Fq12 is viewed as Fq4[w]/(w^3 - s) with
// Fq4 = Fq2[s]/(s^2 - xi), s = w^3; for a = A + B w + C w^2,
//   a^2 = (3A^2 - 2 conj(A)) + (3 s C^2 + 2 conj(B)) w + (3B^2 - 2 conj(C)) w^2,
// conj being s -> -s: three Fq4 squarings (6 Fq2 multiplications) where a
// general Fq12 squaring takes 12. Wrong (not a square) outside the subgroup.
template <class Tower>
ff::Fp12<Tower> cyclotomic_sqr(const ff::Fp12<Tower>& a) {
  using F12 = ff::Fp12<Tower>;
  using F2 = typename F12::F2;
  auto nr = [](const F2& x) { return Tower::mul_by_xi(x); };
  // (x + y s)^2 = (x^2 + xi y^2) + 2 x y s, with x^2 + xi y^2 = (x + y)(x + xi y) - xy - xi xy.
  auto fq4_sqr = [&](const F2& x, const F2& y, F2& r0, F2& r1) {
    const F2 xy = x * y;
    r0 = (x + y) * (x + nr(y)) - xy - nr(xy);
    r1 = xy.dbl();
  };
  // A = a0 + a3 s, B = a1 + a4 s, C = a2 + a5 s, with a_k the w^k coefficient:
  // a0 = c0.c0, a1 = c1.c0, a2 = c0.c1, a3 = c1.c1, a4 = c0.c2, a5 = c1.c2.
  const F2 &a0 = a.c0.c0, &a1 = a.c1.c0, &a2 = a.c0.c1, &a3 = a.c1.c1, &a4 = a.c0.c2, &a5 = a.c1.c2;
  F2 t0, t1, t2, t3, t4, t5;
  fq4_sqr(a0, a3, t0, t1);  // A^2 = t0 + t1 s
  fq4_sqr(a1, a4, t2, t3);  // B^2 = t2 + t3 s
  fq4_sqr(a2, a5, t4, t5);  // C^2 = t4 + t5 s
  F12 r;
  // A' = 3 A^2 - 2 conj(A)
  r.c0.c0 = (t0 - a0).dbl() + t0;
  r.c1.c1 = (t1 + a3).dbl() + t1;
  // B' = 3 s C^2 + 2 conj(B), s C^2 = xi t5 + t4 s
  const F2 xt5 = nr(t5);
  r.c1.c0 = (xt5 + a1).dbl() + xt5;
  r.c0.c2 = (t4 - a4).dbl() + t4;
  // C' = 3 B^2 - 2 conj(C)
  r.c0.c1 = (t2 - a2).dbl() + t2;
  r.c1.c2 = (t3 + a5).dbl() + t3;
  return r;
}

}  // namespace cuzk::ec
