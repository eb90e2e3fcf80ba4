// The eight-lane IFMA field arithmetic (mont52x8.hpp) against the 64-bit
// Montgomery arithmetic of Fp (itself checked against GMP in fp_gmp_test), on
// both base fields and both scalar fields: products, sums and differences of random and edge values
// (0, 1, p - 1, R mod p), and long chains of them, whose intermediate values
// lie anywhere in [0, 2p) (the lazy range), stored and compared lane by lane.
// Skipped on a CPU without AVX-512 IFMA, where nothing calls this code.
#include <gtest/gtest.h>

#include "seed.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/detail/mont52x8.hpp"

#if CUZK_HAVE_MONT52X8

namespace {

using namespace cuzk::ff;
namespace v8 = cuzk::ff::mont52x8;

template <class F>
F random_element(std::mt19937_64& rng) {
  for (;;) {
    uint64_t w[F::N];
    for (auto& x : w) x = rng();
    w[F::N - 1] >>= 64 * F::N - F::bits;
    F f;
    if (F::from_canonical(w, f)) return f;
  }
}

template <class F>
std::vector<F> edge_and_random(std::mt19937_64& rng, size_t count) {
  uint64_t pm1[F::N];
  for (size_t i = 0; i < F::N; ++i) pm1[i] = F::params::modulus(i);
  pm1[0] -= 1;
  F raw_r{};  // the word 1: R^-1 as a field element, the smallest non-zero word
  raw_r.limb[0] = 1;
  F top{};  // the word p - 1: the largest
  for (size_t i = 0; i < F::N; ++i) top.limb[i] = pm1[i];
  std::vector<F> v = {F::zero(), F::one(), F::zero() - F::one(), raw_r, top, F::r2()};
  while (v.size() < count) v.push_back(random_element<F>(rng));
  return v;
}

// The vector work happens inside functions compiled for IFMA; the tests
// (compiled for any x86-64) call them only once have_ifma() said yes.
#define CUZK_TEST_IFMA [[gnu::noinline, gnu::target("avx512f,avx512ifma")]]

template <class F>
CUZK_TEST_IFMA void pair_ops8(const F* a, const F* b, F* prod, F* sum, F* diff) {
  using P = typename F::params;
  const uint64_t *pa[8], *pb[8];
  uint64_t *pp[8], *ps[8], *pd[8];
  for (int l = 0; l < 8; ++l)
    pa[l] = a[l].limb, pb[l] = b[l].limb, pp[l] = prod[l].limb, ps[l] = sum[l].limb, pd[l] = diff[l].limb;
  const auto va = v8::load<P>(pa), vb = v8::load<P>(pb);
  v8::store<P>(pp, v8::mul(va, vb));
  v8::store<P>(ps, v8::add(va, vb));
  v8::store<P>(pd, v8::sub(va, vb));
}

// The chain of the scalar loop below, op by op, without a store in between.
template <class F>
CUZK_TEST_IFMA void chain8(F* x, F* y, const unsigned* ops, int steps) {
  using P = typename F::params;
  uint64_t *px[8], *py[8];
  for (int l = 0; l < 8; ++l) px[l] = x[l].limb, py[l] = y[l].limb;
  auto vx = v8::load<P>(px), vy = v8::load<P>(py);
  for (int s = 0; s < steps; ++s) switch (ops[s]) {
      case 0: vx = v8::mul(vx, vy); break;
      case 1: vx = v8::add(vx, vy); break;
      case 2: vx = v8::sub(vx, vy); break;
      default: vy = v8::sub(v8::mul(vx, vx), vy); break;
    }
  v8::store<P>(px, vx);
  v8::store<P>(py, vy);
}

template <class F>
class Mont52x8 : public ::testing::Test {};
// The base fields (G1, G2) and the scalar fields (NTT); BLS12-381's Fr has
// 4r > 2^256, so it keeps its values below r rather than 2r.
using Fields = ::testing::Types<bn254::Fq, bls12_381::Fq, bn254::Fr, bls12_381::Fr>;
TYPED_TEST_SUITE(Mont52x8, Fields);

// Every pair of 64 values (edges first), eight pairs at a time.
TYPED_TEST(Mont52x8, ProductSumDifferenceOfEveryPair) {
  using F = TypeParam;
  if (!v8::have_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  SEED_TRACE();
  auto rng = cuzk::test::test_rng();
  const auto v = edge_and_random<F>(rng, 64);
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j0 = 0; j0 < v.size(); j0 += 8) {
      F a[8], b[8], prod[8], sum[8], diff[8];
      for (int l = 0; l < 8; ++l) a[l] = v[i], b[l] = v[j0 + l];
      pair_ops8(a, b, prod, sum, diff);
      for (int l = 0; l < 8; ++l) {
        ASSERT_EQ(prod[l], a[l] * b[l]) << i << "," << j0 + l;
        ASSERT_EQ(sum[l], a[l] + b[l]) << i << "," << j0 + l;
        ASSERT_EQ(diff[l], a[l] - b[l]) << i << "," << j0 + l;
      }
    }
}

// Chains of 64 dependent operations from eight different starts: the values
// between the steps stay unreduced in [0, 2p), so every bound of the lazy
// representation is crossed.
TYPED_TEST(Mont52x8, LongChainsMatchTheScalarField) {
  using F = TypeParam;
  if (!v8::have_ifma()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  SEED_TRACE();
  auto rng = cuzk::test::test_rng();
  for (int round = 0; round < 50; ++round) {
    F x[8], y[8];
    const auto pool = edge_and_random<F>(rng, 16);
    for (int l = 0; l < 8; ++l) x[l] = pool[rng() % pool.size()], y[l] = pool[rng() % pool.size()];
    F gx[8], gy[8];
    std::copy(x, x + 8, gx);
    std::copy(y, y + 8, gy);
    unsigned ops[64];
    for (auto& op : ops) op = (unsigned)(rng() % 4);
    chain8(gx, gy, ops, 64);
    for (unsigned op : ops)
      for (int l = 0; l < 8; ++l) {
        switch (op) {
          case 0: x[l] = x[l] * y[l]; break;
          case 1: x[l] = x[l] + y[l]; break;
          case 2: x[l] = x[l] - y[l]; break;
          default: y[l] = x[l].sqr() - y[l]; break;
        }
      }
    for (int l = 0; l < 8; ++l) {
      ASSERT_EQ(gx[l], x[l]) << "round " << round << " lane " << l;
      ASSERT_EQ(gy[l], y[l]) << "round " << round << " lane " << l;
    }
  }
}

}  // namespace

#endif
