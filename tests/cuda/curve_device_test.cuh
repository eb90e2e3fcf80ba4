// Every device curve operation (XYZZ and Jacobian: mixed and full addition,
// doubling, normalisation) against the host, bit for bit, on 2^20 random points
// per group, with P+P, P+(-P) and infinity on either side mixed in. One file a
// curve (curve_device_test_<curve>.cu) instantiates it for its two groups: all
// four in one file were one nvcc of 137 s on the 2-core VM.
#pragma once

#define CUZK_DEVICE_MUL_NOINLINE
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device_compare.cuh"
#include "cuzk/ec/random_points.hpp"

namespace cuzk::test {

template <class C>
void expect_curve_ops_match_host(const ec::Affine<C>& g) {
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;
  using X = ec::Xyzz<C>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = test_size();

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

}  // namespace cuzk::test

// The two groups' tests of one curve, in a file of its own.
#define CUZK_CURVE_DEVICE_TESTS(Suite, curve)                                                            \
  namespace cuzk::test {                                                                                 \
  namespace {                                                                                            \
  TEST(Suite, G1MatchesHost) { expect_curve_ops_match_host(ec::curve::g1_generator()); }                 \
  TEST(Suite, G2MatchesHost) { expect_curve_ops_match_host(ec::curve::g2_generator()); }                 \
  }                                                                                                      \
  }
