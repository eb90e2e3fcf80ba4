// Every device field and curve operation against the host, bit for bit, on
// 2^20 random inputs (CUZK_GPU_TEST_N overrides), with the edge cases mixed in:
// 0, 1 and p-1 for fields; P+P, P+(-P) and infinity on either side for curves.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuzk/arith_ops.hpp"
#include "cuzk/cuda/map.cuh"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "noble.hpp"
#include "parallel.hpp"
#include "random_points.hpp"

namespace cuzk::test {
namespace {

size_t test_size() {
  if (const char* s = std::getenv("CUZK_GPU_TEST_N")) return std::strtoull(s, nullptr, 10);
  return size_t(1) << 20;
}

// Runs op on the device over the inputs, and on the host, and compares bytes.
template <class Op, class Out, class... In>
void expect_device_matches_host(const char* what, Op op, const std::vector<In>&... in) {
  const size_t n = std::get<0>(std::forward_as_tuple(in...)).size();
  std::vector<Out> host(n), dev(n);
  parallel_for(n, [&](size_t i) { host[i] = op(in[i]...); });

  cuda::DeviceBuffer<Out> d_out(n);
  auto upload = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    cuda::DeviceBuffer<T> b(v.size());
    b.upload(std::span<const T>(v));
    return b;
  };
  auto bufs = std::make_tuple(upload(in)...);
  std::apply([&](auto&... b) { cuda::launch_map(nullptr, d_out.data(), n, op, b.data()...); }, bufs);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  d_out.download(std::span<Out>(dev));

  size_t mismatches = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (std::memcmp(&host[i], &dev[i], sizeof(Out)) != 0) {
      if (!mismatches) first = i;
      ++mismatches;
    }
  EXPECT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << n << " differ, first at index " << first;
}

// ---------------------------------------------------------------- fields

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

// ---------------------------------------------------------------- curves

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

  auto p = random_points<C>(n, g, seed), q = random_points<C>(n, g, seed + 1);
  // Projective inputs with non-trivial Z: P + R for another random R.
  std::vector<A> shift = random_points<C>(n, g, seed + 2);
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
