// The engine with GPU workers, and what it relies on: proofs of many jobs and
// partitions over two keys come back verified and in their places; a bad
// partition fails alone; shutdown drains with every pinned buffer back; the
// pool stops allocating once warm; the trace has the GPU tracks; keys are
// uploaded once per GPU, cached LRU and streamed when they do not fit; a, b, c
// computed on the GPU, and a streamed key, give the CPU's MSM results exactly.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/tamper.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/cuda_backend.hpp"
#include "cuzk/engine/device_key_cache.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "../io/io_test_support.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey.hpp"
#include "proving_support.hpp"

namespace cuzk::engine {
namespace {

namespace gpu = groth16::gpu;
using E = ec::Bn254;
using Fr = E::Fr;
using Chain = circuit::HashChain<E>;
using Part = circuit::Partition<E>;

using test::cpu_pending;
using test::dev_key;
using test::expect_same_pending;
using test::expect_verified;
using test::submit_all;
using test::synthesis_source;

CudaBackendOptions on_gpu0(unsigned workers, bool abc_on_gpu = false) {
  CudaBackendOptions o;
  o.gpus = {0};
  o.workers_per_gpu = workers;
  o.abc_on_gpu = abc_on_gpu;
  return o;
}

class GpuEngine : public testing::TestWithParam<bool> {};  // a/b/c on the GPU?

TEST_P(GpuEngine, ManyJobsOverTwoKeysComeBackVerifiedInPlace) {
  const bool abc_on_gpu = GetParam();
  Recorder recorder(false);
  Engine<E> engine({3, size_t(256) << 20}, recorder, cuda_backend<E>(on_gpu0(2, abc_on_gpu)));
  EXPECT_STREQ(engine.memory_name(), "pinned");
  EXPECT_EQ(engine.backend().abc_on_gpu(), abc_on_gpu);
  test::check_jobs_over_two_keys(engine, 1 << 12, 4, 5);

  const auto spans = recorder.spans();
  std::map<Stage, size_t> count;
  std::set<std::string> tracks;
  for (const Span& s : spans) {
    ++count[s.stage];
    tracks.insert(track_name(s.track));
    if (is_kernel_stage(s.stage) || s.stage == Stage::upload) {
      EXPECT_EQ(s.track.gpu, 0) << stage_name(s.stage);
    }
    if (s.stage == Stage::upload) {
      EXPECT_EQ(s.track.kind, Track::Kind::copy);
      EXPECT_GT(s.bytes, 0u);
    }
  }
  for (Stage s : {Stage::synthesis, Stage::upload, Stage::ntt, Stage::msm_a, Stage::msm_b1, Stage::msm_b2,
                  Stage::msm_c, Stage::msm_h, Stage::lock_wait, Stage::lock_held, Stage::finish, Stage::verify})
    EXPECT_EQ(count[s], 20u) << stage_name(s);
  EXPECT_EQ(count[Stage::abc], abc_on_gpu ? 20u : 0u);
  EXPECT_EQ(count[Stage::key_upload], 2u) << "each key once on the GPU";
  for (const char* t : {"GPU 0 worker 0", "GPU 0 worker 1", "GPU 0 copy 0", "GPU 0 copy 1", "finalizer 0"})
    EXPECT_TRUE(tracks.count(t)) << t;
  // Each partition's kernels ran inside its lock-held span (GPU event times
  // against the host clock: a millisecond of slack).
  std::map<std::pair<uint32_t, uint32_t>, double> kernels, held;
  for (const Span& s : spans) {
    if (is_kernel_stage(s.stage)) kernels[{s.job, s.partition}] += s.end - s.start;
    if (s.stage == Stage::lock_held) held[{s.job, s.partition}] += s.end - s.start;
  }
  ASSERT_EQ(kernels.size(), 20u);
  for (const auto& [id, k] : kernels) {
    EXPECT_GT(k, 0.0);
    EXPECT_LE(k, held[id] + 1e-3) << "job " << id.first << " partition " << id.second;
  }
  const Summary sum = summarize(spans);
  EXPECT_GT(sum.gpu_busy, 0.0);
  EXPECT_GT(sum.upload_gbps, 0.0);
  EXPECT_EQ(engine.pool_counters().bytes_leased, 0u);
}

INSTANTIATE_TEST_SUITE_P(AbcOnHostAndGpu, GpuEngine, testing::Bool());

TEST(GpuEngine, ABadPartitionFailsAlone) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cuda_backend<E>(on_gpu0(2)));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 6; ++p) {
    if (p == 1)  // caught by synthesis
      parts.push_back(
          synthesis_source<E>([] { return circuit::Tampered<Chain>{Chain::for_constraints(1 << 10, 7), 10}; }));
    else if (p == 3)  // not caught before the GPU: a witness that satisfies nothing
      parts.push_back([](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
        for (auto* v : {&w, &a, &b, &c})
          for (size_t i = 0; i < v->size(); ++i) (*v)[i] = Fr::from_uint(i + 3);
      });
    else
      parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p); }));
  }
  const auto results = submit_all(engine, chain, std::move(parts)).get();
  for (uint32_t p = 0; p < 6; ++p) {
    if (p == 1) {
      EXPECT_FALSE(results[p].proof);
      EXPECT_EQ(results[p].error.rfind("synthesis: ", 0), 0u) << results[p].error;
    } else if (p == 3) {
      EXPECT_FALSE(results[p].proof);
      EXPECT_EQ(results[p].error.rfind("finish: the proof does not verify", 0), 0u) << results[p].error;
    } else {
      expect_verified(*chain, results[p]);
    }
  }
}

