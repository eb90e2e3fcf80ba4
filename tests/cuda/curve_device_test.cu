// Every device curve operation (XYZZ and Jacobian: mixed and full addition,
// doubling, normalisation) against the host, bit for bit, on 2^20 random points
// per group, with P+P, P+(-P) and infinity on either side mixed in.
#define CUZK_DEVICE_MUL_NOINLINE
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "device_compare.cuh"
#include "cuzk/ec/random_points.hpp"

namespace cuzk::test {
namespace {

template <class C, class Gen>
struct Group {
  using Curve = C;
  static ec::Affine<C> generator() { return Gen{}(); }
};
struct Bn254G1Gen { auto operator()() const { return ec::bn254::g1_generator(); } };
struct Bn254G2Gen { auto operator()() const { return ec::bn254::g2_generator(); } };
struct Bls381G1Gen { auto operator()() const { return ec::bls12_381::g1_generator(); } };
struct Bls381G2Gen { auto operator()() const { return ec::bls12_381::g2_generator(); } };

template <class G>
struct DeviceCurve : testing::Test {};
using Groups = testing::Types<Group<ec::bn254::G1, Bn254G1Gen>, Group<ec::bn254::G2, Bn254G2Gen>,
                              Group<ec::bls12_381::G1, Bls381G1Gen>, Group<ec::bls12_381::G2, Bls381G2Gen>>;
TYPED_TEST_SUITE(DeviceCurve, Groups);

TYPED_TEST(DeviceCurve, MatchesHost) {
  using C = typename TypeParam::Curve;
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;
  using X = ec::Xyzz<C>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = test_size();
  const auto g = TypeParam::generator();

  auto p = ec::random_points<C>(n, g, seed), q = ec::random_points<C>(n, g, seed + 1);
  // Projective inputs with non-trivial Z: P + R for another random R.
  std::vector<A> shift = ec::random_points<C>(n, g, seed + 2);
  std::vector<J> pj(n), qj(n);
  std::vector<X> px(n), qx(n);
  parallel_for(n, [&](size_t i) {
    switch (i % 1024) {  // the exceptional cases of the addition formulas
      case 0: q[i] = p[i]; break;
      case 1: q[i] = -p[i]; break;
      case 2: p[i] = A::infinity(); break;
      case 3: q[i] = A::infinity(); break;
      default: break;
    }
    // pj, px represent p[i] and qj, qx represent q[i], both with random Z.
    const J sj = J::from(shift[i]);
    pj[i] = J::from(p[i]).add(sj).add(-sj);
    qj[i] = J::from(q[i]).add(sj).add(-sj);
    const X sx = X::from(shift[i]);
    px[i] = X::from(p[i]).add(sx).add(-sx);
    qx[i] = X::from(q[i]).add(sx).add(-sx);
  });
  expect_device_matches_host<ops::PointAdd, X>("xyzz + affine", ops::PointAdd{}, px, q);
  expect_device_matches_host<ops::PointAdd, X>("xyzz + xyzz", ops::PointAdd{}, px, qx);
  expect_device_matches_host<ops::Dbl, X>("xyzz dbl", ops::Dbl{}, px);
  expect_device_matches_host<ops::ToAffine, A>("xyzz to affine", ops::ToAffine{}, px);
  expect_device_matches_host<ops::PointAdd, J>("jacobian + affine", ops::PointAdd{}, pj, q);
  expect_device_matches_host<ops::PointAdd, J>("jacobian + jacobian", ops::PointAdd{}, pj, qj);
  expect_device_matches_host<ops::Dbl, J>("jacobian dbl", ops::Dbl{}, pj);
  expect_device_matches_host<ops::ToAffine, A>("jacobian to affine", ops::ToAffine{}, pj);

  // And the host results are right, not merely equal: the sums land on the curve
  // and the projective inputs still denote their affine points.
  for (size_t i = 0; i < 4096 && i < n; ++i) {
    ASSERT_EQ(px[i].to_affine(), p[i]) << i;
    ASSERT_EQ(pj[i].to_affine(), p[i]) << i;
    ASSERT_TRUE(px[i].add(q[i]).to_jacobian().on_curve()) << i;
  }
}

}  // namespace
}  // namespace cuzk::test
