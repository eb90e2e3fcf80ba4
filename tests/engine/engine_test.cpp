// The pipeline with CPU workers: many partitions of several jobs (two keys at
// once) come back verified and in their places; lent partitions prove as
// synthesized ones and are handed back; a bad partition fails alone;
// shutdown drains with every buffer back; the pool stops allocating once warm;
// the recorder sees every stage on the expected tracks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <stop_token>
#include <thread>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/tamper.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "proving_support.hpp"

namespace cuzk::engine {
namespace {

using E = ec::Bn254;
using Fr = E::Fr;

using test::dev_key;
using test::expect_verified;
using test::submit_all;
using test::synthesis_source;

using Chain = circuit::HashChain<E>;

TEST(Engine, ManyJobsAndPartitionsComeBackVerifiedInPlace) {
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cpu_backend<E>(2, 1));
  test::check_jobs_over_two_keys(engine, 1 << 10, 3, 5);

  // Every stage of every partition was recorded, on CPU tracks.
  const auto spans = recorder.spans();
  std::map<Stage, size_t> count;
  for (const Span& s : spans) ++count[s.stage];
  for (Stage s : {Stage::synthesis, Stage::ntt, Stage::msm_a, Stage::msm_b1, Stage::msm_b2, Stage::msm_c, Stage::msm_h,
                  Stage::finish, Stage::verify})
    EXPECT_EQ(count[s], 15u) << stage_name(s);
  const auto trace = nlohmann::json::parse(chrome_trace(spans).dump());
  std::set<std::string> tracks;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M") tracks.insert(e["args"]["name"].get<std::string>());
  EXPECT_TRUE(tracks.count("finalizer 0"));
  EXPECT_TRUE(tracks.count("CPU worker 0") || tracks.count("CPU worker 1"));
  EXPECT_TRUE(tracks.count("synthesis 0") || tracks.count("synthesis 1"));
  EXPECT_EQ(engine.pool_counters().bytes_leased, 0u);
}

// A job holds its key: the caller may drop its handle as soon as it has
// submitted, and the engine lets the key go when the job's results are ready.
TEST(Engine, AJobHoldsItsKeyUntilItsResultsAreReady) {
  auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  const std::weak_ptr<const groth16::PreparedKey<E>> alive = chain;
  const auto vk = chain->vk();
  Recorder recorder(false);
  Engine<E> engine({1, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 3; ++p)
    parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p + 1); }));
  auto future = submit_all(engine, std::move(chain), std::move(parts));
  const auto results = future.get();
  for (const auto& r : results) {
    ASSERT_TRUE(r.proof) << r.error;
    EXPECT_TRUE(groth16::verify<E>(vk, r.publics, *r.proof));
  }
  EXPECT_TRUE(alive.expired()) << "the engine still holds the key of a finished job";
  EXPECT_THROW(submit_all(engine, nullptr, {}), std::invalid_argument);
}

