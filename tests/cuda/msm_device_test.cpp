// The device MSM against the host MSM (msm/pippenger_host.hpp), as points, on
// G1 and G2 of both curves: random inputs at sizes from 1 to 2^20 (2^22 on G1,
// and 2^26 by linearity), and the shapes that stress the bucket method's
// special paths (zeros skipped, ones summed apart, huge and skewed buckets, a
// bucket that holds every point, negated digits, infinity and repeats among
// the bases). Then the asynchronous
// interface: two MSMs on one stream waited in reverse order, scratch reused
// from the arena, an MSM dropped without waiting, no terms, the size limit.
// Then one classification shared by MSMs over ranges of the scalars, on G1
// and G2, as a proof's A, B1, B2 and C share the witness's, and the
// unclassified path that h takes.
//
// Replay a failure with CUZK_TEST_SEED=<the printed seed>.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/random_points.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/msm/pippenger_cuda.hpp"
#include "cuzk/msm/pippenger_host.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

template <class C_, size_t LargeN>
struct Group {
  using C = C_;
  static constexpr size_t large_n = LargeN;  // 0: no 2^20 cases (G2: the host side is slow)
};
using Groups = ::testing::Types<Group<ec::bn254::G1, size_t(1) << 20>, Group<ec::bn254::G2, 0>,
                                Group<ec::bls12_381::G1, size_t(1) << 20>, Group<ec::bls12_381::G2, 0>>;

constexpr size_t kShapeN = (size_t(1) << 16) + 3;  // not a power of two

template <class T>
struct DeviceMsm : ::testing::Test {
  using C = typename T::C;
  using Fr = typename C::Fr;
  using A = ec::Affine<C>;
  using J = ec::Jacobian<C>;

  std::mt19937_64 rng = test_rng();

  std::vector<A> points(size_t n) { return ec::random_points<C>(n, ec::generator<C>(), rng()); }
  std::vector<Fr> scalars(size_t n) { return ff::random_elements<Fr>(n, rng()); }
  size_t below(size_t m) { return std::uniform_int_distribution<size_t>(0, m - 1)(rng); }

  // ~45% zeros, ~45% ones, the rest full-width: a Filecoin-like witness.
  std::vector<Fr> witness_like(size_t n) {
    auto k = scalars(n);
    for (auto& x : k) {
      const size_t u = below(100);
      if (u < 45) x = Fr::zero();
      else if (u < 90) x = Fr::one();
    }
    return k;
  }

  static J host(const std::vector<A>& p, const std::vector<Fr>& k) { return msm::msm<C>(p, k, 0); }

  void expect_matches(const std::vector<A>& p, const std::vector<Fr>& k, const std::string& what) {
    const J want = host(p, k);
    const J got = msm::gpu::msm<C>(p, k);
    EXPECT_TRUE(got == want) << what << ", n = " << p.size();
    EXPECT_TRUE(got.on_curve()) << what << ", n = " << p.size();
  }
};
TYPED_TEST_SUITE(DeviceMsm, Groups);

TYPED_TEST(DeviceMsm, RandomInputsAtManySizes) {
  SEED_TRACE();
  std::vector<size_t> sizes{1, 2, 3, 1000, 4097, kShapeN};
  if (TypeParam::large_n) sizes.push_back(TypeParam::large_n);
  for (size_t n : sizes) this->expect_matches(this->points(n), this->scalars(n), "random");
}

