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
#include <gmp.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include "seed.hpp"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/inverse_vartime.hpp"


namespace {

using namespace cuzk::ff;

constexpr int kRandom = 10000;

// ---------------------------------------------------------------------------
// The published parameters, as written in the curve specifications.

template <class F>
struct Spec;

// BN254 / alt_bn128 (EIP-196, snarkjs "bn128"), u = 4965661367192848881:
// q = 36u^4 + 36u^3 + 24u^2 + 6u + 1, r = 36u^4 + 36u^3 + 18u^2 + 6u + 1.
template <>
struct Spec<bn254::Fq> {
  static constexpr const char* name = "bn254_fq";
  static constexpr const char* modulus = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  static constexpr int base = 10;
  static mpz_class from_curve_parameter() {
    const mpz_class u("4965661367192848881", 10);
    return 36 * u * u * u * u + 36 * u * u * u + 24 * u * u + 6 * u + 1;
  }
};
template <>
struct Spec<bn254::Fr> {
  static constexpr const char* name = "bn254_fr";
  static constexpr const char* modulus = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
  static constexpr int base = 10;
  static mpz_class from_curve_parameter() {
    const mpz_class u("4965661367192848881", 10);
    return 36 * u * u * u * u + 36 * u * u * u + 18 * u * u + 6 * u + 1;
  }
};
// BLS12-381 (draft-irtf-cfrg-pairing-friendly-curves), x = -0xd201000000010000:
// p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x, r = x^4 - x^2 + 1.
template <>
struct Spec<bls12_381::Fq> {
  static constexpr const char* name = "bls12_381_fq";
  static constexpr const char* modulus =
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
  static constexpr int base = 16;
  static mpz_class from_curve_parameter() {
    const mpz_class x = -mpz_class("d201000000010000", 16);
    const mpz_class r = x * x * x * x - x * x + 1;
    return mpz_class((x - 1) * (x - 1) * r / 3) + x;
  }
};
template <>
struct Spec<bls12_381::Fr> {
  static constexpr const char* name = "bls12_381_fr";
  static constexpr const char* modulus = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
  static constexpr int base = 16;
  static mpz_class from_curve_parameter() {
    const mpz_class x = -mpz_class("d201000000010000", 16);
    return x * x * x * x - x * x + 1;
  }
};

// ---------------------------------------------------------------------------
// GMP helpers.

mpz_class from_limbs(const uint64_t* v, size_t n) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return z;
}

// z must satisfy 0 <= z < 2^(64 n).
template <size_t N>
std::array<uint64_t, N> to_limbs(const mpz_class& z) {
  std::array<uint64_t, N> v{};
  EXPECT_GE(sgn(z), 0);
  EXPECT_LE(mpz_sizeinbase(z.get_mpz_t(), 2), 64 * N);
  size_t count = 0;
  if (sgn(z) != 0) mpz_export(v.data(), &count, -1, sizeof(uint64_t), 0, 0, z.get_mpz_t());
  return v;
}

mpz_class mod(const mpz_class& a, const mpz_class& p) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), a.get_mpz_t(), p.get_mpz_t());
  return r;
}

std::string hex(const mpz_class& z) { return "0x" + z.get_str(16); }

template <size_t N>
std::string hex_limbs(const uint64_t (&v)[N]) {
  return hex(from_limbs(v, N));
}

// ---------------------------------------------------------------------------
// The fixture: the modulus and R from GMP, and a seeded generator.

template <class F>
class FpGmp : public ::testing::Test {
 protected:
  using P = typename F::params;
  static constexpr size_t N = F::N;

  mpz_class p, R, Rinv;
  std::mt19937_64 rng;
  std::vector<mpz_class> edges;

  void SetUp() override {
    uint64_t m[N];
    for (size_t i = 0; i < N; ++i) m[i] = P::modulus(i);
    p = from_limbs(m, N);
    R = mpz_class(1) << (64 * N);
    mpz_invert(Rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());
    rng = cuzk::test::test_rng();
    build_edges();
  }

  // The element whose canonical value is a (0 <= a < p), by writing its
  // Montgomery limbs a·R mod p directly.
  F make(const mpz_class& a) const {
    const auto v = to_limbs<N>(mod(a * R, p));
    F x;
    for (size_t i = 0; i < N; ++i) x.limb[i] = v[i];
    return x;
  }
  // An element by its raw Montgomery limbs.
  static F raw(const mpz_class& m) {
    const auto v = to_limbs<N>(m);
    F x;
    for (size_t i = 0; i < N; ++i) x.limb[i] = v[i];
    return x;
  }
  mpz_class montgomery_limbs(const F& x) const { return from_limbs(x.limb, N); }

