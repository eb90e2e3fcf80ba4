// The extension tower Fq2 / Fq6 / Fq12 of BN254 and BLS12-381.
//
//  * field axioms on random elements, at every level of both towers;
//  * Fq2 square roots and the quadratic character;
//  * the Frobenius map: its powers, its period, that it is a ring
//    homomorphism, and that it is x -> x^p (checked with pow over p's limbs).
// tower_gmp_test.cpp holds the products against a schoolbook model over GMP.
//
// The seed comes from cuzk::test::test_seed() (CUZK_TEST_SEED replays a run).
#include "tower_fixture.hpp"

namespace {

// (p^k - sub) / div as little-endian limbs, for exponents.
template <class Fq>
std::vector<uint64_t> p_power(unsigned k, uint64_t sub = 0, uint64_t div = 1) {
  const auto pl = modulus_limbs<Fq>();
#if CUZK_TEST_HAVE_GMP
  mpz_class p, e = 1;
  mpz_import(p.get_mpz_t(), pl.size(), -1, 8, 0, 0, pl.data());
  for (unsigned i = 0; i < k; ++i) e *= p;
  e -= sub;
  EXPECT_TRUE(mpz_divisible_ui_p(e.get_mpz_t(), div));
  e /= div;
  std::vector<uint64_t> out((mpz_sizeinbase(e.get_mpz_t(), 2) + 63) / 64 + 1, 0);
  size_t count = 0;
  mpz_export(out.data(), &count, -1, 8, 0, 0, e.get_mpz_t());
  out.resize(count);
  return out;
#else
  const BigUint p = BigUint::from_limbs(pl.data(), pl.size());
  BigUint e(1);
  for (unsigned i = 0; i < k; ++i) e = e * p;
  e = e - BigUint(sub);
  EXPECT_EQ(e.divmod_small(div), 0u);
  return e.limbs();
#endif
}

// ---------------------------------------------------------------------------
// Field axioms at every level.

template <class T>
struct Level;
#define CUZK_LEVEL(T, N, Fq_)        \
  template <>                        \
  struct Level<T> {                  \
    static constexpr const char* name = N; \
    using Fq = Fq_;                  \
  };
CUZK_LEVEL(bn254::Fq2, "bn254_fq2", bn254::Fq)
CUZK_LEVEL(bn254::Fq6, "bn254_fq6", bn254::Fq)
CUZK_LEVEL(bn254::Fq12, "bn254_fq12", bn254::Fq)
CUZK_LEVEL(bls12_381::Fq2, "bls12_381_fq2", bls12_381::Fq)
CUZK_LEVEL(bls12_381::Fq6, "bls12_381_fq6", bls12_381::Fq)
CUZK_LEVEL(bls12_381::Fq12, "bls12_381_fq12", bls12_381::Fq)
#undef CUZK_LEVEL

struct LevelName {
  template <class T>
  static std::string GetName(int) {
    return Level<T>::name;
  }
};

template <class T>
class TowerAxioms : public ::testing::Test {};
using Levels = ::testing::Types<bn254::Fq2, bn254::Fq6, bn254::Fq12, bls12_381::Fq2, bls12_381::Fq6,
                                bls12_381::Fq12>;
TYPED_TEST_SUITE(TowerAxioms, Levels, LevelName);

constexpr int kAxiomIters = 1000;

TYPED_TEST(TowerAxioms, Addition) {
  SEED_TRACE();
  using T = TypeParam;
  auto rng = test_rng();
  for (int i = 0; i < kAxiomIters; ++i) {
    const T a = rnd<T>(rng), b = rnd<T>(rng), c = rnd<T>(rng);
    ASSERT_EQ(a + b, b + a);
    ASSERT_EQ((a + b) + c, a + (b + c));
    ASSERT_EQ(a + T::zero(), a);
    ASSERT_TRUE((a + (-a)).is_zero());
    ASSERT_EQ(a - b, a + (-b));
    ASSERT_EQ((a - b) + b, a);
    ASSERT_EQ(-(-a), a);
    ASSERT_EQ(a == b, (a - b).is_zero());
  }
}

TYPED_TEST(TowerAxioms, Multiplication) {
  SEED_TRACE();
  using T = TypeParam;
  auto rng = test_rng();
  for (int i = 0; i < kAxiomIters; ++i) {
    const T a = rnd<T>(rng), b = rnd<T>(rng), c = rnd<T>(rng);
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a * T::one(), a);
    ASSERT_TRUE((a * T::zero()).is_zero());
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ((a - b) * c, a * c - b * c);
    ASSERT_EQ((-a) * b, -(a * b));
    ASSERT_EQ(a.sqr(), a * a);
    T d = a;
    d *= b;
    ASSERT_EQ(d, a * b);
  }
}

