// The optimal ate pairing for BN254 and BLS12-381 (see pairing.hpp for which
// value it returns and why).
//
// One template, Pairing<Curve>, holds everything the two curves share: the
// Miller loop over signed (NAF) digits with Q in homogeneous projective
// coordinates, the combined point-and-line steps, the sparse multiplications by
// a line, the easy part of the final exponentiation and cyclotomic powering.
// A curve description supplies the rest: the loop scalar and its sign, the twist
// type (which decides where a line's three coefficients sit in Fq12), whether
// the loop ends with the two Frobenius lines (BN) and the hard part chain.
//
// Notation. Fq12 = Fq6[w]/(w^2 - v), Fq6 = Fq2[v]/(v^3 - xi), so w^6 = xi and an
// Fq12 element is sum_k a_k w^k over Fq2 with
//   a0 = c0.c0, a2 = c0.c1, a4 = c0.c2, a1 = c1.c0, a3 = c1.c1, a5 = c1.c2.
// G2 lives on the sextic twist E': y^2 = x^3 + b'; psi maps it into E(Fq12):
//   D-type (BN254,     b' = b/xi): psi(x, y) = (x w^2, y w^3)
//   M-type (BLS12-381, b' = b xi): psi(x, y) = (x w^-2, y w^-3)
// A line through psi(T) with twisted slope s, evaluated at P = (xP, yP) in G1,
// is therefore, after scaling by w^3 in the M case,
//   D: yP            - s xP w   + (s xT - yT) w^3    (slots w^0, w^1, w^3: "034")
//   M: (s xT - yT)   - s xP w^2 + yP w^3             (slots w^0, w^2, w^3: "014")
// Scale factors in Fq2 (and the w^3, which lies in Fq4) are elements of proper
// subfields; the final exponentiation sends them to 1, so lines are computed
// projectively and never divided out. The same goes for the vertical lines
// that a textbook Miller loop divides by.
#include "cuzk/ec/pairing.hpp"

#include "twist_frobenius.hpp"

#include <array>
#include <stdexcept>
#include <vector>

namespace cuzk::ec {
namespace {

__extension__ typedef unsigned __int128 u128;

enum class Twist { D, M };

// Non-adjacent form: digits in {-1, 0, 1}, least significant first, no two
// adjacent non-zero. Fewer non-zero digits means fewer addition steps.
struct Naf {
  int8_t d[80] = {};
  int len = 0;
};
constexpr Naf naf(u128 n) {
  Naf r;
  while (n) {
    int8_t digit = 0;
    if (n & 1) {
      digit = (n & 3) == 1 ? 1 : -1;  // n = 1 mod 4 -> 1, n = 3 mod 4 -> -1
      if (digit == 1)
        n -= 1;
      else
        n += 1;
    }
    r.d[r.len++] = digit;
    n >>= 1;
  }
  return r;
}

// a^e in the cyclotomic subgroup, e > 0, over NAF digits: squarings are
// cyclotomic and a^-1 is the conjugate.
template <class F12>
F12 cyclotomic_exp(const F12& a, uint64_t e) {
  const Naf n = naf(e);
  const F12 a_inv = a.conj();
  F12 r = a;  // the top digit is 1
  for (int i = n.len - 2; i >= 0; --i) {
    r = cyclotomic_sqr(r);
    if (n.d[i] > 0) r *= a;
    if (n.d[i] < 0) r *= a_inv;
  }
  return r;
}

template <class Curve>
struct Pairing {
  using Tower = typename Curve::Tower;
  using Fq = typename Tower::Fq;
  using Fq2 = typename Tower::Fq2;
  using Fq6 = typename Tower::Fq6;
  using Fq12 = typename Tower::Fq12;
  using G1Affine = Affine<typename Curve::G1>;
  using G2Affine = Affine<typename Curve::G2>;

  // A point of E'(Fq2) in homogeneous projective coordinates: x = X/Z, y = Y/Z.
  struct Proj {
    Fq2 X, Y, Z;
  };
  // A line's value at P is ly*yP + lx*xP + l0, each term in its twist's slot.
  using Line = typename G2Lines<Fq2>::Line;

