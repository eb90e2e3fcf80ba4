// Every device field operation against the host, bit for bit, on 2^20 random
// inputs per field, with 0, 1 and p-1 mixed in.
// Multiplication is compiled out of line here (see mont32_eo.hpp): the same code,
// a fraction of the compile time; inline_arith_test.cu covers the inlined form.
#define CUZK_DEVICE_MUL_NOINLINE
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "device_compare.cuh"

namespace cuzk::test {
namespace {

// Random elements with 0, 1 and -1 planted every 4096 entries.
template <class F>
std::vector<F> random_with_edges(size_t n, uint64_t seed) {
  auto v = ff::random_elements<F>(n, seed);
  for (size_t i = 0; i + 2 < n; i += 4096) {
    v[i] = F::zero();
    v[i + 1] = F::one();
    v[i + 2] = -F::one();
  }
  return v;
}

template <class F>
struct DeviceField : testing::Test {};

using Fields = testing::Types<ff::bn254::Fq, ff::bn254::Fr, ff::bn254::Fq2, ff::bls12_381::Fq,
                              ff::bls12_381::Fr, ff::bls12_381::Fq2>;
TYPED_TEST_SUITE(DeviceField, Fields);

TYPED_TEST(DeviceField, MatchesHost) {
  using F = TypeParam;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = test_size();
  const auto a = random_with_edges<F>(n, seed), b = random_with_edges<F>(n, seed + 1);
  expect_device_matches_host<ops::Add, F>("add", ops::Add{}, a, b);
  expect_device_matches_host<ops::Sub, F>("sub", ops::Sub{}, a, b);
  expect_device_matches_host<ops::Mul, F>("mul", ops::Mul{}, a, b);
  expect_device_matches_host<ops::Sqr, F>("sqr", ops::Sqr{}, a);
  expect_device_matches_host<ops::Neg, F>("neg", ops::Neg{}, a);
  expect_device_matches_host<ops::Dbl, F>("dbl", ops::Dbl{}, a);
  expect_device_matches_host<ops::Inverse, F>("inverse", ops::Inverse{}, a);
}

}  // namespace
}  // namespace cuzk::test
