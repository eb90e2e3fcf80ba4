// Host MSM against the naive sum of scalar multiples, on random inputs and on
// the shapes real witnesses have: zeros, ones, repeats, infinity among bases.
#include <gtest/gtest.h>

#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "seed.hpp"

namespace cuzk {
namespace {

template <class C_, ec::Affine<C_> (*Gen)(), size_t MaxN>
struct Group {
  using C = C_;
  static ec::Affine<C> generator() { return Gen(); }
  static constexpr size_t max_n = MaxN;  // the naive sum is slow for G2
};
using Groups = ::testing::Types<Group<ec::bn254::G1, ec::bn254::g1_generator, 1100>,
                                Group<ec::bn254::G2, ec::bn254::g2_generator, 300>,
                                Group<ec::bls12_381::G1, ec::bls12_381::g1_generator, 1100>,
                                Group<ec::bls12_381::G2, ec::bls12_381::g2_generator, 300>>;

template <class T>
struct HostMsm : ::testing::Test {
  using C = typename T::C;
  using Fr = typename C::Fr;
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;

  std::mt19937_64 rng = test::test_rng();

  static J naive(const std::vector<A>& p, const std::vector<Fr>& k) {
    J acc = J::infinity();
    for (size_t i = 0; i < p.size(); ++i) acc = acc.add(ec::mul_vartime(p[i], k[i]));
    return acc;
  }
  std::vector<A> points(size_t n) { return ec::random_points<C>(n, T::generator(), rng()); }
  std::vector<Fr> scalars(size_t n) {
    std::vector<Fr> k(n);
    for (auto& x : k) x = ff::random_element<Fr>(rng);
    return k;
  }
  void expect_matches(const std::vector<A>& p, const std::vector<Fr>& k, const char* what) {
    const J want = naive(p, k);
    // 16 threads split each window's terms over several sets of buckets
    // where there are more than 4096 of them.
    for (unsigned threads : {1u, 3u, 16u}) {
      const J got = msm::msm<C>(p, k, threads);
      EXPECT_EQ(got, want) << what << ", n = " << p.size() << ", threads = " << threads;
      EXPECT_TRUE(got.on_curve()) << what;
    }
  }
};
TYPED_TEST_SUITE(HostMsm, Groups);

TYPED_TEST(HostMsm, RandomScalarsEverySize) {
  SEED_TRACE();
  for (size_t n : {size_t(1), size_t(2), size_t(5), size_t(64), TypeParam::max_n / 4 + 3, TypeParam::max_n})
    this->expect_matches(this->points(n), this->scalars(n), "random");
}

TYPED_TEST(HostMsm, WitnessShapes) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  const size_t n = TypeParam::max_n / 2 + 1;
  auto p = this->points(n);
  auto k = this->scalars(n);

  this->expect_matches(p, std::vector<Fr>(n, Fr::zero()), "all zeros");
  this->expect_matches(p, std::vector<Fr>(n, Fr::one()), "all ones");
  this->expect_matches(p, std::vector<Fr>(n, -Fr::one()), "all r-1");

  std::vector<Fr> mixed = k;  // mostly 0 and 1, like a Filecoin witness
  for (size_t i = 0; i < n; ++i)
    if (i % 7 != 0) mixed[i] = (i % 3 == 0) ? Fr::zero() : Fr::one();
  this->expect_matches(p, mixed, "mix of 0, 1 and full scalars");

  std::vector<A> repeated(n, p[0]);
  this->expect_matches(repeated, k, "one base repeated");

  std::vector<A> with_inf = p;
  for (size_t i = 0; i < n; i += 5) with_inf[i] = A::infinity();
  this->expect_matches(with_inf, k, "infinity among the bases");

  std::vector<A> cancel = p;  // P and -P with equal scalars sum to zero
  std::vector<Fr> same(n, k[1]);
  for (size_t i = 1; i < n; i += 2) cancel[i] = -cancel[i - 1];
  this->expect_matches(cancel, same, "pairs that cancel");

