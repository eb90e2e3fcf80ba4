// The device NTTs against the host ones (poly/ntt.hpp), bit for bit, on both
// curves' Fr: every log size from 1 to 24, then 25 and 26, each on fresh random
// input, and on bellman's roots and coset (BLS12-381) up to 2^20; and the
// quotient's pointwise step against a host loop.
//
// Per size the host computes y = ntt(x) and z = coset_ntt(x, g) for random x
// (g = the domain's coset shift). Both are bijections of x, so y and z are
// uniformly random too, and every device result has an exact host value:
//   ntt(x) = y (in place, and with a scratch),  intt(y) = x,
//   coset_ntt(x) = z,  coset_intt(z) = x,
//   coset_evaluations(y) = coset_ntt(intt(y)) = z.
// That is two host transforms a size instead of six, which keeps 2^26 cheap.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"
#include "cuzk/poly/ntt_cuda.hpp"
#include "device_test_util.hpp"
#include "scalar_fields.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {


template <class T>
struct DeviceNtt : ::testing::Test {};
TYPED_TEST_SUITE(DeviceNtt, ScalarFields, ScalarFieldNames);

// block_bits: the pass blocks' size (0: this GPU's choice, ntt_block.hpp).
template <class Fr>
void check_log_size(unsigned k, uint64_t seed, const cuda::Stream& stream,
                    poly::Roots roots = poly::Roots::snarkjs, unsigned block_bits = 0) {
  SCOPED_TRACE("log size " + std::to_string(k) + ", blocks of 2^" + std::to_string(block_bits) + " points");
  const poly::Domain<Fr> host(k, roots);
  const poly::gpu::DeviceDomain<Fr> dev(host, block_bits);
  if (block_bits) {
    ASSERT_EQ(dev.block_bits(), block_bits);
  }
  ASSERT_EQ(dev.log_size(), k);
  ASSERT_EQ(dev.size(), host.size());
  const size_t n = host.size();
  const Fr g = host.coset_shift();

  const std::vector<Fr> x = ff::random_elements<Fr>(n, seed);
  std::vector<Fr> y = x, z = x;
  poly::ntt(host, std::span<Fr>(y), 0);
  poly::coset_ntt(host, std::span<Fr>(z), g, 0);
  if (k <= 16) {  // the identities above, on the host
    std::vector<Fr> back = y;
    poly::intt(host, std::span<Fr>(back), 0);
    ASSERT_TRUE(same_values(back, x)) << "host intt(ntt(x)) != x";
  }

  cuda::DeviceBuffer<Fr> buf(n), scratch(n);
  const auto run = [&](const std::vector<Fr>& in, auto op) {
    return through_device(buf, in, stream, [&](Fr* d, cudaStream_t s) { op(dev, d, s); });
  };
  using Domain = poly::gpu::DeviceDomain<Fr>;
  EXPECT_TRUE(same_values(run(x, [](const Domain& dd, Fr* d, cudaStream_t s) { poly::gpu::ntt(dd, d, s); }), y))
      << "ntt";
  EXPECT_TRUE(same_values(
      run(x, [&](const Domain& dd, Fr* d, cudaStream_t s) { poly::gpu::ntt(dd, d, s, scratch.data()); }), y))
      << "ntt with a scratch";
  EXPECT_TRUE(same_values(run(y, &poly::gpu::intt<Fr>), x)) << "intt";
  EXPECT_TRUE(same_values(run(x, &poly::gpu::coset_ntt<Fr>), z)) << "coset_ntt";
  EXPECT_TRUE(same_values(run(z, &poly::gpu::coset_intt<Fr>), x)) << "coset_intt";
  EXPECT_TRUE(same_values(run(y, &poly::gpu::coset_evaluations<Fr>), z)) << "coset_evaluations";
}

TYPED_TEST(DeviceNtt, EveryLogSizeFrom1To24) {
  SEED_TRACE();
  auto rng = test_rng();
  const cuda::Stream stream;
  for (unsigned k = 1; k <= 24; ++k) check_log_size<typename TypeParam::Fr>(k, rng(), stream);
}

TYPED_TEST(DeviceNtt, LogSizes25And26) {
  SEED_TRACE();
  auto rng = test_rng();
  const cuda::Stream stream;
  for (unsigned k : {25u, 26u}) check_log_size<typename TypeParam::Fr>(k, rng(), stream);
}

// What GPUs with less shared memory per SM run (ntt_block.hpp): blocks of
// 2^9 points (RTX 30/40/50, L4, T4), and of 2^8 and 2^2 to cover every batch
// width of the passes' layouts, at sizes of one, two and three passes.
TYPED_TEST(DeviceNtt, SmallerBlocksOfOtherGpus) {
  SEED_TRACE();
  auto rng = test_rng();
  const cuda::Stream stream;
  for (unsigned bits : {9u, 8u, 2u})
    for (unsigned k : {3u, 9u, 10u, 11u, 13u, 17u, 20u, 22u, 23u})
      check_log_size<typename TypeParam::Fr>(k, rng(), stream, poly::Roots::snarkjs, bits);
}

