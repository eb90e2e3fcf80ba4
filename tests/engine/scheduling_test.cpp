// What a long-running service needs of the engine beyond proving: priority
// order, per-partition stage times and outcomes, cancelled work reported at
// once, one pool shared by two engines, and a device that faults taken out of
// rotation with its partition proved elsewhere.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/engine/engine.hpp"
#include "proving_support.hpp"

namespace cuzk::engine {
namespace {

using E = ec::Bn254;
using Fr = E::Fr;
using Chain = circuit::HashChain<E>;
using test::dev_key;
using test::expect_verified;
using test::submit_all;
using test::synthesis_source;

constexpr uint64_t kSize = 1 << 8;

// The key of the chain of kSize constraints that the tests prove against.
groth16::SharedKey<E> chain_key() { return dev_key<E>(Chain::for_constraints(kSize, 0)); }

// `count` partitions synthesizing that chain with seeds first, first + 1, ...
std::vector<Synthesize<E>> chain_parts(uint64_t first, uint64_t count) {
  std::vector<Synthesize<E>> parts;
  for (uint64_t s = first; s < first + count; ++s)
    parts.push_back(synthesis_source<E>([s] { return Chain::for_constraints(kSize, s); }));
  return parts;
}

// A source that records the order in which synthesis reached it.
Synthesize<E> ordered_source(std::mutex& mu, std::vector<int>& order, int tag, uint64_t seed) {
  return [&mu, &order, tag, seed](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
    {
      std::lock_guard lock(mu);
      order.push_back(tag);
    }
    circuit::synthesize_witness(Chain::for_constraints(kSize, seed), w, a, b, c);
  };
}

// A job of one partition whose synthesis waits for release(): with one
// synthesis thread, the jobs submitted meanwhile stay queued.
struct BlockingJob {
  BlockingJob(Engine<E>& engine, const groth16::SharedKey<E>& key) {
    std::shared_future<void> released = release_.get_future().share();
    std::vector<Synthesize<E>> parts;
    parts.push_back([this, released](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
      started_.set_value();
      released.wait();
      circuit::synthesize_witness(Chain::for_constraints(kSize, 1), w, a, b, c);
    });
    future = submit_all(engine, key, std::move(parts));
    started_.get_future().wait();
  }
  void release() { release_.set_value(); }

  std::future<std::vector<PartitionResult<E>>> future;