  // 3b', b' being the twist's constant (BN254's needs an inversion: do it once).
  static const Fq2& b3() {
    static const Fq2 v = Curve::G2::b().mul_small(3);
    return v;
  }

  // Doubling step: T <- 2T and the tangent line at T. The homogeneous
  // projective doubling-with-line of Aranha, Karabina, Longa, Gebotys, Lopez,
  // "Faster explicit formulas for computing pairings over ordinary curves"
  // (Eurocrypt 2011, ePrint 2010/526; after Costello, Lange, Naehrig, PKC 2010),
  // with the point scaled by 4 to avoid their halvings:
  //   X3 = 2XY (Y^2 - 9b'Z^2),  Y3 = (Y^2 + 9b'Z^2)^2 - 108 b'^2 Z^4,  Z3 = 8 Y^3 Z,
  // and the tangent at T: with slope s = 3x^2/(2y), the line yP - s xP + (s x - y)
  // times 2YZ, reduced with X^3 = Y^2 Z - b'Z^3, is 2YZ yP - 3X^2 xP + (Y^2 - 3b'Z^2);
  // we return its negative (a factor -1 in Fq is as harmless as any):
  //   -2YZ yP + 3X^2 xP + (3b'Z^2 - Y^2).
  static Line dbl_step(Proj& T) {
    const Fq2 &X = T.X, &Y = T.Y, &Z = T.Z;
    const Fq2 A = X * Y;                  // XY
    const Fq2 B = Y.sqr();                // Y^2
    const Fq2 C = Z.sqr();                // Z^2
    const Fq2 E = b3() * C;               // 3b'Z^2
    const Fq2 F = E.dbl() + E;            // 9b'Z^2
    const Fq2 H = (Y + Z).sqr() - B - C;  // 2YZ
    const Fq2 J = X.sqr();                // X^2
    const Line l{-H, J.dbl() + J, E - B};
    T.X = A.dbl() * (B - F);
    T.Y = (B + F).sqr() - E.sqr().mul_small(12);
    T.Z = (B * H).dbl().dbl();
    return l;
  }

  // Mixed addition step: T <- T + Q (Q affine) and the line through T and Q,
  // Aranha et al.'s addition-with-line (as above): theta = Y - yQ Z, lambda = X - xQ Z (so
  // the slope is theta/lambda), and the line times lambda is
  //   lambda yP - theta xP + (theta xQ - lambda yQ).
  static Line add_step(Proj& T, const G2Affine& Q) {
    const Fq2 theta = T.Y - Q.y * T.Z;
    const Fq2 lambda = T.X - Q.x * T.Z;
    const Fq2 C = theta.sqr();
    const Fq2 D = lambda.sqr();
    const Fq2 E = lambda * D;
    const Fq2 F = T.Z * C;
    const Fq2 G = T.X * D;
    const Fq2 H = E + F - G.dbl();
    const Line l{lambda, -theta, theta * Q.x - lambda * Q.y};
    T.X = lambda * H;
    T.Y = theta * (G - H) - E * T.Y;
    T.Z = T.Z * E;
    return l;
  }

  // (a0 + a1 v + a2 v^2)(b0 + b1 v), Karatsuba: 5 Fq2 multiplications.
  static Fq6 mul_by_01(const Fq6& a, const Fq2& b0, const Fq2& b1) {
    const Fq2 t0 = a.c0 * b0, t1 = a.c1 * b1;
    return {Tower::mul_by_xi((a.c1 + a.c2) * b1 - t1) + t0,  // a0 b0 + xi a2 b1
            (a.c0 + a.c1) * (b0 + b1) - t0 - t1,             // a0 b1 + a1 b0
            (a.c0 + a.c2) * b0 - t0 + t1};                   // a2 b0 + a1 b1
  }
  // (a0 + a1 v + a2 v^2) b1 v: 3 Fq2 multiplications.
  static Fq6 mul_by_1(const Fq6& a, const Fq2& b1) { return {Tower::mul_by_xi(a.c2 * b1), a.c0 * b1, a.c1 * b1}; }