// Partitions lent from their caller's memory (Lent): w in two pieces and a,
// b, c of the rows that are not zero, copied once for the CPU prover and
// handed back before the partition is reported, prove what the synthesized
// partition proves, and so does w lent alone (a, b, c evaluated from the
// key's rows, service::Assignment); lent pieces of the wrong shape fail
// alone, with their line, and are handed back too.
TEST(Engine, LentPartitionsAreReadInPlaceAndHandedBack) {
  // Fewer constraints than the domain holds, so that a, b and c end in zeros.
  constexpr uint64_t kConstraints = (1 << 10) - 100;
  const auto chain = dev_key<E>(Chain::for_constraints(kConstraints, 0));
  const auto in = circuit::synthesize_assignment(Chain::for_constraints(kConstraints, 4));
  size_t rows = in.a.size();
  while (rows > 0 && in.a[rows - 1].is_zero() && in.b[rows - 1].is_zero() && in.c[rows - 1].is_zero()) --rows;
  ASSERT_LT(rows, in.a.size());
  std::atomic<int> handed_back{0};
  const auto lent = [&](size_t w_values, bool with_abc) {
    return Synthesize<E>::lending([&, w_values, with_abc] {
      Lent<E> l;
      const std::span<const Fr> w = std::span<const Fr>(in.w).first(w_values);
      l.inputs.w = {{w.first(3), "input"}, {w.subspan(3), "private"}};
      if (with_abc)
        l.inputs.a.values = std::span<const Fr>(in.a).first(rows), l.inputs.b.values = std::span<const Fr>(in.b).first(rows),
        l.inputs.c.values = std::span<const Fr>(in.c).first(rows);
      l.hold = std::shared_ptr<const void>(&handed_back, [&](const void*) { ++handed_back; });
      return l;
    });
  };
  Recorder recorder(false);
  Engine<E> engine({1, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts;
  parts.push_back(lent(in.w.size(), true));
  parts.push_back(lent(in.w.size(), false));
  parts.push_back(lent(in.w.size() - 1, true));
  parts.push_back(synthesis_source<E>([] { return Chain::for_constraints(kConstraints, 4); }));
  const auto rs = groth16::Randomness<Fr>::draw();
  const auto results = submit_all(engine, chain, std::move(parts), {}, {}, {rs, rs, rs, rs}).get();
  EXPECT_EQ(handed_back.load(), 3);
  expect_verified(*chain, results[0]);
  ASSERT_TRUE(results[3].proof) << results[3].error;
  EXPECT_TRUE(*results[0].proof == *results[3].proof) << "lent and synthesized, the same r and s";
  ASSERT_TRUE(results[1].proof) << results[1].error;
  EXPECT_TRUE(*results[1].proof == *results[3].proof) << "w lent alone and synthesized, the same r and s";
  EXPECT_NE(results[2].error.find("the witness has"), std::string::npos) << results[2].error;
  EXPECT_EQ(engine.pool_counters().bytes_leased, 0u);
}

TEST(Engine, ABadPartitionFailsAlone) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 6; ++p) {
    if (p == 2)  // a witness generator bug: one wrong value, caught by synthesis
      parts.push_back(
          synthesis_source<E>([] { return circuit::Tampered<Chain>{Chain::for_constraints(1 << 10, 7), 10}; }));
    else if (p == 4)  // a source that throws
      parts.push_back([](auto, auto, auto, auto) { throw std::runtime_error("witness file unreadable"); });
    else
      parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p); }));
  }
  const auto results = submit_all(engine, chain, std::move(parts)).get();
  ASSERT_EQ(results.size(), 6u);
  for (uint32_t p = 0; p < 6; ++p) {
    if (p == 2 || p == 4) {
      EXPECT_FALSE(results[p].proof);
      EXPECT_EQ(results[p].error.rfind("synthesis: ", 0), 0u) << results[p].error;
    } else {
      expect_verified(*chain, results[p]);
    }
  }
  EXPECT_NE(results[4].error.find("witness file unreadable"), std::string::npos);
}

// Whatever a source throws, and host memory running out, fail one partition;
// the engine and the other partitions go on.
TEST(Engine, AnythingASourceThrowsFailsItsPartitionAlone) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 5; ++p) {
    if (p == 1) parts.push_back([](auto, auto, auto, auto) { throw 42; });
    else if (p == 3) parts.push_back([](auto, auto, auto, auto) { throw std::bad_alloc(); });
    else parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p + 1); }));
  }
  const auto results = submit_all(engine, chain, std::move(parts)).get();
  for (uint32_t p : {0u, 2u, 4u}) expect_verified(*chain, results[p]);
  EXPECT_FALSE(results[1].proof);
  EXPECT_EQ(results[1].error, "synthesis: an exception that is not a std::exception");
  EXPECT_FALSE(results[3].proof);
  EXPECT_EQ(results[3].error, "synthesis: out of host memory");
  EXPECT_EQ(engine.pool_counters().bytes_leased, 0u);
}