TYPED_TEST(DeviceMsm, ScalarShapes) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  const size_t n = kShapeN;
  const auto p = this->points(n);

  {
    const std::vector<Fr> zeros(n, Fr::zero());
    const auto got = msm::gpu::msm<typename TestFixture::C>(p, zeros);
    EXPECT_TRUE(got.is_inf()) << "all zeros";
    this->expect_matches(p, zeros, "all zeros");
  }
  this->expect_matches(p, std::vector<Fr>(n, Fr::one()), "all ones");
  this->expect_matches(p, std::vector<Fr>(n, -Fr::one()), "all r-1");
  this->expect_matches(p, this->witness_like(n), "45% zeros, 45% ones, 10% full");

  std::vector<Fr> small(n);  // 15 buckets of ~4400 points each, in one window
  for (auto& x : small) x = Fr::from_uint(2 + this->below(15));
  this->expect_matches(p, small, "small scalars 2..16");

  std::vector<Fr> skewed(n);  // most points in the bucket of 2, a tail elsewhere
  for (auto& x : skewed) x = Fr::from_uint(this->below(10) < 9 ? 2 : 2 + this->below(1 << 12));
  this->expect_matches(p, skewed, "skewed small scalars");

  const Fr one_value = this->scalars(1)[0];
  this->expect_matches(p, std::vector<Fr>(n, one_value), "one full scalar repeated");
  this->expect_matches(p, std::vector<Fr>(n, Fr::from_uint(3)), "the scalar 3 repeated");

  std::vector<Fr> near_r(n);  // r-1, r-2, ...: every signed digit negative
  for (size_t i = 0; i < n; ++i) near_r[i] = -Fr::from_uint(1 + this->below(1000));
  this->expect_matches(p, near_r, "scalars just below r");

  std::vector<Fr> pow2(Fr::bits);  // one bit set: carries through the signed digits
  pow2[0] = Fr::one();
  for (size_t j = 1; j < pow2.size(); ++j) pow2[j] = pow2[j - 1].dbl();
  std::vector<Fr> bits(n);
  for (size_t i = 0; i < n; ++i) bits[i] = pow2[i % pow2.size()];
  this->expect_matches(p, bits, "powers of two");

  std::vector<Fr> all_ones_bits(n);  // 2^j - 1: long runs of set bits
  for (size_t i = 0; i < n; ++i) all_ones_bits[i] = pow2[1 + i % (pow2.size() - 1)] - Fr::one();
  this->expect_matches(p, all_ones_bits, "2^j - 1");
}

TYPED_TEST(DeviceMsm, BaseShapes) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  const size_t n = kShapeN;  // odd
  const auto p = this->points(n);
  const auto k = this->scalars(n);
  const std::vector<Fr> ones(n, Fr::one());
  const auto mixed = this->witness_like(n);

  std::vector<A> with_inf = p;
  for (size_t i = 0; i < n; i += 5) with_inf[i] = A::infinity();
  with_inf.back() = A::infinity();
  this->expect_matches(with_inf, k, "infinity among the bases, random scalars");
  this->expect_matches(with_inf, ones, "infinity among the bases, ones");
  this->expect_matches(with_inf, mixed, "infinity among the bases, witness-like scalars");
  {
    const std::vector<A> all_inf(n, A::infinity());
    EXPECT_TRUE(msm::gpu::msm<typename TestFixture::C>(all_inf, k).is_inf()) << "every base infinity";
  }

  const std::vector<A> same(n, p[0]);  // one point many times: doublings, not additions
  this->expect_matches(same, k, "one base repeated, random scalars");
  this->expect_matches(same, ones, "one base repeated, ones");
  this->expect_matches(same, mixed, "one base repeated, witness-like scalars");
  this->expect_matches(same, std::vector<Fr>(n, Fr::from_uint(7)), "one base repeated, one scalar");

  std::vector<A> few(n);  // 3 distinct points over and over
  for (size_t i = 0; i < n; ++i) few[i] = p[i % 3];
  this->expect_matches(few, mixed, "three bases repeated");

  std::vector<A> pm = p;  // P, -P, P', -P', ...
  for (size_t i = 1; i < n; i += 2) pm[i] = -pm[i - 1];
  this->expect_matches(pm, k, "P and -P, random scalars");
  this->expect_matches(pm, ones, "P and -P, ones");
  this->expect_matches(pm, std::vector<Fr>(n, k[0]), "P and -P, one scalar");
  {
    std::vector<A> even(pm.begin(), pm.end() - 1);  // every pair cancels
    const std::vector<Fr> s(even.size(), k[1]);
    EXPECT_TRUE(msm::gpu::msm<typename TestFixture::C>(even, s).is_inf()) << "pairs that cancel";
    const std::vector<Fr> o(even.size(), Fr::one());
    EXPECT_TRUE(msm::gpu::msm<typename TestFixture::C>(even, o).is_inf()) << "pairs that cancel, ones";
  }
  std::vector<A> pm_same(n);  // P and -P of one point, alternately
  for (size_t i = 0; i < n; ++i) pm_same[i] = i % 2 ? -p[0] : p[0];
  this->expect_matches(pm_same, ones, "P and -P of one point, ones");
  this->expect_matches(pm_same, mixed, "P and -P of one point, witness-like scalars");
}

