// Domains and NTTs over both curves' Fr against naive evaluation: the snarkjs root
// convention (ω_k = 5^((r-1)/2^k)), the transforms against the O(n²) DFT where
// that is affordable and at sampled points where it is not (the four-step path),
// round trips up to 2^20, the cosets (including snarkjs's odd coset and the Z
// constant the prover relies on), edge cases and argument checks.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"
#include "noble.hpp"
#include "scalar_fields.hpp"

namespace cuzk {
namespace {

using poly::Domain;


template <class F>
F pow_u64(const F& x, uint64_t e) {
  return x.pow(&e, 1);
}

// x^(2^k) by k squarings (2^k may not fit in 64 bits for the largest domains).
template <class F>
F pow_2k(F x, unsigned k) {
  for (unsigned i = 0; i < k; ++i) x = x.sqr();
  return x;
}

// Σ c_i x^i by Horner's rule.
template <class F>
F evaluate(const std::vector<F>& c, const F& x) {
  F acc = F::zero();
  for (size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

// The polynomial with coefficients c at g·w^j, j < n: O(n²).
template <class F>
std::vector<F> naive_dft(const std::vector<F>& c, const F& w, const F& g) {
  std::vector<F> out(c.size());
  F x = g;
  for (size_t j = 0; j < c.size(); ++j, x *= w) out[j] = evaluate(c, x);
  return out;
}

// Coefficients of the polynomial taking the values e on ⟨w⟩: (1/n) Σ_j e_j w^(-ij).
template <class F>
std::vector<F> naive_interpolate(const std::vector<F>& e, const F& w) {
  const F n_inv = F::from_uint(e.size()).inverse();
  std::vector<F> c = naive_dft(e, w.inverse(), F::one());
  for (auto& x : c) x *= n_inv;
  return c;
}

// 5^((r-1)/2^k), computed without the Domain: the exponent by halving r - 1 k times,
// checked by multiplying back.
template <class F>
F snarkjs_root(unsigned k) {
  uint64_t e[F::N];
  for (size_t i = 0; i < F::N; ++i) e[i] = F::params::modulus(i);
  e[0] -= 1;
  for (unsigned s = 0; s < k; ++s) {
    for (size_t i = 0; i < F::N; ++i) e[i] = (e[i] >> 1) | (i + 1 < F::N ? e[i + 1] << 63 : 0);
  }
  uint64_t r[F::N];
  for (size_t i = 0; i < F::N; ++i) r[i] = F::params::modulus(i);
  const ff::BigUint back = ff::BigUint::from_limbs(e, F::N) * ff::BigUint(uint64_t{1} << (k / 2)) *
                               ff::BigUint(uint64_t{1} << (k - k / 2)) +
                           ff::BigUint(1);
  EXPECT_TRUE(back == ff::BigUint::from_limbs(r, F::N)) << "2^" << k << " does not divide r - 1";
  return F::from_uint(5).pow(e, F::N);
}

template <class T>
class NttTest : public ::testing::Test {
 protected:
  using Fr = typename T::Fr;
  static constexpr unsigned s = Fr::params::two_adicity;

  void SetUp() override {
    seed_ = test::test_seed();
    RecordProperty("seed", std::to_string(seed_));
    rng_ = test::test_rng();  // per test, so one test's draws do not shift another's
  }
  std::string trace() const { return "CUZK_TEST_SEED=" + std::to_string(seed_) + " field=" + T::name; }

  Fr random() { return ff::random_element<Fr>(rng_); }
  Fr random_nonzero() {
    for (;;)
      if (Fr x = random(); !x.is_zero()) return x;
  }
  std::vector<Fr> random_vector(size_t n) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = random();
    return v;
  }
  size_t random_index(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  // Indices to spot-check a transform of size n at: both ends and a few at random.
  std::vector<size_t> sample_indices(size_t n) {
    std::vector<size_t> idx{0, n - 1, n / 2, 1};
    for (int i = 0; i < 6; ++i) idx.push_back(random_index(n));
    return idx;
  }

  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

TYPED_TEST_SUITE(NttTest, test::ScalarFields, test::ScalarFieldNames);

// ---------------------------------------------------------------------------
// Domains

TYPED_TEST(NttTest, RootsFollowSnarkjs) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  constexpr unsigned s = TestFixture::s;
  const Fr minus_one = -Fr::one();
  EXPECT_EQ(Domain<Fr>::two_adic_root(), snarkjs_root<Fr>(s));
  for (unsigned k = 0; k <= s; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    ASSERT_EQ(d.log_size(), k);
    ASSERT_EQ(d.size(), size_t{1} << k);
    EXPECT_EQ(d.omega(), snarkjs_root<Fr>(k));
    // Order exactly n: ω^n = 1 and, for n > 1, ω^(n/2) = -1.
    EXPECT_EQ(pow_2k(d.omega(), k), Fr::one());
    if (k > 0) {
      EXPECT_EQ(pow_2k(d.omega(), k - 1), minus_one);
    }
    EXPECT_EQ(d.omega() * d.omega_inv(), Fr::one());
    Fr n = Fr::one();
    for (unsigned i = 0; i < k; ++i) n = n.dbl();
    EXPECT_EQ(n * d.size_inv(), Fr::one());
    EXPECT_EQ(d.coset_shift() * d.coset_shift_inv(), Fr::one());
  }
}

// On the coset the prover evaluates on, Z(x) = xⁿ - 1 must be the constant the
// proving key's H points assume: -2 on snarkjs's odd coset ω_{2n}·⟨ω⟩, and
// 25ⁿ - 1 (non-zero) on the coset 25·⟨ω⟩ that snarkjs uses for the largest domain.
TYPED_TEST(NttTest, CosetShiftAndVanishingPolynomial) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  constexpr unsigned s = TestFixture::s;
  const Fr minus_two = -Fr::from_uint(2);
  for (unsigned k = 0; k <= s; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const Fr g = d.coset_shift();
    Fr expected_z;
    if (k < s) {
      EXPECT_EQ(g, snarkjs_root<Fr>(k + 1));
      EXPECT_EQ(g.sqr(), d.omega());  // ω_{2n}² = ω_n
      expected_z = minus_two;
    } else {
      EXPECT_EQ(g, Fr::from_uint(25));
      expected_z = pow_2k(g, k) - Fr::one();
      EXPECT_FALSE(expected_z.is_zero());
    }
    for (int t = 0; t < 4; ++t) {
      const uint64_t j = this->random_index(d.size());
      const Fr x = g * pow_u64(d.omega(), j);
      EXPECT_EQ(pow_2k(x, k) - Fr::one(), expected_z) << "j=" << j;
    }
  }
}

TYPED_TEST(NttTest, RejectsBadSizes) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  constexpr unsigned s = TestFixture::s;
  try {
    Domain<Fr> d(s + 1);
    ADD_FAILURE() << "Domain(s + 1) did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2^" + std::to_string(s)), std::string::npos) << e.what();
  }
  EXPECT_THROW(Domain<Fr>(64), std::invalid_argument);
  EXPECT_THROW(Domain<Fr>::of_size(0), std::invalid_argument);
  EXPECT_THROW(Domain<Fr>::of_size(3), std::invalid_argument);
  EXPECT_THROW(Domain<Fr>::of_size(96), std::invalid_argument);
  EXPECT_THROW(Domain<Fr>::of_size(size_t{1} << (s + 1)), std::invalid_argument);
  EXPECT_EQ(Domain<Fr>::of_size(1).log_size(), 0u);
  EXPECT_EQ(Domain<Fr>::of_size(1024).log_size(), 10u);