TEST(GpuEngine, ShutdownDrainsAndPoolStopsAllocatingOnceWarm) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 12, 0));
  Recorder recorder(false);
  auto engine = std::make_unique<Engine<E>>(EngineOptions{2, size_t(6) << 20}, recorder, cuda_backend<E>(on_gpu0(2)));
  auto run = [&](uint64_t first, size_t n) {
    std::vector<Synthesize<E>> parts;
    for (uint64_t p = 0; p < n; ++p)
      parts.push_back(
          synthesis_source<E>([p, first] { return Chain::for_constraints(1 << 12, first + p); }));
    return submit_all(*engine, chain, std::move(parts));
  };
  for (const auto& r : run(0, 8).get()) expect_verified(*chain, r);
  const auto warm = engine->pool_counters();
  EXPECT_GT(warm.allocations, 0u);
  for (const auto& r : run(100, 8).get()) expect_verified(*chain, r);
  EXPECT_EQ(engine->pool_counters().allocations, warm.allocations) << "steady state allocated pinned buffers";

  auto last = run(200, 40);
  engine->shutdown();
  ASSERT_EQ(last.wait_for(std::chrono::seconds(120)), std::future_status::ready);
  size_t proved = 0, cancelled = 0;
  for (const auto& r : last.get()) {
    if (r.proof) {
      ++proved;
      expect_verified(*chain, r);
    } else {
      ++cancelled;
      EXPECT_EQ(r.error.rfind("cancelled", 0), 0u) << r.error;
    }
  }
  EXPECT_EQ(proved + cancelled, 40u);
  EXPECT_EQ(engine->pool_counters().bytes_leased, 0u);
  engine.reset();
}

// ---------------------------------------------------------------------------
// Keys on the GPU: residency, streaming, the cache, a/b/c from the rows.

using Inputs = circuit::Assignment<Fr>;

TEST(DeviceKeys, AbcFromRowsAndStreamedKeysGiveTheCpuResults) {
  for (uint64_t constraints : {uint64_t(1) << 10, (uint64_t(1) << 16) + 5}) {
    SCOPED_TRACE(constraints);
    const auto part = dev_key<E>(Part::for_constraints(constraints, 1));
    const Inputs in = circuit::synthesize_assignment(Part::for_constraints(constraints, 2));
    const auto want = cpu_pending(*part, in);
    const std::span<const Fr> w(in.w), a(in.a), b(in.b), c(in.c), none;
    // Chunks that do not divide the MSM lengths, so the last is short.
    using O = gpu::DeviceKeyOptions;
    for (const O o : {O{false, 0, true}, O{true, 1000, true}, O{true, 4093, false}}) {
      SCOPED_TRACE(o.streamed ? "streamed" : "resident");
      SCOPED_TRACE(o.matrices ? "with rows" : "without rows");
      const gpu::DeviceKey<E> key(part, 0, o);
      EXPECT_EQ(key.streamed(), o.streamed);
      EXPECT_EQ(key.bytes() < gpu::DeviceKey<E>::bytes_needed(*part, {}), o.streamed);
      gpu::Worker worker(0);
      if (o.matrices) {
        auto pending = gpu::prove_start<E>(key, worker, w, none, none, none);  // a, b, c on the GPU
        StageTimes t;
        expect_same_pending<E>(pending.wait(&t), want);
        EXPECT_GT(t[Stage::abc], 0.0);
      } else {
        EXPECT_THROW(gpu::upload_inputs<E>(key, worker, w, none, none, none), std::invalid_argument);
      }
      auto pending = gpu::prove_start<E>(key, worker, w, a, b, c);
      expect_same_pending<E>(pending.wait(), want);
    }
  }
}