TYPED_TEST(TowerAxioms, Inverse) {
  SEED_TRACE();
  using T = TypeParam;
  auto rng = test_rng();
  EXPECT_EQ(T::one().inverse(), T::one());
  EXPECT_EQ((-T::one()).inverse(), -T::one());
  for (int i = 0; i < kAxiomIters / 4; ++i) {
    const T a = rnd<T>(rng), b = rnd<T>(rng);
    if (a.is_zero() || b.is_zero()) continue;
    const T ai = a.inverse();
    ASSERT_EQ(a * ai, T::one());
    ASSERT_EQ(ai * a, T::one());
    ASSERT_EQ(ai.inverse(), a);
    ASSERT_EQ((a * b).inverse(), ai * b.inverse());
  }
}

TYPED_TEST(TowerAxioms, PowMatchesRepeatedMultiplication) {
  using T = TypeParam;
  if constexpr (requires(T t, const uint64_t* e) { t.pow(e, size_t{1}); }) {
    SEED_TRACE();
    auto rng = test_rng();
    for (int i = 0; i < 20; ++i) {
      const T a = rnd<T>(rng);
      T acc = T::one();
      for (uint64_t e = 0; e < 20; ++e) {
        ASSERT_EQ(a.pow(&e, 1), acc) << "exponent " << e;
        acc *= a;
      }
      // a^(e1 + e2) = a^e1 a^e2 for two-limb exponents whose sum fits.
      const uint64_t e1[2] = {rng(), rng() >> 1}, e2[2] = {rng(), rng() >> 1};
      uint64_t s[2];
      s[0] = e1[0] + e2[0];
      s[1] = e1[1] + e2[1] + (s[0] < e1[0] ? 1 : 0);
      ASSERT_EQ(a.pow(s, 2), a.pow(e1, 2) * a.pow(e2, 2));
      // Leading zero limbs do not change the value.
      const uint64_t z[3] = {e1[0], e1[1], 0};
      ASSERT_EQ(a.pow(z, 3), a.pow(e1, 2));
    }
  } else {
    GTEST_SKIP() << "no pow at this level";
  }
}

// ---------------------------------------------------------------------------
// Per-curve tests.

TYPED_TEST_SUITE(Tower, Towers, TowerName);

TYPED_TEST(Tower, NonResidue) {
  using Tw = TypeParam;
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  EXPECT_EQ(Fq::params::p_mod4, 3u) << "u^2 = -1 needs -1 to be a non-square";
  EXPECT_EQ(Tw::xi(), (Fq2{Fq::from_uint(CurveName<Tw>::xi_c0), Fq::one()}));
  const Fq2 u{Fq::zero(), Fq::one()};
  EXPECT_EQ(u * u, -Fq2::one());
  // v^3 - xi is irreducible over Fq2 iff xi is not a cube; w^2 - v over Fq6
  // needs v non-square, which follows from xi being a non-square.
  const Fq2 xi = Tw::xi();
  const auto half = p_power<Fq>(2, 1, 2), third = p_power<Fq>(2, 1, 3);
  EXPECT_NE(xi.pow(half.data(), half.size()), Fq2::one()) << "xi is a square in Fq2";
  EXPECT_NE(xi.pow(third.data(), third.size()), Fq2::one()) << "xi is a cube in Fq2";
  EXPECT_EQ(xi.legendre(), -1);
}

TYPED_TEST(Tower, Fq2Operations) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  auto rng = test_rng();
  const auto pl = modulus_limbs<Fq>();
  for (int i = 0; i < 1000; ++i) {
    const Fq2 a = rnd<Fq2>(rng);
    const Fq k = rnd<Fq>(rng);
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a * k, (a * Fq2{k, Fq::zero()}));
    const unsigned s = (unsigned)(rng() >> 40);
    ASSERT_EQ(a.mul_small(s), (a * Fq2{Fq::from_uint(s), Fq::zero()}));
    ASSERT_EQ(a.conj(), (Fq2{a.c0, -a.c1}));
    ASSERT_EQ(a * a.conj(), (Fq2{a.norm(), Fq::zero()}));
    ASSERT_EQ(Tw::mul_by_xi(a), a * Tw::xi());
    ASSERT_EQ(a.frobenius(1), a.conj());
    ASSERT_EQ(a.frobenius(2), a);
    ASSERT_EQ(a.frobenius(3), a.conj());
    if (i < 100) {
      ASSERT_EQ(a.frobenius(1), a.pow(pl.data(), pl.size())) << "Fq2 Frobenius is not x^p";
    }
    Fq2 b = a;
    b += a;
    b -= a;
    b *= a;
    ASSERT_EQ(b, a.sqr());
  }
}