  // f * (c0 + c3 w + c4 w^3) (D-type lines), Karatsuba over w with
  // L0 = c0, L1 = c3 + c4 v: 13 Fq2 multiplications instead of 18.
  static Fq12 mul_by_034(const Fq12& f, const Fq2& c0, const Fq2& c3, const Fq2& c4) {
    const Fq6 a = f.c0 * c0;
    const Fq6 b = mul_by_01(f.c1, c3, c4);
    const Fq6 s = mul_by_01(f.c0 + f.c1, c0 + c3, c4);
    return {a + b.mul_by_v(), s - a - b};
  }
  // f * (c0 + c1 w^2 + c4 w^3) (M-type lines), with L0 = c0 + c1 v, L1 = c4 v:
  // 13 Fq2 multiplications.
  static Fq12 mul_by_014(const Fq12& f, const Fq2& c0, const Fq2& c1, const Fq2& c4) {
    const Fq6 a = mul_by_01(f.c0, c0, c1);
    const Fq6 b = mul_by_1(f.c1, c4);
    const Fq6 s = mul_by_01(f.c0 + f.c1, c0, c1 + c4);
    return {a + b.mul_by_v(), s - a - b};
  }

  static void mul_by_line(Fq12& f, const Line& l, const G1Affine& P) {
    const Fq2 y = l.ly * P.y, x = l.lx * P.x;
    if constexpr (Curve::twist == Twist::D) {
      f = mul_by_034(f, y, x, l.l0);
    } else {
      f = mul_by_014(f, l.l0, x, y);
    }
  }

  // psi^e on the twist (twist_frobenius.hpp).
  static G2Affine twist_frobenius(const G2Affine& q, unsigned e) {
    return TwistFrobenius<Tower, Curve::twist == Twist::M>::apply(q, e);
  }

  // Q's lines in the order the loop takes them: a doubling line a digit, an
  // addition line after each non-zero one, then (BN) the two Frobenius lines.
  // This is the loop's G2 half, which depends on Q alone.
  static G2Lines<Fq2> lines_of(const G2Affine& Q) {
    G2Lines<Fq2> out;
    if (Q.is_inf()) return out;
    static constexpr Naf digits = naf(Curve::loop);
    static constexpr size_t count = [] {  // a doubling line a digit below the top, an addition per non-zero one
      size_t n = digits.len - 1 + (Curve::frobenius_lines ? 2 : 0);
      for (int i = 0; i < digits.len - 1; ++i) n += digits.d[i] != 0;
      return n;
    }();
    out.lines.reserve(count);
    Proj T{Q.x, Q.y, Fq2::one()};
    for (int i = digits.len - 2; i >= 0; --i) {
      out.lines.push_back(dbl_step(T));
      if (digits.d[i] != 0) out.lines.push_back(add_step(T, digits.d[i] > 0 ? Q : -Q));
    }
    if constexpr (Curve::frobenius_lines) {
      // BN optimal ate (Vercauteren, "Optimal pairings", 2010; Beuchat et al.
      // 2010, Algorithm 1): f *= l_{T, pi(Q)}(P) * l_{T + pi(Q), -pi^2(Q)}(P).
      out.lines.push_back(add_step(T, twist_frobenius(Q, 1)));
      out.lines.push_back(add_step(T, -twist_frobenius(Q, 2)));
    }
    return out;
  }