TYPED_TEST(DeviceMsm, TinyInputs) {
  SEED_TRACE();
  using C = typename TestFixture::C;
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  using J = typename TestFixture::J;
  const auto p = this->points(2);
  const Fr full = this->scalars(1)[0];
  for (const Fr& s : {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_uint(2), full})
    this->expect_matches({p[0]}, {s}, "one term, scalar " + ff::to_decimal(s));
  EXPECT_TRUE(msm::gpu::msm<C>(std::vector<A>{p[0]}, std::vector<Fr>{Fr::one()}) == J::from(p[0]));
  EXPECT_TRUE(msm::gpu::msm<C>(std::vector<A>{A::infinity()}, std::vector<Fr>{full}).is_inf());
  EXPECT_TRUE(msm::gpu::msm<C>(std::vector<A>{p[0], -p[0]}, std::vector<Fr>{Fr::one(), Fr::one()}).is_inf());
  EXPECT_TRUE(msm::gpu::msm<C>(std::vector<A>{p[0], p[0]}, std::vector<Fr>{Fr::one(), Fr::one()}) ==
              J::from(p[0]).dbl());
  this->expect_matches({p[0], p[1]}, {full, -full}, "two terms, k and -k");
}

// Witness-shaped and one-bucket inputs at 2^20 (G1 only).
TYPED_TEST(DeviceMsm, LargeSkewedInputs) {
  if (!TypeParam::large_n) GTEST_SKIP() << "G1 only";
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  const size_t n = TypeParam::large_n + 1;
  const auto p = this->points(n);
  this->expect_matches(p, this->witness_like(n), "witness-like scalars");
  this->expect_matches(p, std::vector<Fr>(n, this->scalars(1)[0]), "one full scalar repeated");
  std::vector<Fr> small(n);
  for (auto& x : small) x = Fr::from_uint(2 + this->below(15));
  this->expect_matches(p, small, "small scalars 2..16");
}

// Level-0 grids of many waves: at 2^22 random terms BLS12-381 G1 runs its
// 3-blocks-per-SM level-0 kernel (the 2^20 cases above run the 4-block one).
// Bases repeat every 2^16, as in cuzk bench msm.
TYPED_TEST(DeviceMsm, ManyWaveGridMatchesHost) {
  if (!TypeParam::large_n) GTEST_SKIP() << "G1 only";
  SEED_TRACE();
  using A = typename TestFixture::A;
  const size_t n = size_t(1) << 22;
  const auto distinct = this->points(size_t(1) << 16);
  std::vector<A> p(n);
  for (size_t i = 0; i < n; ++i) p[i] = distinct[i % distinct.size()];
  this->expect_matches(p, this->scalars(n), "random");
}

// One chunk of 2^26 random terms with a 21-bit window (G1), too large for the
// host oracle: checked by linearity, msm(k) + msm(k') = msm(k + k'), on bases
// that repeat every 2^16.
TYPED_TEST(DeviceMsm, TwoTo26TermsAreLinear) {
  if (!TypeParam::large_n) GTEST_SKIP() << "G1 only";
  SEED_TRACE();
  using C = typename TestFixture::C;
  using Fr = typename TestFixture::Fr;
  using A = typename TestFixture::A;
  const size_t n = size_t(1) << 26;
  ASSERT_EQ(msm::gpu::window_bits(n), 21u);
  const auto distinct = this->points(size_t(1) << 16);
  const cuda::Stream stream;
  cuda::Arena arena;
  cuda::DeviceBuffer<A> bases(n);
  for (size_t off = 0; off < n; off += distinct.size())
    CUZK_CUDA_CHECK(cudaMemcpyAsync(bases.data() + off, distinct.data(), distinct.size() * sizeof(A),
                                    cudaMemcpyHostToDevice, stream));
  const auto k1 = this->scalars(n), k2 = this->scalars(n);
  std::vector<Fr> k3(n);
  for (size_t i = 0; i < n; ++i) k3[i] = k1[i] + k2[i];
  cuda::DeviceBuffer<Fr> scalars(n);
  const auto run = [&](const std::vector<Fr>& k) {
    scalars.upload(std::span<const Fr>(k), stream);
    return msm::gpu::Msm<C>::enqueue(bases.data(), scalars.data(), n, stream, arena).wait();
  };
  const auto a = run(k1), b = run(k2), c = run(k3);
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a.add(b) == c);
  EXPECT_TRUE(c.on_curve());
}