 private:
  std::promise<void> started_, release_;
};

// An engine of one synthesis thread, held up by a first job until first.release().
class BehindABlockingJob : public ::testing::Test {
 protected:
  const groth16::SharedKey<E> key = chain_key();
  Recorder recorder{false};
  Engine<E> engine{{1, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1)};
  BlockingJob first{engine, key};
};

// With one synthesis thread held up by a first job, later jobs start in
// priority order, equal priorities in submission order.
TEST_F(BehindABlockingJob, HigherPriorityStartsFirst) {
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::future<std::vector<PartitionResult<E>>>> futures;
  const int priorities[] = {0, 5, 0, 9, 5};
  for (int tag = 0; tag < 5; ++tag) {
    std::vector<Synthesize<E>> parts;
    parts.push_back(ordered_source(mu, order, tag, 10 + tag));
    JobOptions o;
    o.priority = priorities[tag];
    futures.push_back(submit_all(engine, key, std::move(parts), o));
  }
  first.release();
  expect_verified(*key, first.future.get()[0]);
  for (auto& f : futures) expect_verified(*key, f.get()[0]);
  EXPECT_EQ(order, (std::vector<int>{3, 1, 4, 0, 2}));
}

// Each result says how it ended and when it passed each stage, in order.
TEST(Scheduling, ResultsCarryOutcomeAndStageTimes) {
  const auto key = chain_key();
  Recorder recorder(false);
  Engine<E> engine({2, size_t(64) << 20}, recorder, cpu_backend<E>(1, 1));
  std::vector<Synthesize<E>> parts = chain_parts(3, 1);
  parts.push_back([](auto, auto, auto, auto) { throw std::invalid_argument("bad witness"); });
  std::atomic<int> seen{0};
  const auto results =
      submit_all(engine, key, std::move(parts), {}, [&](const PartitionResult<E>& r) { seen += (int)r.partition + 1; })
          .get();
  EXPECT_EQ(seen, 3) << "the callback sees each partition once";
  const auto& ok = results[0];
  expect_verified(*key, ok);
  EXPECT_EQ(ok.outcome, Outcome::proved);
  // Every phase it went through took time, and they add up to the total.
  const PhaseTimes& t = ok.times;
  EXPECT_GE(t[Phase::queue], 0);
  EXPECT_GT(t[Phase::synthesis], 0);
  EXPECT_GT(t[Phase::prove], 0);
  EXPECT_GT(t[Phase::finish], 0);
  EXPECT_NEAR(t[Phase::total], t[Phase::queue] + t[Phase::synthesis] + t[Phase::prove] + t[Phase::finish], 1e-9);

  const auto& bad = results[1];
  EXPECT_EQ(bad.outcome, Outcome::failed);
  ASSERT_TRUE(bad.cause);
  EXPECT_THROW(std::rethrow_exception(bad.cause), std::invalid_argument);
  EXPECT_EQ(bad.error, "synthesis: bad witness");
  // It never reached the prover: no phase after its synthesis took time.
  EXPECT_EQ(bad.times[Phase::prove], 0);
  EXPECT_EQ(bad.times[Phase::finish], 0);
  EXPECT_GT(bad.times[Phase::total], 0);
}

// purge_stopped reports a cancelled job's queued partitions at once, while
// the synthesis threads are still busy with another job.
TEST_F(BehindABlockingJob, CancelledQueuedPartitionsAreReportedAtOnce) {
  std::stop_source cancel;
  auto f1 = submit_all(engine, key, chain_parts(5, 3), {cancel.get_token()});
  EXPECT_EQ(engine.depths().queued, 3u);
  cancel.request_stop();
  engine.purge_stopped();
  ASSERT_EQ(f1.wait_for(std::chrono::seconds(0)), std::future_status::ready) << "reported before the blocker ends";
  for (const auto& r : f1.get()) EXPECT_EQ(r.outcome, Outcome::cancelled);
  EXPECT_EQ(engine.depths().queued, 0u);
  first.release();
  expect_verified(*key, first.future.get()[0]);
}

// Two engines (one per curve, as a service makes them) draw on one pool.
TEST(Scheduling, TwoEnginesShareOnePool) {
  using Bls = ec::Bls12_381;
  const auto bn = chain_key();
  const auto bls = dev_key<Bls>(circuit::HashChain<Bls>::for_constraints(kSize, 0));
  auto pool = std::make_shared<BufferPool>(pageable_memory(), size_t(16) << 20);
  Recorder recorder(false);
  Engine<E> e1({1, 0}, recorder, cpu_backend<E>(1, 1), pool);
  Engine<Bls> e2({1, 0}, recorder, cpu_backend<Bls>(1, 1), pool);
  std::vector<Synthesize<E>> p1;
  std::vector<Synthesize<Bls>> p2;
  for (uint64_t s = 1; s <= 3; ++s) {
    p1.push_back(synthesis_source<E>([s] { return Chain::for_constraints(kSize, s); }));
    p2.push_back(synthesis_source<Bls>([s] { return circuit::HashChain<Bls>::for_constraints(kSize, s); }));
  }
  auto f1 = submit_all(e1, bn, std::move(p1));
  auto f2 = submit_all(e2, bls, std::move(p2));
  for (const auto& r : f1.get()) expect_verified(*bn, r);
  for (const auto& r : f2.get()) expect_verified(*bls, r);
  EXPECT_GT(pool->counters().reuses + pool->counters().allocations, 5u);
  EXPECT_EQ(e1.pool_counters().allocations, e2.pool_counters().allocations) << "one pool";
  EXPECT_EQ(pool->counters().bytes_leased, 0u);
}

// A backend of one CPU worker that records the keys (and jobs) the engine
// names to it ahead of their partitions (Backend::prefetch).
class PrefetchingBackend final : public Backend<E> {
 public:
  unsigned workers() const override { return 1; }
  bool abc_on_gpu() const override { return false; }
  std::unique_ptr<HostMemory> host_memory() const override { return pageable_memory(); }
  std::string describe() const override { return "prefetching"; }
  groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) override {
    return inner_->prove(worker, item, recorder);
  }
  void prefetch(const groth16::SharedKey<E>& key, uint32_t job, Recorder&) override {
    std::lock_guard lock(mu);
    named.emplace_back(key.get(), job);
  }

  std::mutex mu;
  std::vector<std::pair<const groth16::PreparedKey<E>*, uint32_t>> named;