// The variable-time inverse (the host MSM's) equals the constant-time one.
TYPED_TEST(Tower, Fq2InverseVartime) {
  SEED_TRACE();
  using Fq2 = typename TypeParam::Fq2;
  auto rng = test_rng();
  EXPECT_TRUE(inverse_vartime(Fq2::zero()).is_zero());
  EXPECT_EQ(inverse_vartime(Fq2::one()), Fq2::one());
  for (int i = 0; i < kAxiomIters; ++i) {
    const Fq2 a = rnd<Fq2>(rng);
    ASSERT_EQ(inverse_vartime(a), a.inverse());
  }
}

TYPED_TEST(Tower, Fq6Operations) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq2 = typename Tw::Fq2;
  using Fq6 = typename Tw::Fq6;
  auto rng = test_rng();
  const Fq6 v{Fq2::zero(), Fq2::one(), Fq2::zero()};
  EXPECT_EQ(v * v * v, (Fq6{Tw::xi(), Fq2::zero(), Fq2::zero()})) << "v^3 != xi";
  for (int i = 0; i < 1000; ++i) {
    const Fq6 a = rnd<Fq6>(rng);
    const Fq2 k = rnd<Fq2>(rng);
    ASSERT_EQ(a.mul_by_v(), a * v);
    ASSERT_EQ(a.mul_by_v().mul_by_v().mul_by_v(), (a * Fq6{Tw::xi(), Fq2::zero(), Fq2::zero()}));
    ASSERT_EQ(a * k, (a * Fq6{k, Fq2::zero(), Fq2::zero()}));
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a.sqr(), a * a);
  }
}

TYPED_TEST(Tower, Fq12Operations) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq2 = typename Tw::Fq2;
  using Fq6 = typename Tw::Fq6;
  using Fq12 = typename Tw::Fq12;
  auto rng = test_rng();
  const Fq12 w{Fq6::zero(), Fq6::one()};
  EXPECT_EQ(w * w, (Fq12{Fq6{Fq2::zero(), Fq2::one(), Fq2::zero()}, Fq6::zero()})) << "w^2 != v";
  EXPECT_TRUE(Fq12::one().is_one());
  EXPECT_FALSE(w.is_one());
  for (int i = 0; i < 1000; ++i) {
    const Fq12 a = rnd<Fq12>(rng);
    ASSERT_EQ(a.sqr(), a * a);
    ASSERT_EQ(a.conj(), (Fq12{a.c0, -a.c1}));
    ASSERT_EQ(a * w, (Fq12{a.c1.mul_by_v(), a.c0}));
  }
}

// ---------------------------------------------------------------------------
// Square roots in Fq2.

TYPED_TEST(Tower, Fq2Sqrt) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  auto rng = test_rng();
  const auto euler = p_power<Fq>(2, 1, 2);  // (p^2 - 1) / 2
  Fq2 r;
  ASSERT_TRUE(Fq2::zero().sqrt(r));
  EXPECT_TRUE(r.is_zero());
  ASSERT_TRUE(Fq2::one().sqrt(r));
  EXPECT_EQ(r.sqr(), Fq2::one());
  EXPECT_EQ(Fq2::zero().legendre(), 0);
  EXPECT_EQ(Fq2::one().legendre(), 1);

  // Squares have roots, which square back to them and are +-the original.
  for (int i = 0; i < 500; ++i) {
    const Fq2 b = rnd<Fq2>(rng), a = b.sqr();
    ASSERT_TRUE(a.sqrt(r)) << "no root for a square";
    ASSERT_EQ(r.sqr(), a);
    ASSERT_TRUE(r == b || r == -b);
    ASSERT_EQ(a.legendre(), a.is_zero() ? 0 : 1);
  }
  // Random elements: about half are non-squares; sqrt, legendre and Euler's
  // criterion agree on each.
  const int n = 1000;
  int non_squares = 0;
  for (int i = 0; i < n; ++i) {
    const Fq2 a = uniform<Fq2>(rng);
    const Fq2 e = a.pow(euler.data(), euler.size());
    const int l = a.legendre();
    ASSERT_EQ(l, e.is_zero() ? 0 : (e == Fq2::one() ? 1 : -1));
    ASSERT_TRUE(e.is_zero() || e == Fq2::one() || e == -Fq2::one());
    Fq2 s = Fq2::one();
    const bool ok = a.sqrt(s);
    ASSERT_EQ(ok, l >= 0);
    if (ok) {
      ASSERT_EQ(s.sqr(), a);
    }
    non_squares += l == -1;
  }
  EXPECT_GT(non_squares, n * 4 / 10);
  EXPECT_LT(non_squares, n * 6 / 10);
  // Every element of Fq is a square in Fq2, residue in Fq or not.
  int fq_non_residues = 0;
  for (int i = 0; i < 200; ++i) {
    const Fq c = random_element<Fq>(rng);
    fq_non_residues += c.legendre() == -1;
    ASSERT_TRUE((Fq2{c, Fq::zero()}).sqrt(r));
    ASSERT_EQ(r.sqr(), (Fq2{c, Fq::zero()}));
    // Purely imaginary elements: sqrt agrees with the character.
    const Fq2 im{Fq::zero(), c};
    const bool ok = im.sqrt(r);
    ASSERT_EQ(ok, im.legendre() >= 0);
    if (ok) {
      ASSERT_EQ(r.sqr(), im);
    }
  }
  EXPECT_GT(fq_non_residues, 0);
}

