// The device's Montgomery multiplication (Fp's operator* on the GPU, the
// even/odd one of ff/detail/mont32_eo.hpp), run on the host through HostIsa:
// the same sequence of carry-chain operations the GPU runs, with the carry flag
// modelled, against the host multiplication (mont64), on random values and on
// edge values, for every field the device uses. Also checks that no chain ever
// drops a carry (the bound in the header).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/detail/mont32_eo.hpp"
#include "cuzk/ff/encode.hpp"

namespace cuzk::test {
namespace {

template <class F>
F eo_mul(const F& a, const F& b, ff::mont32eo::HostIsa& isa) {
  constexpr size_t n = 2 * F::N;
  uint32_t x[n], y[n], z[n];
  for (size_t i = 0; i < F::N; ++i) {
    x[2 * i] = (uint32_t)a.limb[i];
    x[2 * i + 1] = (uint32_t)(a.limb[i] >> 32);
    y[2 * i] = (uint32_t)b.limb[i];
    y[2 * i + 1] = (uint32_t)(b.limb[i] >> 32);
  }
  ff::mont32eo::mul<typename F::params, n>(isa, z, x, y);
  F r;
  for (size_t i = 0; i < F::N; ++i) r.limb[i] = ((uint64_t)z[2 * i + 1] << 32) | z[2 * i];
  return r;
}

// Raw values (Montgomery words as stored) near the edges: 0, 1, 2, p-1, p-2,
// 2^(32k) ± 1 below p, Montgomery one, and all-ones words below the top.
template <class F>
std::vector<F> edge_values() {
  std::vector<F> v;
  F z{};
  v.push_back(z);
  for (uint64_t k : {1ull, 2ull, 3ull}) {
    F e{};
    e.limb[0] = k;
    v.push_back(e);
  }
  for (uint64_t k : {1ull, 2ull, 0x100000000ull}) {
    F e;
    uint64_t borrow = k;
    for (size_t i = 0; i < F::N; ++i) {
      const uint64_t m = F::params::modulus(i);
      e.limb[i] = m - borrow;
      borrow = m < borrow ? 1 : 0;
    }
    v.push_back(e);
  }
  for (size_t w = 1; w < 2 * F::N - 1; ++w) {  // 2^(32w), 2^(32w) - 1
    F e{};
    e.limb[w / 2] = uint64_t(1) << (32 * (w % 2));
    v.push_back(e);
    F f{};
    for (size_t i = 0; i < w; ++i) f.limb[i / 2] |= uint64_t(0xffffffff) << (32 * (i % 2));
    v.push_back(f);
  }
  v.push_back(F::one());
  v.push_back(-F::one());
  v.push_back(F::r2());
  return v;
}

template <class F>
void check_field(uint64_t seed) {
  ff::mont32eo::HostIsa isa;
  const auto edges = edge_values<F>();
  for (const F& a : edges)
    for (const F& b : edges) ASSERT_EQ(eo_mul(a, b, isa), a * b);
  const size_t count = 200000;
  const auto xs = ff::random_elements<F>(count, seed), ys = ff::random_elements<F>(count, seed + 1);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(eo_mul(xs[i], ys[i], isa), xs[i] * ys[i]) << "i = " << i;
    ASSERT_EQ(eo_mul(xs[i], edges[i % edges.size()], isa), xs[i] * edges[i % edges.size()]) << "i = " << i;
  }
  // Products whose operands are themselves results (a chain, as in the NTT).
  F acc = xs[0];
  for (size_t i = 0; i < count; ++i) {
    const F want = acc * ys[i];
    ASSERT_EQ(eo_mul(acc, ys[i], isa), want);
    acc = want;
  }
  EXPECT_EQ(isa.dropped, 0u) << "a chain lost a carry";
}

TEST(Mont32EvenOdd, Bn254Fr) { check_field<ff::bn254::Fr>(11); }
TEST(Mont32EvenOdd, Bn254Fq) { check_field<ff::bn254::Fq>(12); }
TEST(Mont32EvenOdd, Bls12Fr) { check_field<ff::bls12_381::Fr>(13); }
TEST(Mont32EvenOdd, Bls12Fq) { check_field<ff::bls12_381::Fq>(14); }

}  // namespace
}  // namespace cuzk::test