// A .zkey read in place: its points view the file mapping, so a streamed key
// streams a pinned copy of them; resident or streamed, with a/b/c from the host
// or from the rows, the MSM results are the CPU's.
TEST(DeviceKeys, AZkeyStreamedFromItsFileMappingGivesTheCpuResults) {
  const io::Zkey zkey = io::Zkey::open(test::fixture("bn128", "multiplier", "circuit.zkey"));
  ASSERT_TRUE(zkey.as<E>().points_in_file_mapping);
  const auto shared = groth16::PreparedKey<E>::make(zkey.share<E>());
  const auto& key = *shared;
  const auto& values = io::read_wtns(test::fixture("bn128", "multiplier", "witness.wtns")).as<E>();
  const size_t rows = key.key().domain_size();
  std::vector<Fr> w(values.begin(), values.end()), a(rows), b(rows), c(rows);
  key.evaluate_abc(w, std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  std::vector<Fr> ca = a, cb = b, cc = c;
  const auto want = groth16::prove_start(key, std::span<const Fr>(w), std::span<Fr>(ca), std::span<Fr>(cb),
                                         std::span<Fr>(cc));
  const std::span<const Fr> none;
  using O = gpu::DeviceKeyOptions;
  for (const O o : {O{false, 0, true}, O{true, 3, true}, O{true, 2, false}}) {
    SCOPED_TRACE(o.streamed ? "streamed" : "resident");
    const gpu::DeviceKey<E> dk(shared, 0, o);
    gpu::Worker worker(0);
    auto pending = o.matrices ? gpu::prove_start<E>(dk, worker, std::span<const Fr>(w), none, none, none)
                              : gpu::prove_start<E>(dk, worker, std::span<const Fr>(w), std::span<const Fr>(a),
                                                    std::span<const Fr>(b), std::span<const Fr>(c));
    expect_same_pending<E>(pending.wait(), want);
  }
}

TEST(DeviceKeys, CacheUploadsOnceEvictsLeastRecentlyUsedAndStreamsWhatDoesNotFit) {
  const auto k1 = dev_key<E>(Chain::for_constraints(1 << 12, 0)), k2 = dev_key<E>(Chain::for_constraints(1 << 12, 1));
  const size_t one = gpu::DeviceKey<E>::bytes_needed(*k1, {});
  // Room for one resident key and a little more.
  DeviceKeyCache<E> cache(0, one + one / 2, {});
  bool uploaded = false;
  auto a = cache.acquire(k1, &uploaded);
  EXPECT_TRUE(uploaded);
  EXPECT_EQ(cache.acquire(k1, &uploaded), a);
  EXPECT_FALSE(uploaded);
  a.reset();
  auto b = cache.acquire(k2, &uploaded);  // k1 is unused: evicted
  EXPECT_TRUE(uploaded);
  EXPECT_FALSE(b->streamed());
  EXPECT_EQ(cache.counters().evictions, 1u);
  // k2 is in use, so k1 cannot be resident beside it: streamed.
  auto c = cache.acquire(k1, &uploaded);
  EXPECT_TRUE(uploaded);
  EXPECT_TRUE(c->streamed());
  EXPECT_EQ(cache.counters().uploads, 3u);
  EXPECT_EQ(cache.counters().hits, 1u);
  EXPECT_EQ(cache.counters().streamed, 1u);
  EXPECT_LE(cache.counters().bytes, cache.budget());

  // The streamed key proves like the resident one.
  const Inputs in = circuit::synthesize_assignment(Chain::for_constraints(1 << 12, 5));
  gpu::Worker worker(0);
  auto pending = gpu::prove_start<E>(*c, worker, std::span<const Fr>(in.w), std::span<const Fr>(in.a),
                                     std::span<const Fr>(in.b), std::span<const Fr>(in.c));
  expect_same_pending<E>(pending.wait(), cpu_pending(*k1, in));

  // A budget below even the streamed form is a one-line error.
  DeviceKeyCache<E> tiny(0, 1024, {});
  EXPECT_THROW(tiny.acquire(k1), cuda::Error);
}

// The caches of both curves on one GPU share its budget and one LRU order: a
// BLS12-381 key evicts the unused BN254 key it does not fit beside, and the
// BN254 cache, whose key is then in use, streams instead of overcommitting.
TEST(DeviceKeys, CachesOfBothCurvesShareOneBudget) {
  using B = ec::Bls12_381;
  const auto bn = dev_key<E>(Chain::for_constraints(1 << 12, 0));
  const auto bls = dev_key<B>(circuit::HashChain<B>::for_constraints(1 << 12, 0));
  const size_t bn_bytes = gpu::DeviceKey<E>::bytes_needed(*bn, {}), bls_bytes = gpu::DeviceKey<B>::bytes_needed(*bls, {});
  // Room for the larger key and a little, not for both.
  const auto budget = std::make_shared<DeviceKeyBudget>(std::max(bn_bytes, bls_bytes) + std::min(bn_bytes, bls_bytes) / 2);
  DeviceKeyCache<E> bn_cache(0, budget, {});
  DeviceKeyCache<B> bls_cache(0, budget, {});
  EXPECT_EQ(bls_cache.budget(), budget->bytes());
  bn_cache.acquire(bn);  // and let go
  auto held = bls_cache.acquire(bls);
  EXPECT_FALSE(held->streamed());
  EXPECT_EQ(bn_cache.counters().evictions, 1u) << "the other curve's unused key made room";
  EXPECT_EQ(bn_cache.counters().bytes, 0u);
  auto streamed = bn_cache.acquire(bn);
  EXPECT_TRUE(streamed->streamed()) << "the BLS12-381 key is in use: no room beside it";
  EXPECT_LE(bn_cache.counters().bytes + bls_cache.counters().bytes, budget->bytes());
}

// Forgetting a key a worker is proving with: the worker's copy stays valid and
// counted until it lets go, the cache never hands it out again, and the
// cache's copies keep a key alive after every other owner has dropped it.
TEST(DeviceKeys, CacheForgetsKeysInUseSafely) {
  auto k1 = dev_key<E>(Chain::for_constraints(1 << 12, 0));
  const std::weak_ptr<const groth16::PreparedKey<E>> k1_alive = k1;
  DeviceKeyCache<E> cache(0, size_t(1) << 30, {});
  auto held = cache.acquire(k1);
  const size_t bytes = held->bytes();
  cache.forget(*k1);
  EXPECT_EQ(cache.counters().bytes, bytes) << "still held by a worker";
  bool uploaded = false;
  auto again = cache.acquire(k1, &uploaded);
  EXPECT_TRUE(uploaded) << "a forgotten copy is not handed out again";
  EXPECT_NE(again, held);
  EXPECT_EQ(cache.counters().bytes, 2 * bytes);

  // The worker's copy still proves, after the caller's handle is gone.
  const Inputs in = circuit::synthesize_assignment(Chain::for_constraints(1 << 12, 5));
  const auto want = cpu_pending(*k1, in);
  k1.reset();
  EXPECT_FALSE(k1_alive.expired()) << "the device copies hold the key";
  gpu::Worker worker(0);
  auto pending = gpu::prove_start<E>(*held, worker, std::span<const Fr>(in.w), std::span<const Fr>(in.a),
                                     std::span<const Fr>(in.b), std::span<const Fr>(in.c));
  expect_same_pending<E>(pending.wait(), want);
  held.reset();
  EXPECT_EQ(cache.counters().bytes, bytes) << "freed once its last user let go";
  cache.forget(again->prepared());
  again.reset();
  EXPECT_EQ(cache.counters().bytes, 0u);
  EXPECT_TRUE(k1_alive.expired());
}

}  // namespace
}  // namespace cuzk::engine