// ---------------------------------------------------------------------------
// Frobenius on Fq12.

TYPED_TEST(Tower, FrobeniusPowersAndPeriod) {
  SEED_TRACE();
  using Fq12 = typename TypeParam::Fq12;
  auto rng = test_rng();
  for (int i = 0; i < 50; ++i) {
    const Fq12 x = rnd<Fq12>(rng);
    EXPECT_EQ(x.frobenius(0), x);
    EXPECT_EQ(x.frobenius(12), x);
    Fq12 y = x;
    for (unsigned k = 1; k <= 12; ++k) {
      y = y.frobenius(1);
      ASSERT_EQ(y, x.frobenius(k)) << "frobenius(1)^" << k << " != frobenius(" << k << ")";
    }
    ASSERT_EQ(y, x);
    // frobenius(a) after frobenius(b) is frobenius(a + b).
    const unsigned a = rng() % 12, b = rng() % 12;
    ASSERT_EQ(x.frobenius(a).frobenius(b), x.frobenius((a + b) % 12));
  }
}

TYPED_TEST(Tower, FrobeniusIsRingHomomorphism) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq = typename Tw::Fq;
  using Fq2 = typename Tw::Fq2;
  using Fq6 = typename Tw::Fq6;
  using Fq12 = typename Tw::Fq12;
  auto rng = test_rng();
  EXPECT_EQ(Fq12::one().frobenius(1), Fq12::one());
  EXPECT_TRUE(Fq12::zero().frobenius(1).is_zero());
  for (int i = 0; i < 200; ++i) {
    const Fq12 a = rnd<Fq12>(rng), b = rnd<Fq12>(rng);
    const unsigned k = 1 + rng() % 11;
    for (unsigned e : {1u, k}) {
      ASSERT_EQ((a * b).frobenius(e), a.frobenius(e) * b.frobenius(e)) << "e = " << e;
      ASSERT_EQ((a + b).frobenius(e), a.frobenius(e) + b.frobenius(e)) << "e = " << e;
      ASSERT_EQ((-a).frobenius(e), -a.frobenius(e)) << "e = " << e;
    }
    // Fq is fixed.
    const Fq c = rnd<Fq>(rng);
    const Fq12 cc{Fq6{Fq2{c, Fq::zero()}, Fq2::zero(), Fq2::zero()}, Fq6::zero()};
    ASSERT_EQ(cc.frobenius(1), cc);
  }
}

TYPED_TEST(Tower, FrobeniusIsPowerOfP) {
  SEED_TRACE();
  using Tw = TypeParam;
  using Fq = typename Tw::Fq;
  using Fq12 = typename Tw::Fq12;
  auto rng = test_rng();
  for (unsigned k : {1u, 2u, 3u, 6u}) {
    const auto e = p_power<Fq>(k);
    const int samples = k == 1 ? 8 : 2;
    for (int i = 0; i < samples; ++i) {
      const Fq12 x = rnd<Fq12>(rng);
      ASSERT_EQ(x.frobenius(k), x.pow(e.data(), e.size())) << "frobenius(" << k << ") != x^(p^" << k << ")";
    }
  }
}

TYPED_TEST(Tower, FrobeniusSixIsConjugation) {
  SEED_TRACE();
  using Fq12 = typename TypeParam::Fq12;
  auto rng = test_rng();
  for (int i = 0; i < 100; ++i) {
    const Fq12 y = rnd<Fq12>(rng);
    // x^(p^6) = conj(x) holds on all of Fq12 (w^(p^6) = -w).
    ASSERT_EQ(y.frobenius(6), y.conj());
    if (y.is_zero()) continue;
    // The cyclotomic subgroup: x = y^((p^6 - 1)(p^2 + 1)).
    Fq12 x = y.conj() * y.inverse();
    x = x.frobenius(2) * x;
    ASSERT_EQ(x.frobenius(6), x.conj());
    ASSERT_EQ(x * x.conj(), Fq12::one()) << "not unitary";
    ASSERT_EQ(x.inverse(), x.conj());
  }
}

// ---------------------------------------------------------------------------
}  // namespace
