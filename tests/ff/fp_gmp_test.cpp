// Fp<P> against GMP, for all four prime fields (BN254 Fq/Fr, BLS12-381 Fq/Fr).
//
// Every operation is checked on the edge values (chosen so that limbs sit at
// boundaries in the canonical AND the Montgomery representation) and on at
// least kRandom random inputs per operation. Inputs are built by writing the
// Montgomery limbs directly (a·R mod p computed by GMP), and results are read
// back the same way, so the arithmetic tests do not lean on the library's own
// conversions; those are tested separately. Reading a result also checks that
// it is fully reduced (limbs < p), which limb equality relies on.
//
// The seed comes from cuzk::test::test_seed() (CUZK_TEST_SEED replays a run).
#include "fp_gmp_fixture.hpp"

namespace {

TYPED_TEST_SUITE(FpGmp, Fields, FieldName);

// ---------------------------------------------------------------------------
// Constants.

TYPED_TEST(FpGmp, ModulusIsThePublishedPrime) {
  using F = TypeParam;
  using P = typename F::params;
  const mpz_class published(Spec<F>::modulus, Spec<F>::base);
  EXPECT_EQ(this->p, published) << "header modulus " << hex(this->p) << " vs published " << hex(published);
  EXPECT_EQ(Spec<F>::from_curve_parameter(), published) << "published constant disagrees with the curve parameter";
  EXPECT_NE(mpz_probab_prime_p(published.get_mpz_t(), 40), 0);
  EXPECT_EQ(F::N, P::n64);
  EXPECT_EQ(F::bytes, 8 * P::n64);
  EXPECT_EQ(mpz_sizeinbase(published.get_mpz_t(), 2), (size_t)P::bits);
  EXPECT_EQ(F::bits, P::bits);
  EXPECT_EQ((P::bits + 63) / 64, P::n64) << "limb count is not the smallest that holds p";
  EXPECT_EQ(mpz_class(published % 4), mpz_class(P::p_mod4));
}

TYPED_TEST(FpGmp, MontgomeryConstants) {
  using F = TypeParam;
  using P = typename F::params;
  constexpr size_t N = F::N;
  const mpz_class& p = this->p;
  uint64_t one[N], r2[N];
  for (size_t i = 0; i < N; ++i) one[i] = P::one(i), r2[i] = P::r2(i);
  EXPECT_EQ(from_limbs(one, N), mod(this->R, p)) << "P::one is not R mod p";
  EXPECT_EQ(from_limbs(r2, N), mod(this->R * this->R, p)) << "P::r2 is not R^2 mod p";
  // inv = -p^-1 mod 2^64.
  const mpz_class b64 = mpz_class(1) << 64;
  mpz_class pinv;
  ASSERT_NE(mpz_invert(pinv.get_mpz_t(), p.get_mpz_t(), b64.get_mpz_t()), 0);
  const mpz_class want_inv = mod(-pinv, b64);
  EXPECT_EQ(from_limbs(&P::inv, 1), want_inv) << "P::inv is not -p^-1 mod 2^64";
  EXPECT_EQ(((unsigned __int128)P::inv * P::modulus(0)) & ~0ull, ~0ull);  // p·inv = -1 mod 2^64
  // The Fp views of the constants.
  EXPECT_TRUE(this->is(F::one(), 1));
  EXPECT_TRUE(this->is(F::zero(), 0));
  EXPECT_TRUE(this->is(F::r2(), this->R));
  EXPECT_TRUE(F::one().is_one());
  EXPECT_FALSE(F::zero().is_one());
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
  // The spare top bit the no-carry Montgomery loop relies on.
  EXPECT_LT(P::modulus(N - 1), 0x7fffffffffffffffull);
}

template <class P>
constexpr bool has_two_adicity = requires { P::two_adicity; };

TYPED_TEST(FpGmp, TwoAdicity) {
  using P = typename TypeParam::params;
  if constexpr (has_two_adicity<P>) {
    const mpz_class pm1 = this->p - 1;
    EXPECT_EQ(mpz_scan1(pm1.get_mpz_t(), 0), (mp_bitcnt_t)P::two_adicity);
  } else {
    GTEST_SKIP() << "no two_adicity for this field";
  }
}

// ---------------------------------------------------------------------------
// Conversions.

TYPED_TEST(FpGmp, CanonicalRoundTrip) {
  SEED_TRACE();
  using F = TypeParam;
  constexpr size_t N = F::N;
  this->for_each_input([&](const mpz_class& a) {
    const auto v = to_limbs<N>(a);
    uint64_t in[N];
    for (size_t i = 0; i < N; ++i) in[i] = v[i];
    F x;
    ASSERT_TRUE(F::less_than_modulus(in)) << hex(a);
    ASSERT_TRUE(F::from_canonical(in, x)) << hex(a);
    ASSERT_EQ(this->montgomery_limbs(x), mod(a * this->R, this->p)) << "from_canonical(" << hex(a) << ")";
    ASSERT_TRUE(this->is(F::from_canonical_unchecked(in), a)) << "from_canonical_unchecked(" << hex(a) << ")";
    uint64_t out[N];
    this->make(a).to_canonical(out);
    ASSERT_EQ(from_limbs(out, N), a) << "to_canonical";
  });
}

// The Montgomery reduction alone (how a zkey's coefficients, stored as v·R²,
// are read): any N-limb word w, reduced or not, becomes w·R⁻¹ mod p, reduced.
TYPED_TEST(FpGmp, DividedByR) {
  SEED_TRACE();
  constexpr size_t N = TypeParam::N;
  std::vector<mpz_class> words = {0, 1, this->p - 1, this->p, this->p + 1, this->R - 1};
  for (const mpz_class& e : this->edges) words.push_back(mod(e * this->R * this->R, this->p));
  for (int i = 0; i < 2000; ++i) words.push_back(this->random_limbs(N, i % 2 == 0));
  for (const mpz_class& w : words) {
    const TypeParam got = this->raw(w).divided_by_r();
    ASSERT_EQ(this->montgomery_limbs(got), mod(w * this->Rinv, this->p)) << hex(w);
  }
}

TYPED_TEST(FpGmp, FromUint) {
  SEED_TRACE();
  using F = TypeParam;
  std::vector<uint64_t> xs = {0, 1, 2, 3, ~0ull, ~0ull - 1, 1ull << 63, (1ull << 63) - 1};
  for (int i = 0; i < kRandom; ++i) xs.push_back(this->rng() >> (this->rng() % 64));
  for (uint64_t x : xs) ASSERT_TRUE(this->is(F::from_uint(x), mpz_class(std::to_string(x), 10))) << x;
}

TYPED_TEST(FpGmp, FromCanonicalRejectsUnreduced) {
  SEED_TRACE();
  using F = TypeParam;
  constexpr size_t N = F::N;
  const mpz_class& p = this->p;
  const mpz_class top = (mpz_class(1) << (64 * N)) - 1;
  std::vector<mpz_class> bad = {p, p + 1, p + 2, top, top - 1, 2 * p - 1, 2 * p, p + (mpz_class(1) << 64)};
  // p with one limb raised: still >= p.
  for (size_t i = 0; i < N; ++i) {
    const mpz_class bump = mpz_class(1) << (64 * i);
    bad.push_back(p + bump);
  }
  for (int i = 0; i < kRandom; ++i) {
    // Uniform in [p, 2^(64N)).
    mpz_class z = mod(this->random_limbs(N, i % 2 == 0), top + 1 - p) + p;
    bad.push_back(z);
  }
  for (const auto& z : bad) {
    if (z > top) continue;
    const auto v = to_limbs<N>(z);
    uint64_t in[N];
    for (size_t i = 0; i < N; ++i) in[i] = v[i];
    F x = F::one();
    ASSERT_FALSE(F::less_than_modulus(in)) << hex(z);
    ASSERT_FALSE(F::from_canonical(in, x)) << hex(z);
  }
  // And the values just below p are accepted.
  for (int k = 1; k <= 3; ++k) {
    const auto v = to_limbs<N>(p - k);
    uint64_t in[N];
    for (size_t i = 0; i < N; ++i) in[i] = v[i];
    F x;
    ASSERT_TRUE(F::from_canonical(in, x));
    EXPECT_TRUE(this->is(x, p - k));
  }
}

// ---------------------------------------------------------------------------
// Arithmetic.

TYPED_TEST(FpGmp, Equality) {
  SEED_TRACE();
  this->for_each_pair([&](const mpz_class& a, const mpz_class& b) {
    const auto x = this->make(a), y = this->make(b);
    ASSERT_EQ(x == y, a == b) << hex(a) << " " << hex(b);
    ASSERT_EQ(x != y, a != b) << hex(a) << " " << hex(b);
    ASSERT_EQ(x.is_zero(), a == 0) << hex(a);
    ASSERT_EQ(x.is_one(), a == 1) << hex(a);
  });
}

TYPED_TEST(FpGmp, Add) {
  SEED_TRACE();
  this->for_each_pair([&](const mpz_class& a, const mpz_class& b) {
    auto x = this->make(a);
    ASSERT_TRUE(this->is(x + this->make(b), a + b)) << hex(a) << " + " << hex(b);
    x += this->make(b);
    ASSERT_TRUE(this->is(x, a + b)) << hex(a) << " += " << hex(b);
  });
}

TYPED_TEST(FpGmp, Sub) {
  SEED_TRACE();
  this->for_each_pair([&](const mpz_class& a, const mpz_class& b) {
    auto x = this->make(a);
    ASSERT_TRUE(this->is(x - this->make(b), a - b)) << hex(a) << " - " << hex(b);
    x -= this->make(b);
    ASSERT_TRUE(this->is(x, a - b)) << hex(a) << " -= " << hex(b);
  });
}

TYPED_TEST(FpGmp, Neg) {
  SEED_TRACE();
  this->for_each_input([&](const mpz_class& a) { ASSERT_TRUE(this->is(-this->make(a), -a)) << "-" << hex(a); });
}

TYPED_TEST(FpGmp, Dbl) {
  SEED_TRACE();
  this->for_each_input([&](const mpz_class& a) { ASSERT_TRUE(this->is(this->make(a).dbl(), 2 * a)) << hex(a); });
}

TYPED_TEST(FpGmp, Mul) {
  SEED_TRACE();
  this->for_each_pair([&](const mpz_class& a, const mpz_class& b) {
    auto x = this->make(a);
    const auto y = this->make(b);
    ASSERT_TRUE(this->is(x * y, a * b)) << hex(a) << " * " << hex(b);
    // The portable loop, which operator* replaces by MULX/ADX where the CPU has them.
    TypeParam portable;
    cuzk::ff::mont64::mul_portable<typename TypeParam::params>(portable.limb, x.limb, y.limb);
    ASSERT_TRUE(this->is(portable, a * b)) << hex(a) << " * " << hex(b) << " (portable)";
    x *= y;
    ASSERT_TRUE(this->is(x, a * b)) << hex(a) << " *= " << hex(b);
  });
}

TYPED_TEST(FpGmp, Sqr) {
  SEED_TRACE();
  this->for_each_input([&](const mpz_class& a) { ASSERT_TRUE(this->is(this->make(a).sqr(), a * a)) << hex(a); });
}

TYPED_TEST(FpGmp, MulSmall) {
  SEED_TRACE();
  const std::vector<unsigned> ks = {0, 1, 2, 3, 4, 9, 16, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  this->for_each_input([&](const mpz_class& a) {
    const auto x = this->make(a);
    for (unsigned k : ks) ASSERT_TRUE(this->is(x.mul_small(k), a * k)) << hex(a) << " * " << k;
    const unsigned k = (unsigned)(this->rng() >> (this->rng() % 64 + 1));
    ASSERT_TRUE(this->is(x.mul_small(k), a * k)) << hex(a) << " * " << k;
  });
}

}  // namespace
