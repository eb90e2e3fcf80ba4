// Fp<P> against GMP, for all four prime fields: powers, the two inverses,
// the Legendre symbol, square roots and mixed identities (fp_gmp_test.cpp:
// constants, representation and the ring operations).
//
// The seed comes from cuzk::test::test_seed() (CUZK_TEST_SEED replays a run).
#include "fp_gmp_fixture.hpp"

namespace {

TYPED_TEST_SUITE(FpGmp, Fields, FieldName);

TYPED_TEST(FpGmp, Pow) {
  SEED_TRACE();
  using F = TypeParam;
  constexpr size_t N = F::N;
  const mpz_class& p = this->p;
  std::vector<mpz_class> fixed = {0, 1, 2, 3, 15, 16, 17, p - 2, p - 1, p, p + 1, (p - 1) / 2, (p + 1) / 4,
                                  (mpz_class(1) << (64 * N)) - 1};
  auto check = [&](const mpz_class& a, const mpz_class& e, size_t n) {
    std::vector<uint64_t> el(n == 0 ? 1 : n, 0);
    if (sgn(e) != 0) {
      size_t count = 0;
      mpz_export(el.data(), &count, -1, sizeof(uint64_t), 0, 0, e.get_mpz_t());
    }
    mpz_class want;
    mpz_powm(want.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
    ASSERT_TRUE(this->is(this->make(a).pow(el.data(), n), want)) << hex(a) << " ^ " << hex(e) << " (" << n << " limbs)";
  };
  for (const auto& a : this->edges)
    for (const auto& e : fixed) {
      check(a, e, (mpz_sizeinbase(e.get_mpz_t(), 2) + 63) / 64);
      if (this->HasFatalFailure()) return;
    }
  for (int i = 0; i < kRandom; ++i) {
    const mpz_class a = this->sample();
    const size_t n = this->rng() % (N + 2);  // 0 .. N+1 limbs
    const mpz_class e = n ? this->random_limbs(n, i % 2 == 0) : mpz_class(0);
    check(a, e, n);
    if (this->HasFatalFailure()) return;
  }
}

TYPED_TEST(FpGmp, Inverse) {
  SEED_TRACE();
  const mpz_class& p = this->p;
  EXPECT_TRUE(TypeParam::zero().inverse().is_zero()) << "inverse(0) must be 0";
  this->for_each_input([&](const mpz_class& a) {
    const auto x = this->make(a);
    if (a == 0) {
      ASSERT_TRUE(this->is(x.inverse(), 0));
      return;
    }
    mpz_class want;
    ASSERT_NE(mpz_invert(want.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t()), 0);
    const auto inv = x.inverse();
    ASSERT_TRUE(this->is(inv, want)) << "inverse(" << hex(a) << ")";
    ASSERT_TRUE((inv * x).is_one()) << hex(a);
  });
}

// The variable-time inverse (safegcd) against GMP on the same inputs: the
// edges (0, 1, -1, powers of two, R mod p, values next to p and to 2^bits)
// and random ones, structured and uniform.
TYPED_TEST(FpGmp, InverseVartime) {
  SEED_TRACE();
  const mpz_class& p = this->p;
  EXPECT_TRUE(inverse_vartime(TypeParam::zero()).is_zero()) << "inverse_vartime(0) must be 0";
  this->for_each_input([&](const mpz_class& a) {
    const auto x = this->make(a);
    if (a == 0) return;
    mpz_class want;
    ASSERT_NE(mpz_invert(want.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t()), 0);
    const auto inv = inverse_vartime(x);
    ASSERT_TRUE(this->is(inv, want)) << "inverse_vartime(" << hex(a) << ")";
  });
  // Montgomery words that are themselves small or next to p (the integer the
  // algorithm inverts is the word, not the value).
  for (const mpz_class& word : {mpz_class(1), mpz_class(2), mpz_class(3), mpz_class(p - 1), mpz_class(p - 2),
                                mpz_class((p - 1) / 2), mpz_class(mpz_class(1) << (TypeParam::bits - 2))}) {
    const TypeParam x = this->raw(word);
    const auto inv = inverse_vartime(x);
    ASSERT_TRUE((inv * x).is_one()) << "word " << hex(word);
    ASSERT_TRUE(inv == x.inverse()) << "word " << hex(word);
  }
}

TYPED_TEST(FpGmp, Legendre) {
  SEED_TRACE();
  const mpz_class& p = this->p;
  int residues = 0, non_residues = 0;
  this->for_each_input([&](const mpz_class& a) {
    const int want = mpz_legendre(a.get_mpz_t(), p.get_mpz_t());
    ASSERT_EQ(this->make(a).legendre(), want) << hex(a);
    if (want == 1) ++residues;
    if (want == -1) ++non_residues;
  });
  // Random inputs are about half squares.
  EXPECT_GT(residues, kRandom / 3);
  EXPECT_GT(non_residues, kRandom / 3);
}

TYPED_TEST(FpGmp, Sqrt) {
  SEED_TRACE();
  using F = TypeParam;
  if constexpr (F::params::p_mod4 == 3) {
    const mpz_class& p = this->p;
    int roots = 0, rejected = 0;
    auto check = [&](const mpz_class& a) {
      const int l = mpz_legendre(a.get_mpz_t(), p.get_mpz_t());
      F s = F::one();
      const bool ok = this->make(a).sqrt(s);
      ASSERT_EQ(ok, l >= 0) << "sqrt(" << hex(a) << "), legendre " << l;
      if (ok) {
        ASSERT_TRUE(this->is(s.sqr(), a)) << "sqrt(" << hex(a) << ") does not square back";
        ++roots;
      } else {
        ++rejected;
      }
    };
    this->for_each_input(check);
    if (this->HasFatalFailure()) return;
    mpz_class n = 2;
    while (mpz_legendre(n.get_mpz_t(), p.get_mpz_t()) != -1) ++n;
    // Squares of random values, whose roots are known up to sign.
    for (int i = 0; i < kRandom; ++i) {
      const mpz_class b = this->sample();
      const mpz_class a = mod(b * b, p);
      F s;
      ASSERT_TRUE(this->make(a).sqrt(s)) << hex(a) << " = " << hex(b) << "^2";
      ASSERT_TRUE(this->is(s, b) || this->is(s, p - b)) << "sqrt(" << hex(b) << "^2)";
      // And a non-residue times a non-zero square is rejected.
      if (b != 0 && i % 2 == 0) {
        ASSERT_FALSE(this->make(mod(n * a, p)).sqrt(s)) << hex(n) << " * " << hex(a);
      }
    }
    EXPECT_GT(roots, kRandom / 3);
    EXPECT_GT(rejected, kRandom / 3);
  } else {
    GTEST_SKIP() << "sqrt is only provided for p = 3 mod 4";
  }
}

// Mixed expressions exercising chains of operations on the same values.
TYPED_TEST(FpGmp, Identities) {
  SEED_TRACE();
  using F = TypeParam;
  this->for_each_pair([&](const mpz_class& a, const mpz_class& b) {
    const F x = this->make(a), y = this->make(b);
    ASSERT_TRUE(this->is((x + y) * (x - y), a * a - b * b)) << hex(a) << " " << hex(b);
    ASSERT_TRUE(this->is(x.sqr() - y.dbl() + -x, a * a - 2 * b - a)) << hex(a) << " " << hex(b);
  });
}

}  // namespace
