// The hot kernels inline field multiplication; the carry flag then lives
// between asm statements inside large functions. This test checks that form
// (no CUZK_DEVICE_MUL_NOINLINE) on the operations MSM and NTT lean on.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "device_compare.cuh"
#include "cuzk/ec/random_points.hpp"

namespace cuzk::test {
namespace {

template <class F>
std::vector<F> random_with_minus_one(size_t n, uint64_t seed) {
  auto v = ff::random_elements<F>(n, seed);
  for (size_t i = 0; i < n; i += 1000) v[i] = -F::one();
  return v;
}

template <class F>
void check_mul(const char* what) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto a = random_with_minus_one<F>(test_size(), seed), b = random_with_minus_one<F>(test_size(), seed + 99);
  expect_device_matches_host<ops::Mul, F>(what, ops::Mul{}, a, b);
}

TEST(InlineArith, FieldMul) {
  check_mul<ff::bn254::Fq>("bn254 Fq mul");
  check_mul<ff::bn254::Fr>("bn254 Fr mul");
  check_mul<ff::bls12_381::Fq>("bls12_381 Fq mul");
  check_mul<ff::bls12_381::Fr>("bls12_381 Fr mul");
}

template <class C>
void check_madd(const ec::Affine<C>& g, const char* what) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = test_size();
  const auto p = ec::random_points<C>(n, g, seed), q = ec::random_points<C>(n, g, seed + 5);
  std::vector<ec::Xyzz<C>> px(n);
  parallel_for(n, [&](size_t i) { px[i] = ec::Xyzz<C>::from(p[i]).dbl(); });
  expect_device_matches_host<ops::PointAdd, ec::Xyzz<C>>(what, ops::PointAdd{}, px, q);
}

TEST(InlineArith, G1MixedAdd) {
  check_madd<ec::bn254::G1>(ec::bn254::g1_generator(), "bn254 G1 xyzz + affine");
  check_madd<ec::bls12_381::G1>(ec::bls12_381::g1_generator(), "bls12_381 G1 xyzz + affine");
}

}  // namespace
}  // namespace cuzk::test