  std::vector<Fr> small(n);
  for (size_t i = 0; i < n; ++i) small[i] = Fr::from_uint(i + 2);
  this->expect_matches(p, small, "small scalars");
}

// 2^13 + 5 terms (G1): windows of 512 buckets, so the affine buckets' batches
// fill (128 additions share an inversion) and flush many times, beside the
// XYZZ overflow that takes a second point for a bucket already in the batch,
// equal x (one base repeated) and P + (-P); three chunks of terms.
TYPED_TEST(HostMsm, FullBatchesOfAffineAdditions) {
  if (TypeParam::max_n < 1000) GTEST_SKIP() << "G1 only: the naive sum is slow for G2";
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  const size_t n = (size_t(1) << 13) + 5;
  const auto p = this->points(n);
  const auto k = this->scalars(n);
  this->expect_matches(p, k, "random, 2^13 + 5");
  this->expect_matches(std::vector<A>(n, p[0]), k, "one base repeated, 2^13 + 5");
  std::vector<A> cancel = p;
  for (size_t i = 1; i < n; i += 2) cancel[i] = -cancel[i - 1];
  this->expect_matches(cancel, std::vector<Fr>(n, k[0]), "pairs that cancel, 2^13 + 5");
  // Mostly 0 and 1: windows too small to batch, so each chunk's windows share
  // one set of buckets that does.
  std::vector<Fr> witness = k;
  for (size_t i = 0; i < n; ++i)
    if (i % 7 != 0) witness[i] = (i % 3 == 0) ? Fr::zero() : Fr::one();
  this->expect_matches(p, witness, "mix of 0, 1 and full scalars, 2^13 + 5");
}

#if CUZK_HAVE_MONT52X8
// The IFMA paths (batches of affine additions, XYZZ running sums and the sum
// of the ones, eight lanes at a time) against the scalar ones, every group
// (G2's coordinates are Fp2 lanes), at a size whose batches fill: random
// scalars, a witness's mix, and ones over bases that repeat and cancel (lanes
// that meet P = Q, P = -Q and infinity, which the scalar additions redo).
TYPED_TEST(HostMsm, IfmaPathsMatchTheScalarOnes) {
  if (!ff::mont52x8::have_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  SEED_TRACE();
  using C = typename TestFixture::C;
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  const size_t n = (size_t(1) << 13) + 5;
  const auto random_points = this->points(n);
  const auto random_scalars = this->scalars(n);
  struct Restore {
    ~Restore() { ff::mont52x8::set_ifma(true); }
  } restore;
  for (int shape = 0; shape < 3; ++shape) {
    auto p = random_points;
    auto k = random_scalars;
    if (shape == 1)
      for (size_t i = 0; i < n; ++i)
        if (i % 7 != 0) k[i] = (i % 3 == 0) ? Fr::zero() : Fr::one();
    if (shape == 2)
      for (size_t i = 0; i < n; ++i) {
        k[i] = Fr::one();
        p[i] = i % 5 == 0 ? -random_points[0] : (i % 3 == 0 ? A::infinity() : random_points[i % 4]);
      }
    ASSERT_TRUE(ff::mont52x8::set_ifma(true));
    const auto with = msm::msm<C>(p, k, 2);
    ff::mont52x8::set_ifma(false);
    const auto without = msm::msm<C>(p, k, 2);
    EXPECT_TRUE(with == without) << "shape " << shape;
    EXPECT_FALSE(with.is_inf()) << "shape " << shape;
  }
}
#endif

TYPED_TEST(HostMsm, EmptyAndMismatched) {
  using C = typename TestFixture::C;
  EXPECT_TRUE(msm::msm<C>({}, {}, 2).is_inf());
  const auto p = this->points(3);
  const auto k = this->scalars(2);
  EXPECT_THROW(msm::msm<C>(p, k), std::invalid_argument);
}

TEST(HostMsmWindow, GrowsWithSize) {
  EXPECT_LE(msm::pippenger_window(1), msm::pippenger_window(1 << 10));
  EXPECT_LT(msm::pippenger_window(1 << 10), msm::pippenger_window(1 << 20));
  EXPECT_LE(msm::pippenger_window(size_t(1) << 28), 16u);
}

}  // namespace
}  // namespace cuzk
