// Every device field operation against the host, bit for bit, on 2^20 random
// inputs per field, with 0, 1 and p-1 mixed in.
// Multiplication is compiled out of line here (see mont32.cuh): the same code,
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

template <class F>
F edge_or_random(size_t i, std::mt19937_64& rng) {
  switch (i % 4096) {
    case 0: return F::zero();
    case 1: return F::one();
    case 2: return -F::one();
    default: return ff::random_element<F>(rng);
  }
}

template <class F>
std::vector<F> random_field_vector(size_t n, uint64_t seed) {
  std::vector<F> v(n);
  parallel_chunks(n, [&](size_t b, size_t e, size_t chunk) {
    std::mt19937_64 rng(seed + 7919 * chunk);
    for (size_t i = b; i < e; ++i) v[i] = edge_or_random<F>(i, rng);
  });
  return v;
}

template <class F>
struct DeviceField : testing::Test {};

using Fields = testing::Types<ff::bn254::Fq, ff::bn254::Fr, ff::bn254::Fq2, ff::bls12_381::Fq,
                              ff::bls12_381::Fr, ff::bls12_381::Fq2>;
TYPED_TEST_SUITE(DeviceField, Fields);

template <class F>
std::vector<F> random_elements(size_t n, uint64_t seed) {
  if constexpr (requires { typename F::Base; }) {
    auto a = random_field_vector<typename F::Base>(n, seed), b = random_field_vector<typename F::Base>(n, seed + 1);
    std::vector<F> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = F{a[i], b[(i * 7) % n]};
    return v;
  } else {
    return random_field_vector<F>(n, seed);
  }
}

TYPED_TEST(DeviceField, MatchesHost) {
  using F = TypeParam;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = test_size();
  const auto a = random_elements<F>(n, seed), b = random_elements<F>(n, seed ^ 0x9e3779b97f4a7c15ull);
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