// Device inputs for Msm::enqueue.
template <class C>
struct OnDevice {
  cuda::DeviceBuffer<ec::Affine<C>> bases;
  cuda::DeviceBuffer<typename C::Fr> scalars;
  OnDevice(const std::vector<ec::Affine<C>>& p, const std::vector<typename C::Fr>& k, cudaStream_t s)
      : bases(p.size()), scalars(k.size()) {
    bases.upload(std::span<const ec::Affine<C>>(p), s);
    scalars.upload(std::span<const typename C::Fr>(k), s);
  }
};

// Two MSMs enqueued on one stream, the second while the first is unwaited
// (its enqueue waits for the stream up to its own classification, so the
// first has run by then), waited in reverse order: each returns its own sum.
TYPED_TEST(DeviceMsm, TwoOnOneStreamWaitedInReverse) {
  SEED_TRACE();
  using C = typename TestFixture::C;
  const cuda::Stream stream;
  cuda::Arena arena;
  const auto p1 = this->points(4097), p2 = this->points(kShapeN);
  const auto k1 = this->scalars(4097), k2 = this->witness_like(kShapeN);
  const OnDevice<C> d1(p1, k1, stream), d2(p2, k2, stream);
  auto m1 = msm::gpu::Msm<C>::enqueue(d1.bases.data(), d1.scalars.data(), p1.size(), stream, arena);
  auto m2 = msm::gpu::Msm<C>::enqueue(d2.bases.data(), d2.scalars.data(), p2.size(), stream, arena);
  const auto r2 = m2.wait();
  const auto r1 = m1.wait();
  EXPECT_TRUE(r1 == TestFixture::host(p1, k1)) << "first MSM";
  EXPECT_TRUE(r2 == TestFixture::host(p2, k2)) << "second MSM";
}

// Inputs split into chunks (as MSMs over 2^25 significant terms, or on a card
// short of memory, are): the window sums of the chunks must add up, including
// a short last chunk; chunks of 1000 split the witness-like scalars' ~1200
// significant ones too.
TYPED_TEST(DeviceMsm, ChunkedMatchesHost) {
  SEED_TRACE();
  using C = typename TestFixture::C;
  const cuda::Stream stream;
  cuda::Arena arena;
  const size_t n = 3 * 4096 + 5;
  const auto p = this->points(n);
  for (const auto& k : {this->scalars(n), this->witness_like(n)}) {
    const OnDevice<C> d(p, k, stream);
    for (size_t max_chunk : {size_t(1000), size_t(4096), size_t(5000)}) {
      SCOPED_TRACE("chunks of at most " + std::to_string(max_chunk));
      auto job = msm::gpu::Msm<C>::enqueue(d.bases.data(), d.scalars.data(), n, stream, arena, max_chunk);
      EXPECT_TRUE(job.wait() == TestFixture::host(p, k));
    }
  }
}

TYPED_TEST(DeviceMsm, ArenaIsReusedOnARepeat) {
  SEED_TRACE();
  using C = typename TestFixture::C;
  const cuda::Stream stream;
  cuda::Arena arena;
  const auto p = this->points(kShapeN);
  const auto k = this->witness_like(kShapeN);
  const auto want = TestFixture::host(p, k);
  const OnDevice<C> d(p, k, stream);

  EXPECT_TRUE(msm::gpu::Msm<C>::enqueue(d.bases.data(), d.scalars.data(), p.size(), stream, arena).wait() == want);
  const auto first = arena.counters();
  EXPECT_GT(first.allocations, 0u) << "the MSM took no scratch from the arena";
  EXPECT_TRUE(msm::gpu::Msm<C>::enqueue(d.bases.data(), d.scalars.data(), p.size(), stream, arena).wait() == want);
  const auto second = arena.counters();
  EXPECT_GT(second.reuses, first.reuses);
  EXPECT_EQ(second.allocations, first.allocations) << "the same MSM again allocated more";

  // An MSM destroyed without wait() still returns its scratch, and the next
  // one on the stream is unharmed.
  { auto dropped = msm::gpu::Msm<C>::enqueue(d.bases.data(), d.scalars.data(), p.size(), stream, arena); }
  const auto third = arena.counters();
  EXPECT_GT(third.reuses, second.reuses);
  EXPECT_TRUE(msm::gpu::Msm<C>::enqueue(d.bases.data(), d.scalars.data(), p.size(), stream, arena).wait() == want);
  EXPECT_EQ(arena.counters().allocations, first.allocations);
}