  // The multi-Miller loop: one shared accumulator f, squared once per bit for
  // all pairs, each pair contributing its own lines (Granger and Smart, "On
  // computing products of pairings", ePrint 2006/172), evaluated at its P.
  // Every Q's lines follow the same digits, so one index walks them all.
  static Fq12 miller_loop(std::span<const G1Affine> ps, std::span<const G2Lines<Fq2>* const> qs) {
    if (ps.size() != qs.size()) throw std::invalid_argument("miller_loop: G1 and G2 spans differ in length");
    struct Pair {
      const G1Affine* P;
      const Line* lines;
    };
    std::vector<Pair> pairs;
    pairs.reserve(ps.size());
    for (size_t i = 0; i < ps.size(); ++i)
      if (!ps[i].is_inf() && !qs[i]->lines.empty()) pairs.push_back({&ps[i], qs[i]->lines.data()});

    Fq12 f = Fq12::one();
    if (pairs.empty()) return f;
    static constexpr Naf digits = naf(Curve::loop);
    size_t k = 0;
    for (int i = digits.len - 2; i >= 0; --i) {
      if (i != digits.len - 2) f = f.sqr();  // f is still 1 on the first bit
      for (const auto& pr : pairs) mul_by_line(f, pr.lines[k], *pr.P);
      ++k;
      if (digits.d[i] != 0) {
        for (const auto& pr : pairs) mul_by_line(f, pr.lines[k], *pr.P);
        ++k;
      }
    }
    if constexpr (Curve::frobenius_lines) {
      for (const auto& pr : pairs) mul_by_line(f, pr.lines[k], *pr.P), mul_by_line(f, pr.lines[k + 1], *pr.P);
    }
    // A negative loop scalar: f_{-n} = 1/f_n up to verticals, and conj is the
    // inverse once the easy part has run.
    if constexpr (Curve::loop_negative) f = f.conj();
    return f;
  }

  // The same over Qs whose lines are computed here.
  static Fq12 miller_loop(std::span<const G1Affine> ps, std::span<const G2Affine> qs) {
    std::vector<G2Lines<Fq2>> lines;
    lines.reserve(qs.size());
    std::vector<const G2Lines<Fq2>*> of;
    for (const G2Affine& q : qs) of.push_back(&lines.emplace_back(lines_of(q)));
    return miller_loop(ps, std::span<const G2Lines<Fq2>* const>(of));
  }

  static Fq12 final_exponentiation(const Fq12& f) {
    // Easy part, f^((p^6 - 1)(p^2 + 1)): conj is the p^6 Frobenius. The result
    // lies in the cyclotomic subgroup (conj = inverse, cyclotomic squaring works).
    Fq12 m = f.conj() * f.inverse();
    m = m.frobenius(2) * m;
    return Curve::hard_part(m);
  }

  static Fq12 pairing(const G1Affine& p, const G2Affine& q) {
    return final_exponentiation(miller_loop(std::span(&p, 1), std::span(&q, 1)));
  }

  static bool product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q) {
    return final_exponentiation(miller_loop(p, q)).is_one();
  }
};

// BN254: x = 4965661367192848881 > 0, loop scalar 6x + 2 (65 bits), D-type twist.
struct Bn254Curve {
  using Tower = ff::bn254::Tower;
  using G1 = bn254::G1;
  using G2 = bn254::G2;
  using Fq12 = Tower::Fq12;
  static constexpr uint64_t x = bn254::kSeed;
  static constexpr u128 loop = (u128)6 * x + 2;
  static constexpr bool loop_negative = false;
  static constexpr bool frobenius_lines = true;
  static constexpr Twist twist = Twist::D;

  // m^x in the cyclotomic subgroup.
  static Fq12 exp_x(const Fq12& m) { return cyclotomic_exp(m, x); }