 private:
  std::unique_ptr<Backend<E>> inner_ = cpu_backend<E>(1, 1);
};

// The engine names a job's key to its backend as the job is submitted, while
// the job's synthesis has not ended (a GPU backend uploads the key
// meanwhile), and a job of no partitions names none.
TEST(Scheduling, ABackendHearsOfAJobsKeyBeforeItsSynthesisEnds) {
  const auto key = chain_key();
  Recorder recorder(false);
  auto backend = std::make_unique<PrefetchingBackend>();
  PrefetchingBackend& b = *backend;
  Engine<E> engine({1, size_t(64) << 20}, recorder, std::move(backend));
  BlockingJob first(engine, key);  // its synthesis has started, and waits
  {
    std::lock_guard lock(b.mu);
    ASSERT_EQ(b.named.size(), 1u);
    EXPECT_EQ(b.named[0].first, key.get());
  }
  engine.submit(key, {}, {}, [](const PartitionResult<E>&) { ADD_FAILURE() << "a job of no partitions reports one"; });
  first.release();
  const auto results = first.future.get();
  ASSERT_EQ(results.size(), 1u);
  expect_verified(*key, results[0]);
  std::lock_guard lock(b.mu);
  EXPECT_EQ(b.named.size(), 1u) << "the job of no partitions named its key";
  EXPECT_EQ(b.named[0].second, results[0].job);
}

// A backend of two workers over the CPU whose first `faulty_workers` behave
// like GPUs that faulted: every call on them throws DeviceFault, and they
// report themselves unusable until recover().
class FaultyBackend final : public Backend<E> {
 public:
  explicit FaultyBackend(unsigned faulty_workers) : inner_(cpu_backend<E>(2, 1)), faulty_(faulty_workers) {}
  unsigned workers() const override { return 2; }
  bool abc_on_gpu() const override { return false; }
  std::unique_ptr<HostMemory> host_memory() const override { return pageable_memory(); }
  std::string describe() const override { return "faulty"; }
  groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) override {
    if (worker < faulty_) {
      faulted_[worker] = true;
      ++faults;
      throw DeviceFault("GPU " + std::to_string(worker) + " faulted");
    }
    ++proved;
    return inner_->prove(worker, item, recorder);
  }
  bool worker_usable(unsigned worker) const override { return !faulted_[worker]; }
  // What engine::recover_gpu does to a GPU: it is usable and proves again.
  void recover() {
    faulty_ = 0;
    for (auto& f : faulted_) f = false;
  }

  std::atomic<int> faults{0}, proved{0};

 private:
  std::unique_ptr<Backend<E>> inner_;
  std::atomic<unsigned> faulty_;
  std::atomic<bool> faulted_[2] = {false, false};
};

// An engine of two synthesis threads over a FaultyBackend of `faulty_workers`
// faulty workers, which the engine owns and `backend` names.
struct OverFaultyDevices {
  explicit OverFaultyDevices(unsigned faulty_workers)
      : OverFaultyDevices(std::make_unique<FaultyBackend>(faulty_workers)) {}

  const groth16::SharedKey<E> key = chain_key();
  Recorder recorder{false};
  FaultyBackend& backend;
  Engine<E> engine;

 private:
  explicit OverFaultyDevices(std::unique_ptr<FaultyBackend> owned)
      : backend(*owned), engine({2, size_t(64) << 20}, recorder, std::move(owned)) {}
};

TEST(Scheduling, AFaultedDeviceLeavesRotationAndItsPartitionIsProvedElsewhere) {
  OverFaultyDevices d(1);
  for (const auto& r : submit_all(d.engine, d.key, chain_parts(1, 6)).get()) expect_verified(*d.key, r);
  EXPECT_EQ(d.backend.faults, 1) << "the faulted worker retired after its first fault";
  EXPECT_EQ(d.backend.proved, 6);
}

TEST(Scheduling, WithEveryDeviceFaultedPartitionsFailAndLaterJobsToo) {
  OverFaultyDevices d(2);
  for (const auto& r : submit_all(d.engine, d.key, chain_parts(1, 4)).get()) {
    EXPECT_EQ(r.outcome, Outcome::failed);
    ASSERT_TRUE(r.cause);
    EXPECT_THROW(std::rethrow_exception(r.cause), DeviceFault);
  }
  auto f = submit_all(d.engine, d.key, chain_parts(9, 1));
  ASSERT_EQ(f.wait_for(std::chrono::seconds(30)), std::future_status::ready) << "a job with no worker left must not hang";
  EXPECT_EQ(f.get()[0].outcome, Outcome::failed);
}

TEST(Scheduling, WorkersReadmittedAfterTheirDeviceRecoversProveAgain) {
  OverFaultyDevices d(2);
  const auto job = [&](uint64_t first) { return submit_all(d.engine, d.key, chain_parts(first, 3)).get(); };
  for (const auto& r : job(1)) EXPECT_EQ(r.outcome, Outcome::failed);
  d.engine.readmit_workers();  // the devices are still faulted: nobody comes back
  for (const auto& r : job(4)) EXPECT_EQ(r.outcome, Outcome::failed);
  d.backend.recover();
  d.engine.readmit_workers();
  for (const auto& r : job(7)) expect_verified(*d.key, r);
  EXPECT_EQ(d.backend.proved, 3);
}

}  // namespace
}  // namespace cuzk::engine