// No terms (the point at infinity, no select run) and a single significant
// scalar among 2^16 + 3 zeros and ones (one digit per window, one thread).
TYPED_TEST(DeviceMsm, NoTermsAndOneSignificantScalar) {
  SEED_TRACE();
  using C = typename TestFixture::C;
  using Fr = typename TestFixture::Fr;
  const cuda::Stream stream;
  cuda::Arena arena;
  EXPECT_TRUE(msm::gpu::Msm<C>::enqueue(nullptr, nullptr, 0, stream, arena).wait().is_inf()) << "n = 0";

  const auto p = this->points(kShapeN);
  std::vector<Fr> k(kShapeN);
  for (auto& x : k) x = this->below(2) ? Fr::one() : Fr::zero();
  k[this->below(kShapeN)] = this->scalars(1)[0];
  this->expect_matches(p, k, "one significant scalar among zeros and ones");
}

TYPED_TEST(DeviceMsm, RefusesTwoTo31Terms) {
  using C = typename TestFixture::C;
  const cuda::Stream stream;
  cuda::Arena arena;
  EXPECT_THROW(msm::gpu::Msm<C>::enqueue(nullptr, nullptr, size_t(1) << 31, stream, arena), std::invalid_argument);
}

// One classification of a witness w for the MSMs of a proof, enqueued one
// after another with no wait between them: A over all of w (G1, and G2 as B2),
// C over w past a public prefix (its bases start there), and C again as a
// streamed key runs it, one MSM per chunk of bases. Each against the host MSM
// of its slice, with the bucket method's chunks left whole and cut at 1000;
// and C over the unclassified scalars (Classified::all, h's path). Witnesses of
// every shape: mostly 0/1 with significant publics, all zeros, all ones, only
// zeros and ones, none 0 or 1, and a lone significant scalar or one at either
// side of C's start.
template <class E>
struct SharedClassification : ::testing::Test {
  std::mt19937_64 rng = test_rng();
  size_t below(size_t m) { return std::uniform_int_distribution<size_t>(0, m - 1)(rng); }
};
using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;
TYPED_TEST_SUITE(SharedClassification, Curves);

template <class C>
ec::Jacobian<C> host_from(const std::vector<ec::Affine<C>>& p, const std::vector<typename C::Fr>& k, size_t begin) {
  return msm::msm<C>(std::span(p).subspan(0, k.size() - begin), std::span(k).subspan(begin), 0);
}