  // Fuentes-Castaneda, Knapp, Rodriguez-Henriquez, "Faster hashing to G2"
  // (SAC 2011), the BN final exponentiation: m^(l0 + l1 p + l2 p^2 + l3 p^3) with
  //   l0 = 12x^3 + 12x^2 + 6x + 1,  l1 = 12x^3 + 6x^2 + 4x,
  //   l2 = 12x^3 +  6x^2 + 6x,      l3 = 12x^3 + 6x^2 + 4x - 1,
  // which is 2x(6x^2 + 3x + 1) (p^4 - p^2 + 1)/r: noble's and snarkjs's chain.
  // Comments give each value's exponent of m.
  static Fq12 hard_part(const Fq12& m) {
    const Fq12 a = exp_x(m).conj();           // -x
    const Fq12 a2 = cyclotomic_sqr(a);        // -2x
    const Fq12 a6 = cyclotomic_sqr(a2) * a2;  // -6x
    const Fq12 b = exp_x(a6).conj();          // 6x^2
    const Fq12 c = exp_x(cyclotomic_sqr(b));  // 12x^3
    const Fq12 e = c * b * a6.conj();         // 12x^3 + 6x^2 + 6x        = l2
    const Fq12 g = e * a2;                    // 12x^3 + 6x^2 + 4x        = l1
    const Fq12 h = e * b * m;                 // 12x^3 + 12x^2 + 6x + 1   = l0
    const Fq12 k = g * m.conj();              // 12x^3 + 6x^2 + 4x - 1    = l3
    return h * g.frobenius(1) * e.frobenius(2) * k.frobenius(3);
  }
};

// BLS12-381: x = -0xd201000000010000 < 0, loop scalar |x| then conjugation,
// M-type twist, no Frobenius lines.
struct Bls12_381Curve {
  using Tower = ff::bls12_381::Tower;
  using G1 = bls12_381::G1;
  using G2 = bls12_381::G2;
  using Fq12 = Tower::Fq12;
  static constexpr uint64_t x_abs = bls12_381::kSeedAbs;
  static constexpr u128 loop = x_abs;
  static constexpr bool loop_negative = true;
  static constexpr bool frobenius_lines = false;
  static constexpr Twist twist = Twist::M;

  // m^x (x negative) in the cyclotomic subgroup.
  static Fq12 exp_x(const Fq12& m) { return cyclotomic_exp(m, x_abs).conj(); }

  // Hayashida, Hayasaka, Teruya, "Efficient final exponentiation via cyclotomic
  // structure for pairings over families of elliptic curves" (ePrint 2020/875):
  //   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3
  //   = (x^3 - 2x^2 + x) p^2 + (x^2 - 2x + 1) p^3 + (x^4 - 2x^3 + 2x - 1) p
  //     + (x^5 - 2x^4 + 2x^2 - x + 3),
  // the chain noble uses. Comments give each value's exponent of m.
  static Fq12 hard_part(const Fq12& m) {
    const Fq12 t2 = exp_x(m);                        // x
    const Fq12 t3 = cyclotomic_sqr(m).conj() * t2;   // x - 2
    const Fq12 t4 = exp_x(t3);                       // x^2 - 2x
    const Fq12 t5 = exp_x(t4);                       // x^3 - 2x^2
    const Fq12 t6 = exp_x(t5) * cyclotomic_sqr(t2);  // x^4 - 2x^3 + 2x
    const Fq12 t7 = exp_x(t6);                       // x^5 - 2x^4 + 2x^2
    return (t2 * t5).frobenius(2) *                  // (x^3 - 2x^2 + x) p^2
           (t4 * m).frobenius(3) *                   // (x^2 - 2x + 1) p^3
           (t6 * m.conj()).frobenius(1) *            // (x^4 - 2x^3 + 2x - 1) p
           t7 * t3.conj() * m;                       // x^5 - 2x^4 + 2x^2 - x + 3
  }
};

}  // namespace

// pairing.hpp's CUZK_PAIRING_FUNCTIONS, each the curve's Pairing<>'s.
#define CUZK_PAIRING_DEFINITIONS                                                                              \
  Fq12 miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q) { return P::miller_loop(p, q); } \
  Fq12 final_exponentiation(const Fq12& f) { return P::final_exponentiation(f); }                             \
  Fq12 pairing(const G1Affine& p, const G2Affine& q) { return P::pairing(p, q); }                             \
  bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q) {                     \
    return P::product_is_one(p, q);                                                                           \
  }                                                                                                           \
  G2Prepared prepare(const G2Affine& q) { return P::lines_of(q); }                                            \
  Fq12 prepared_miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared* const> q) {              \
    return P::miller_loop(p, q);                                                                              \
  }

namespace bn254 {
using P = Pairing<Bn254Curve>;
CUZK_PAIRING_DEFINITIONS
G2Affine twist_frobenius(const G2Affine& q) { return P::twist_frobenius(q, 1); }
}  // namespace bn254

namespace bls12_381 {
using P = Pairing<Bls12_381Curve>;
CUZK_PAIRING_DEFINITIONS
}  // namespace bls12_381
#undef CUZK_PAIRING_DEFINITIONS

}  // namespace cuzk::ec