  for (unsigned k : {0u, 4u, 14u}) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    for (size_t n : {d.size() - 1, d.size() + 1, 2 * d.size()}) {
      std::vector<Fr> v(n, Fr::one());
      EXPECT_THROW(poly::ntt(d, std::span<Fr>(v)), std::invalid_argument);
      EXPECT_THROW(poly::intt(d, std::span<Fr>(v)), std::invalid_argument);
      EXPECT_THROW(poly::coset_ntt(d, std::span<Fr>(v), d.coset_shift()), std::invalid_argument);
      EXPECT_THROW(poly::coset_intt(d, std::span<Fr>(v), d.coset_shift()), std::invalid_argument);
    }
    std::vector<Fr> v(d.size(), Fr::one());
    EXPECT_THROW(poly::coset_ntt(d, std::span<Fr>(v), Fr::zero()), std::invalid_argument);
    EXPECT_THROW(poly::coset_intt(d, std::span<Fr>(v), Fr::zero()), std::invalid_argument);
    EXPECT_EQ(v, std::vector<Fr>(d.size(), Fr::one())) << "a rejected call changed its input";
  }
}

// ---------------------------------------------------------------------------
// Transforms against naive evaluation

TYPED_TEST(NttTest, MatchesNaiveDft) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k = 0; k <= 10; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const auto x = this->random_vector(d.size());
    auto fwd = x;
    poly::ntt(d, std::span<Fr>(fwd), 2);
    EXPECT_EQ(fwd, naive_dft(x, d.omega(), Fr::one()));
    auto inv = x;
    poly::intt(d, std::span<Fr>(inv), 2);
    EXPECT_EQ(inv, naive_interpolate(x, d.omega()));
  }
}