TYPED_TEST(SharedClassification, WitnessMsmsMatchHost) {
  SEED_TRACE();
  using Fr = typename TypeParam::Fr;
  using G1 = typename TypeParam::G1;
  using G2 = typename TypeParam::G2;
  const size_t n = 3 * 4096 + 5, c_begin = 8, chunk = 4096;  // 7 publics
  auto& rng = this->rng;
  const auto p1 = ec::random_points<G1>(n, ec::generator<G1>(), rng());
  const auto p2 = ec::random_points<G2>(n, ec::generator<G2>(), rng());
  const cuda::Stream stream;
  cuda::Arena arena;
  cuda::DeviceBuffer<ec::Affine<G1>> d1(n);
  cuda::DeviceBuffer<ec::Affine<G2>> d2(n);
  d1.upload(std::span<const ec::Affine<G1>>(p1), stream);
  d2.upload(std::span<const ec::Affine<G2>>(p2), stream);
  // The bounds prove_start names: C's start and a streamed key's chunks.
  std::vector<size_t> bounds{c_begin};
  for (size_t from : {size_t(0), c_begin})
    for (size_t b = from + chunk; b < n; b += chunk) bounds.push_back(b);

  const auto bits = [&] {
    std::vector<Fr> k(n);
    for (auto& x : k) x = this->below(2) ? Fr::one() : Fr::zero();
    return k;
  };
  std::vector<std::pair<std::string, std::vector<Fr>>> witnesses;
  {
    auto k = ff::random_elements<Fr>(n, rng());
    for (size_t i = c_begin; i < n; ++i)
      if (const size_t u = this->below(100); u < 87) k[i] = u < 45 ? Fr::zero() : Fr::one();
    k[0] = Fr::one();
    witnesses.emplace_back("87% zeros and ones, significant publics", std::move(k));
  }
  witnesses.emplace_back("all zeros", std::vector<Fr>(n, Fr::zero()));
  witnesses.emplace_back("all ones", std::vector<Fr>(n, Fr::one()));
  witnesses.emplace_back("zeros and ones only", bits());
  witnesses.emplace_back("no zeros or ones", ff::random_elements<Fr>(n, rng()));
  for (size_t at : {c_begin - 1, c_begin, n - 1}) {
    auto k = bits();
    k[at] = ff::random_elements<Fr>(1, rng())[0];
    witnesses.emplace_back("one significant scalar at " + std::to_string(at), std::move(k));
  }

  for (const auto& [name, k] : witnesses) {
    SCOPED_TRACE(name);
    cuda::DeviceBuffer<Fr> dk(n);
    dk.upload(std::span<const Fr>(k), stream);
    const auto want_a = host_from(p1, k, 0), want_c = host_from(p1, k, c_begin);
    const auto want_b2 = host_from(p2, k, 0);
    for (size_t max_chunk : {size_t(0), size_t(1000)}) {
      SCOPED_TRACE("chunks of at most " + std::to_string(max_chunk));
      std::optional<msm::gpu::Msm<G1>> a, c, c_all;
      std::optional<msm::gpu::Msm<G2>> b2;
      std::vector<msm::gpu::Msm<G1>> c_parts;
      {
        const msm::gpu::Classified<Fr> w(dk.data(), n, bounds, stream, arena);
        EXPECT_THROW(w.range(1, n), std::invalid_argument) << "1 is no bound";
        a.emplace(msm::gpu::Msm<G1>::enqueue(d1.data(), w, 0, n, stream, arena, max_chunk));
        b2.emplace(msm::gpu::Msm<G2>::enqueue(d2.data(), w, 0, n, stream, arena, max_chunk));
        c.emplace(msm::gpu::Msm<G1>::enqueue(d1.data(), w, c_begin, n, stream, arena, max_chunk));
        for (size_t b = c_begin; b < n; b += chunk)
          c_parts.push_back(msm::gpu::Msm<G1>::enqueue(d1.data() + (b - c_begin), w, b, std::min(n, b + chunk),
                                                        stream, arena, max_chunk));
      }
      c_all.emplace(msm::gpu::Msm<G1>::enqueue(d1.data(), msm::gpu::Classified<Fr>::all(dk.data(), n), c_begin, n,
                                                stream, arena, max_chunk));
      EXPECT_TRUE(a->wait() == want_a) << "A";
      EXPECT_TRUE(b2->wait() == want_b2) << "B2";
      EXPECT_TRUE(c->wait() == want_c) << "C";
      auto sum = ec::Jacobian<G1>::infinity();
      for (auto& part : c_parts) sum = sum.add(part.wait());
      EXPECT_TRUE(sum == want_c) << "C in chunks of bases";
      EXPECT_TRUE(c_all->wait() == want_c) << "C, unclassified";
    }
  }
}

TYPED_TEST(SharedClassification, BoundsAreChecked) {
  using Fr = typename TypeParam::Fr;
  const cuda::Stream stream;
  cuda::Arena arena;
  const std::vector<Fr> k(10, Fr::one());
  cuda::DeviceBuffer<Fr> dk(k.size());
  dk.upload(std::span<const Fr>(k), stream);
  const std::vector<size_t> past{11}, some{4};
  EXPECT_THROW(msm::gpu::Classified<Fr>(dk.data(), 10, past, stream, arena), std::invalid_argument);
  const msm::gpu::Classified<Fr> w(dk.data(), 10, some, stream, arena);
  const auto r = w.range(4, 10);
  EXPECT_EQ(r.significant_begin, r.significant_end);
  EXPECT_EQ(r.ones_end - r.ones_begin, 6u);
  EXPECT_THROW(w.range(10, 4), std::invalid_argument);
  EXPECT_THROW(w.range(0, 11), std::invalid_argument);
  EXPECT_THROW(w.range(3, 10), std::invalid_argument);
  const auto all = msm::gpu::Classified<Fr>::all(dk.data(), 10);
  const auto ra = all.range(3, 7);
  EXPECT_EQ(ra.significant_end - ra.significant_begin, 4u);
  EXPECT_EQ(ra.ones_begin, ra.ones_end);
  EXPECT_THROW(all.range(3, 11), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::test