// Host memory that cannot be had fails the partitions that asked for it.
TEST(Engine, HostMemoryThatRunsOutFailsPartitionsNotTheProcess) {
  struct Exhausted final : HostMemory {
    void* allocate(size_t) override { throw std::bad_alloc(); }
    void release(void*, size_t) override {}
    const char* name() const override { return "exhausted"; }
  };
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1), std::make_unique<Exhausted>());
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 3; ++p)
    parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p + 1); }));
  for (const auto& r : submit_all(engine, chain, std::move(parts)).get()) {
    EXPECT_FALSE(r.proof);
    EXPECT_EQ(r.error, "synthesis: out of host memory");
  }
}

// Cancelling a job ends it at once, the partition being synthesized included
// (its source polls the job's token, as a long one should); its other
// partitions are never synthesized, and the engine goes on.
TEST(Engine, CancellingAJobStopsItsPartitionsEvenOneBeingSynthesized) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({1, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::stop_source stop;
  std::promise<void> started;
  std::atomic<int> synthesized{0};
  std::vector<Synthesize<E>> parts;
  parts.push_back([&started, token = stop.get_token()](auto, auto, auto, auto) {
    started.set_value();
    while (!token.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    throw std::runtime_error("interrupted");
  });
  for (uint64_t p = 1; p < 5; ++p)
    parts.push_back([&synthesized, p](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
      ++synthesized;
      circuit::synthesize_witness(Chain::for_constraints(1 << 10, p), w, a, b, c);
    });
  auto future = submit_all(engine, chain, std::move(parts), {stop.get_token()});
  started.get_future().wait();
  stop.request_stop();
  for (const auto& r : future.get()) {
    EXPECT_FALSE(r.proof);
    EXPECT_EQ(r.error.rfind("cancelled: the job was cancelled", 0), 0u) << r.error;
  }
  EXPECT_EQ(synthesized, 0);
  EXPECT_EQ(engine.pool_counters().bytes_leased, 0u);

  std::vector<Synthesize<E>> next;
  next.push_back(synthesis_source<E>([] { return Chain::for_constraints(1 << 10, 9); }));
  expect_verified(*chain, submit_all(engine, chain, std::move(next)).get()[0]);
}

// A job past its deadline fails its partitions without work, and what a stage
// finishes after the deadline is dropped.
TEST(Engine, AJobPastItsDeadlineFailsItsPartitions) {
  using namespace std::chrono_literals;
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  Engine<E> engine({1, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::atomic<int> synthesized{0};
  const auto counted = [&synthesized](uint64_t seed) -> Synthesize<E> {
    return [&synthesized, seed](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
      ++synthesized;
      circuit::synthesize_witness(Chain::for_constraints(1 << 10, seed), w, a, b, c);
    };
  };
  std::vector<Synthesize<E>> late;
  for (uint64_t p = 0; p < 3; ++p) late.push_back(counted(p + 1));
  for (const auto& r : submit_all(engine, chain, std::move(late), {{}, std::chrono::steady_clock::now()}).get())
    EXPECT_EQ(r.error.rfind("deadline exceeded", 0), 0u) << r.error;
  EXPECT_EQ(synthesized, 0);

  // The deadline passes while partition 0 is synthesized.
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  std::vector<Synthesize<E>> slow;
  slow.push_back([deadline, inner = counted(4)](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    std::this_thread::sleep_until(deadline + 50ms);
    inner(w, a, b, c);
  });
  const auto results = submit_all(engine, chain, std::move(slow), {{}, deadline}).get();
  EXPECT_FALSE(results[0].proof);
  EXPECT_EQ(results[0].error.rfind("deadline exceeded", 0), 0u) << results[0].error;
  EXPECT_EQ(synthesized, 1);
}

// Several finalizers share the finishing; each is a track of its own.
TEST(Engine, SeveralFinalizersFinishEveryPartition) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  EXPECT_THROW(Engine<E>(EngineOptions{1, size_t(64) << 20, 0}, recorder, cpu_backend<E>(1, 1)),
               std::invalid_argument);
  Engine<E> engine({2, size_t(64) << 20, 3}, recorder, cpu_backend<E>(2, 1));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 8; ++p)
    parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 10, p + 1); }));
  for (const auto& r : submit_all(engine, chain, std::move(parts)).get()) expect_verified(*chain, r);
  std::set<int> finalizers;
  for (const Span& s : recorder.spans())
    if (s.track.kind == Track::Kind::finalizer) finalizers.insert(s.track.index);
  ASSERT_FALSE(finalizers.empty());
  EXPECT_GE(*finalizers.begin(), 0);
  EXPECT_LT(*finalizers.rbegin(), 3);
}