TYPED_TEST(NttTest, CosetMatchesNaiveEvaluation) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k = 0; k <= 10; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    for (const Fr& g : {d.coset_shift(), this->random_nonzero()}) {
      const auto c = this->random_vector(d.size());
      auto v = c;
      poly::coset_ntt(d, std::span<Fr>(v), g, 2);
      const auto expected = naive_dft(c, d.omega(), g);
      EXPECT_EQ(v, expected);
      auto back = expected;
      poly::coset_intt(d, std::span<Fr>(back), g, 2);
      EXPECT_EQ(back, c);
    }
  }
}

// Above Domain::max_direct_log_size the transform takes the four-step path; an
// O(n²) DFT is too slow there, so each output is checked at sampled indices.
TYPED_TEST(NttTest, LargeTransformsMatchNaiveAtSamples) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k = 11; k <= 16; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const auto x = this->random_vector(d.size());
    const Fr g = this->random_nonzero();
    auto fwd = x, inv = x, cos = x, cos_inv = x;
    poly::ntt(d, std::span<Fr>(fwd));
    poly::intt(d, std::span<Fr>(inv));
    poly::coset_ntt(d, std::span<Fr>(cos), g);
    poly::coset_intt(d, std::span<Fr>(cos_inv), g);
    const Fr g_inv = g.inverse();
    for (size_t j : this->sample_indices(d.size())) {
      SCOPED_TRACE("j=" + std::to_string(j));
      const Fr wj = pow_u64(d.omega(), j), wj_inv = pow_u64(d.omega_inv(), j);
      EXPECT_EQ(fwd[j], evaluate(x, wj));
      EXPECT_EQ(inv[j], evaluate(x, wj_inv) * d.size_inv());
      EXPECT_EQ(cos[j], evaluate(x, g * wj));
      EXPECT_EQ(cos_inv[j], evaluate(x, wj_inv) * d.size_inv() * pow_u64(g_inv, j));
    }
  }
}

// snarkjs's h: values on ⟨ω⟩ -> iNTT -> coefficient i times ω_{2n}^i -> NTT gives
// the interpolating polynomial on the odd coset {ω_{2n}^(2j+1)}.
TYPED_TEST(NttTest, SnarkjsOddCosetPipeline) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k = 0; k <= 9; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const auto e = this->random_vector(d.size());
    auto v = e;
    poly::intt(d, std::span<Fr>(v));
    poly::coset_ntt(d, std::span<Fr>(v), d.coset_shift());

    const auto coeffs = naive_interpolate(e, snarkjs_root<Fr>(k));
    const Fr w2n = snarkjs_root<Fr>(k + 1);
    for (size_t j = 0; j < d.size(); ++j) {
      ASSERT_EQ(v[j], evaluate(coeffs, pow_u64(w2n, 2 * j + 1))) << "j=" << j;
    }
  }
}