// bellman's ω = 7^((r-1)/n) and coset 7·⟨ω⟩, which the tables follow from
// the host domain.
TEST(DeviceNttBellman, EveryLogSizeFrom1To20) {
  SEED_TRACE();
  auto rng = test_rng();
  const cuda::Stream stream;
  for (unsigned k = 1; k <= 20; ++k) check_log_size<ff::bls12_381::Fr>(k, rng(), stream, poly::Roots::bellman);
}

// Two domains alive at once, their transforms interleaved on one stream and
// chained on the device without a host round trip in between.
TYPED_TEST(DeviceNtt, DomainsInterleaveOnOneStream) {
  SEED_TRACE();
  using Fr = typename TypeParam::Fr;
  auto rng = test_rng();
  const cuda::Stream stream;
  const poly::Domain<Fr> h10(10), h13(13);
  const poly::gpu::DeviceDomain<Fr> d10(h10), d13(h13);
  const auto x10 = ff::random_elements<Fr>(h10.size(), rng()), x13 = ff::random_elements<Fr>(h13.size(), rng());
  cuda::DeviceBuffer<Fr> b10(h10.size()), b13(h13.size());
  b10.upload(std::span<const Fr>(x10), stream);
  b13.upload(std::span<const Fr>(x13), stream);
  poly::gpu::ntt(d10, b10.data(), stream);
  poly::gpu::intt(d13, b13.data(), stream);
  poly::gpu::coset_ntt(d13, b13.data(), stream);
  poly::gpu::intt(d10, b10.data(), stream);
  std::vector<Fr> got10(h10.size()), got13(h13.size());
  b10.download(std::span<Fr>(got10), stream);
  b13.download(std::span<Fr>(got13), stream);

  std::vector<Fr> want13 = x13;
  poly::intt(h13, std::span<Fr>(want13), 0);
  poly::coset_ntt(h13, std::span<Fr>(want13), h13.coset_shift(), 0);
  EXPECT_TRUE(same_values(got10, x10)) << "intt(ntt(x)) on 2^10";
  EXPECT_TRUE(same_values(got13, want13)) << "coset_ntt(intt(x)) on 2^13";
}

// h[i] = (a[i]·b[i] − c[i])·factor in a, for factor 1 (snarkjs's) and a
// random one (bellman's 1/Z(g)); b and c untouched. 0, 1 and −1 planted.
TYPED_TEST(DeviceNtt, QuotientPointwiseMatchesHostLoop) {
  SEED_TRACE();
  using Fr = typename TypeParam::Fr;
  auto rng = test_rng();
  const cuda::Stream stream;
  for (size_t n : {size_t(1), size_t(2), size_t(1000), size_t(1) << 16, (size_t(1) << 22) + 7}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto a = ff::random_elements<Fr>(n, rng()), b = ff::random_elements<Fr>(n, rng()),
         c = ff::random_elements<Fr>(n, rng());
    const Fr edge[] = {Fr::zero(), Fr::one(), -Fr::one()};
    for (size_t i = 0; i < n; i += 97) {
      a[i] = edge[(i / 97) % 3];
      b[i] = edge[(i / 291) % 3];
      c[i] = edge[(i / 873) % 3];
    }
    for (const Fr factor : {Fr::one(), ff::random_elements<Fr>(1, rng())[0]}) {
      SCOPED_TRACE(factor == Fr::one() ? "factor 1" : "random factor");
      std::vector<Fr> want(n);
      for (size_t i = 0; i < n; ++i) want[i] = (a[i] * b[i] - c[i]) * factor;

      cuda::DeviceBuffer<Fr> da(n), db(n), dc(n);
      da.upload(std::span<const Fr>(a), stream);
      db.upload(std::span<const Fr>(b), stream);
      dc.upload(std::span<const Fr>(c), stream);
      poly::gpu::quotient_pointwise<Fr>(da.data(), db.data(), dc.data(), n, stream, factor);
      std::vector<Fr> got(n), b_after(n), c_after(n);
      da.download(std::span<Fr>(got), stream);
      db.download(std::span<Fr>(b_after), stream);
      dc.download(std::span<Fr>(c_after), stream);
      EXPECT_TRUE(same_values(got, want)) << "h";
      EXPECT_TRUE(same_values(b_after, b)) << "b changed";
      EXPECT_TRUE(same_values(c_after, c)) << "c changed";
    }
  }
}

}  // namespace
}  // namespace cuzk::test