TEST(Engine, ShutdownDrainsAndReturnsEveryBuffer) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 12, 0));
  Recorder recorder(false);
  auto engine = std::make_unique<Engine<E>>(EngineOptions{1, size_t(8) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts;
  for (uint64_t p = 0; p < 40; ++p)
    parts.push_back(synthesis_source<E>([p] { return Chain::for_constraints(1 << 12, p); }));
  auto future = submit_all(*engine, chain, std::move(parts));
  engine->shutdown();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(120)), std::future_status::ready);
  const auto results = future.get();
  size_t proved = 0, cancelled = 0;
  for (const auto& r : results) {
    if (r.proof) {
      ++proved;
      expect_verified(*chain, r);
    } else {
      EXPECT_EQ(r.error.rfind("cancelled", 0), 0u) << r.error;
      ++cancelled;
    }
  }
  EXPECT_EQ(proved + cancelled, 40u);
  EXPECT_GT(cancelled, 0u);
  EXPECT_EQ(engine->pool_counters().bytes_leased, 0u);
  EXPECT_THROW(submit_all(*engine, chain, {}), std::logic_error);
  engine.reset();  // joins with nothing left
}

TEST(Engine, PoolStopsAllocatingOnceWarm) {
  const auto chain = dev_key<E>(Chain::for_constraints(1 << 10, 0));
  Recorder recorder(false);
  // Room for four 1 MiB buffers (a partition of this key needs about 140 KB).
  // Synthesis is some fifty times faster than a proof, so it runs ahead until
  // all four are in use, and from then on every buffer is a reused one. (On a
  // loaded machine one job may not get that far: warm until it has.)
  Engine<E> engine({2, size_t(4) << 20}, recorder, cpu_backend<E>(2, 1));
  auto run = [&](uint64_t first) {
    std::vector<Synthesize<E>> parts;
    for (uint64_t p = 0; p < 8; ++p)
      parts.push_back(synthesis_source<E>([p, first] { return Chain::for_constraints(1 << 10, first + p); }));
    for (const auto& r : submit_all(engine, chain, std::move(parts)).get()) expect_verified(*chain, r);
  };
  for (uint64_t job = 0; job < 20 && engine.pool_counters().allocations < 4; ++job) run(1000 * job);
  const auto warm = engine.pool_counters();
  ASSERT_EQ(warm.allocations, 4u) << "the pool never held its budget's four buffers";
  EXPECT_GT(warm.waits, 0u) << "synthesis should have waited for the budget";
  run(100);
  run(200);
  const auto after = engine.pool_counters();
  EXPECT_EQ(after.allocations, warm.allocations) << "steady state allocated host buffers";
  EXPECT_EQ(after.reuses, warm.reuses + 16);
  EXPECT_EQ(after.bytes_leased, 0u);
}

TEST(Engine, RefusesNoThreads) {
  Recorder recorder(false);
  EXPECT_THROW(Engine<E>({0, 1 << 20}, recorder, cpu_backend<E>(1, 1)), std::invalid_argument);
  EXPECT_THROW(Engine<E>({1, 1 << 20}, recorder, cpu_backend<E>(0, 1)), std::invalid_argument);
  EXPECT_THROW(Engine<E>({1, 1 << 20}, recorder, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::engine