// Every size to 2^16, then 2^18 and 2^20 (each size costs as much as all below
// it); the coset pair to 2^16.
TYPED_TEST(NttTest, RoundTripsUpTo2To20) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  std::vector<unsigned> logs;
  for (unsigned k = 0; k <= 16; ++k) logs.push_back(k);
  logs.insert(logs.end(), {18u, 20u});
  for (unsigned k : logs) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const auto x = this->random_vector(d.size());
    auto v = x;
    poly::ntt(d, std::span<Fr>(v));
    poly::intt(d, std::span<Fr>(v));
    ASSERT_EQ(v, x);
    if (k <= 16) {
      poly::coset_ntt(d, std::span<Fr>(v), d.coset_shift());
      poly::coset_intt(d, std::span<Fr>(v), d.coset_shift());
      ASSERT_EQ(v, x);
    }
  }
}

// Work is split among threads differently for every count; the result may not be.
TYPED_TEST(NttTest, ThreadCountsAgree) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k : {12u, 13u, 16u}) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const auto x = this->random_vector(d.size());
    auto ref = x;
    poly::ntt(d, std::span<Fr>(ref), 1);
    for (unsigned threads : {0u, 2u, 3u, 8u}) {
      auto v = x;
      poly::ntt(d, std::span<Fr>(v), threads);
      EXPECT_EQ(v, ref) << "threads=" << threads;
    }
  }
}

// ---------------------------------------------------------------------------
// Edge cases

TYPED_TEST(NttTest, SizesOneAndTwo) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  const Fr a = this->random(), b = this->random(), g = this->random_nonzero();
  const Domain<Fr> d1(0), d2(1);
  EXPECT_EQ(d1.omega(), Fr::one());
  EXPECT_EQ(d2.omega(), -Fr::one());

  std::vector<Fr> v{a};
  poly::ntt(d1, std::span<Fr>(v));
  EXPECT_EQ(v, std::vector<Fr>{a});
  poly::intt(d1, std::span<Fr>(v));
  EXPECT_EQ(v, std::vector<Fr>{a});
  poly::coset_ntt(d1, std::span<Fr>(v), g);
  EXPECT_EQ(v, std::vector<Fr>{a});

  v = {a, b};
  poly::ntt(d2, std::span<Fr>(v));
  EXPECT_EQ(v, (std::vector<Fr>{a + b, a - b}));
  poly::intt(d2, std::span<Fr>(v));
  EXPECT_EQ(v, (std::vector<Fr>{a, b}));
  poly::coset_ntt(d2, std::span<Fr>(v), g);
  EXPECT_EQ(v, (std::vector<Fr>{a + g * b, a - g * b}));
}

TYPED_TEST(NttTest, ZerosAndOnes) {
  SCOPED_TRACE(this->trace());
  using Fr = typename TestFixture::Fr;
  for (unsigned k : {0u, 1u, 2u, 7u, 12u, 13u, 15u}) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const Domain<Fr> d(k);
    const size_t n = d.size();
    const std::vector<Fr> zeros(n, Fr::zero()), ones(n, Fr::one());
    std::vector<Fr> unit(n, Fr::zero()), n_unit(n, Fr::zero());
    unit[0] = Fr::one();
    n_unit[0] = Fr::from_uint(n);

    auto v = zeros;
    poly::ntt(d, std::span<Fr>(v));
    EXPECT_EQ(v, zeros);
    poly::intt(d, std::span<Fr>(v));
    EXPECT_EQ(v, zeros);
    poly::coset_ntt(d, std::span<Fr>(v), d.coset_shift());
    EXPECT_EQ(v, zeros);
    poly::coset_intt(d, std::span<Fr>(v), d.coset_shift());
    EXPECT_EQ(v, zeros);

    // Σ_i ω^(ij) is n at j = 0 and 0 elsewhere.
    v = ones;
    poly::ntt(d, std::span<Fr>(v));
    EXPECT_EQ(v, n_unit);
    v = ones;
    poly::intt(d, std::span<Fr>(v));
    EXPECT_EQ(v, unit);
    // The constant polynomial 1 is 1 on every coset, and back.
    v = unit;
    poly::coset_ntt(d, std::span<Fr>(v), d.coset_shift());
    EXPECT_EQ(v, ones);
    poly::coset_intt(d, std::span<Fr>(v), d.coset_shift());
    EXPECT_EQ(v, unit);
  }
}

}  // namespace
}  // namespace cuzk