  // Checks that x is fully reduced and represents want (mod p).
  ::testing::AssertionResult is(const F& x, const mpz_class& want) const {
    const mpz_class m = montgomery_limbs(x);
    if (m >= p) return ::testing::AssertionFailure() << "not reduced: Montgomery limbs " << hex(m) << " >= p";
    const mpz_class got = mod(m * Rinv, p);
    const mpz_class w = mod(want, p);
    if (got != w) return ::testing::AssertionFailure() << "got " << hex(got) << ", expected " << hex(w);
    return ::testing::AssertionSuccess();
  }

  uint64_t limb_value() {
    switch (rng() % 8) {
      case 0: return 0;
      case 1: return ~0ull;
      case 2: return ~0ull - (rng() % 4);
      case 3: return rng() % 4;
      case 4: return 1ull << 63;
      case 5: return (1ull << 63) - 1;
      default: return rng();
    }
  }
  mpz_class random_limbs(size_t n, bool structured) {
    std::vector<uint64_t> v(n);
    for (auto& l : v) l = structured ? limb_value() : rng();
    return from_limbs(v.data(), n);
  }
  mpz_class uniform() {
    const size_t top = P::bits - 64 * (N - 1);
    for (;;) {
      mpz_class z = random_limbs(N, false);
      mpz_fdiv_r_2exp(z.get_mpz_t(), z.get_mpz_t(), 64 * (N - 1) + top);
      if (z < p) return z;
    }
  }
  // A canonical value in [0, p): uniform half of the time, otherwise with
  // boundary limbs in its canonical or its Montgomery form, or an edge value.
  mpz_class sample() {
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2:
      case 3: return uniform();
      case 4:
      case 5: return mod(random_limbs(N, true), p);
      case 6: return mod(random_limbs(N, true) * Rinv, p);
      default: return edges[rng() % edges.size()];
    }
  }

  void build_edges() {
    std::vector<mpz_class> v;
    auto add = [&](const mpz_class& z) { v.push_back(mod(z, p)); };
    for (int k = 0; k < 4; ++k) add(k);
    for (int k = 1; k < 4; ++k) add(p - k);
    add((p - 1) / 2);
    add((p + 1) / 2);
    add((p - 1) / 2 - 1);
    add((p + 1) / 2 + 1);
    for (size_t k = 1; k <= N; ++k) {
      const mpz_class b = mpz_class(1) << (64 * k);
      add(b - 1);
      add(b);
      add(b + 1);
    }
    add(mpz_class(1) << (P::bits - 1));
    add((mpz_class(1) << (P::bits - 1)) - 1);
    add((mpz_class(1) << P::bits) - 1);
    const mpz_class rm = mod(R, p);
    add(rm);
    add(rm - 1);
    add(rm + 1);
    add(p - rm);
    add(R * R);
    // Values sharing p's top limb (just under p in the top limb).
    add((p >> 64 * (N - 1)) << 64 * (N - 1));
    add(((p >> 64 * (N - 1)) << 64 * (N - 1)) - 1);
    // Each value both as a canonical value and as the Montgomery limbs.
    edges.clear();
    for (const auto& z : v) {
      edges.push_back(z);
      edges.push_back(mod(z * Rinv, p));
    }
  }

  // The checks use ASSERT_* inside fn, which only leaves fn; the loops stop at
  // the first fatal failure so a bug is reported once, with its inputs.
  template <class Fn>
  void for_each_input(Fn&& fn) {
    for (const auto& a : edges) {
      fn(a);
      if (HasFatalFailure()) return;
    }
    for (int i = 0; i < kRandom; ++i) {
      fn(sample());
      if (HasFatalFailure()) return;
    }
  }
  template <class Fn>
  void for_each_pair(Fn&& fn) {
    for (const auto& a : edges)
      for (const auto& b : edges) {
        fn(a, b);
        if (HasFatalFailure()) return;
      }
    for (int i = 0; i < kRandom; ++i) {
      const mpz_class a = sample();
      fn(a, rng() % 16 == 0 ? a : sample());
      if (HasFatalFailure()) return;
    }
  }
};

using Fields = ::testing::Types<bn254::Fq, bn254::Fr, bls12_381::Fq, bls12_381::Fr>;
struct FieldName {
  template <class F>
  static std::string GetName(int) {
    return Spec<F>::name;
  }
};
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
