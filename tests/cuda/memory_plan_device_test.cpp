// Proving within the device memory the GPU has free or --gpu-memory allows
// (cuda::set_memory_limit): free memory and allocations stay under the limit;
// a, b, c taken in turn give the very MSM results of the together schedule
// and of the CPU, on both conventions, resident and streamed keys; the engine
// under a limit that fits one streamed proof at a time streams the key, lets
// its two workers take turns and proves every partition; a second key is
// made resident where free scratch and an unused key were in the way; a limit
// below the least a proof needs fails the partition with one line naming the
// shortfall.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/engine/cuda_backend.hpp"
#include "cuzk/engine/device_key_cache.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_cuda.hpp"
#include "proving_support.hpp"

namespace cuzk::test {
namespace {

namespace gpu = groth16::gpu;

// A limit for the test's scope: this process's use so far plus `extra`.
class LimitScope {
 public:
  explicit LimitScope(size_t extra) {
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    cuda::set_memory_limit(cuda::device_memory_used(device) + extra);
  }
  ~LimitScope() { cuda::set_memory_limit(0); }
  LimitScope(const LimitScope&) = delete;
  LimitScope& operator=(const LimitScope&) = delete;
};

TEST(MemoryLimit, FreeMemoryAndAllocationsStayUnderIt) {
  cuda::DeviceScope on(0);
  const size_t before = cuda::device_memory_used(0);
  {
    const LimitScope limit(size_t(64) << 20);
    EXPECT_LE(cuda::free_device_memory(), size_t(64) << 20);
    cuda::Arena arena;
    auto a = arena.take(size_t(40) << 20);
    EXPECT_EQ(cuda::device_memory_used(0), before + a.bytes());
    EXPECT_LE(cuda::free_device_memory(), (size_t(64) << 20) - a.bytes());
    // 40 + 40 MiB is past the limit, though the GPU has the room.
    try {
      auto b = arena.take(size_t(40) << 20);
      ADD_FAILURE() << "an allocation past the limit succeeded";
    } catch (const cuda::Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot allocate 40 MiB"), std::string::npos) << e.what();
    }
    a = {};  // kept by the arena, then returned by a take that needs the room
    auto c = arena.take(size_t(60) << 20);
    EXPECT_EQ(arena.counters().bytes_held, c.bytes());
  }
  EXPECT_EQ(cuda::device_memory_used(0), before) << "the arena gave every block back";
  EXPECT_GT(cuda::free_device_memory(), size_t(64) << 20) << "no limit once it is lifted";
}

using Bn = ec::Bn254;
using Bls = ec::Bls12_381;

// Both schedules on a resident and a streamed key against the CPU.
template <class E>
void check_schedules(groth16::Convention convention) {
  using Fr = typename E::Fr;
  const auto circuit = circuit::Partition<E>::for_constraints(3000, 11);
  const auto key = groth16::PreparedKey<E>::make(groth16::share(groth16::dev_setup(
      circuit::constraint_matrices(circuit), groth16::ToxicWaste<E>::draw(), 0, convention)));
  const size_t n = key->key().domain_size();
  cuda::PinnedBuffer<Fr> w(key->key().n_vars()), a(n), b(n), c(n);
  circuit::synthesize_witness(circuit, w.span(), a.span(), b.span(), c.span());
  const auto want = cpu_pending<E>(*key, circuit::synthesize_assignment(circuit));
  for (const gpu::DeviceKeyOptions o : {gpu::DeviceKeyOptions{}, gpu::DeviceKeyOptions{true, 1000, false}}) {
    SCOPED_TRACE(o.streamed ? "streamed" : "resident");
    const gpu::DeviceKey<E> dk(key, 0, o);
    EXPECT_GT(gpu::proof_device_bytes(dk, gpu::AbcSchedule::together),
              gpu::proof_device_bytes(dk, gpu::AbcSchedule::in_turn));
    EXPECT_EQ(gpu::choose_schedule(dk, true, 0), gpu::AbcSchedule::in_turn);
    EXPECT_EQ(gpu::choose_schedule(dk, false, 0), gpu::AbcSchedule::together) << "rows need all three";
    gpu::Worker worker(0);
    for (const auto schedule : {gpu::AbcSchedule::in_turn, gpu::AbcSchedule::together, gpu::AbcSchedule::in_turn}) {
      SCOPED_TRACE(schedule == gpu::AbcSchedule::in_turn ? "in turn" : "together");
      auto inputs = gpu::upload_inputs(dk, worker, std::span<const Fr>(w.span()), std::span<const Fr>(a.span()),
                                       std::span<const Fr>(b.span()), std::span<const Fr>(c.span()), schedule);
      EXPECT_EQ(inputs.host_abc_pending(), schedule == gpu::AbcSchedule::in_turn);
      auto pending = gpu::prove_start(dk, worker, std::move(inputs));
      StageTimes times;
      expect_same_pending<E>(pending.wait(&times), want);
      EXPECT_GT(times[Stage::ntt], 0.0);
    }
  }
}

TEST(AbcSchedule, InTurnGivesTheCpuResultsSnarkjsBn254) { check_schedules<Bn>(groth16::Convention::snarkjs); }
TEST(AbcSchedule, InTurnGivesTheCpuResultsSnarkjsBls12381) { check_schedules<Bls>(groth16::Convention::snarkjs); }
TEST(AbcSchedule, InTurnGivesTheCpuResultsBellman) { check_schedules<Bls>(groth16::Convention::bellman); }

// The least device memory a key and one proof of it need, streamed.
template <class E>
size_t streamed_minimum(const groth16::PreparedKey<E>& key) {
  gpu::DeviceKeyOptions o;
  o.streamed = true;
  o = gpu::plan_residency(key, o, SIZE_MAX);
  return gpu::DeviceKey<E>::bytes_needed(key, o) + gpu::proof_device_bytes(key, o, gpu::AbcSchedule::in_turn);
}

TEST(MemoryLimit, EngineStreamsTheKeyAndItsWorkersTakeTurns) {
  using Fr = Bn::Fr;
  using Part = circuit::Partition<Bn>;
  const auto key = dev_key<Bn>(Part::for_constraints(1 << 16, 0));
  cuda::DeviceScope on(0);
  engine::CudaBackendOptions o;
  o.workers_per_gpu = 2;
  engine::Recorder recorder(false);
  // Room for the streamed key and one proof in turn, with half a vector of
  // the domain to spare: not for a second proof, nor for a, b, c together.
  const size_t vector = key->key().domain_size() * sizeof(Fr);
  const LimitScope limit(streamed_minimum(*key) + vector / 2);
  engine::Engine<Bn> engine({2, size_t(256) << 20}, recorder, engine::cuda_backend<Bn>(o));
  std::vector<engine::Synthesize<Bn>> parts;
  for (uint64_t p = 0; p < 4; ++p) parts.push_back(synthesis_source<Bn>([p] { return Part::for_constraints(1 << 16, p + 1); }));
  const auto results = submit_all(engine, key, std::move(parts)).get();
  ASSERT_EQ(results.size(), 4u);
  for (const auto& r : results) expect_verified(*key, r);
  const auto reports = engine.backend().gpu_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_LT(reports[0].counters.key_cache_bytes, gpu::DeviceKey<Bn>::bytes_needed(*key, {})) << "the key should be streamed";
  const auto held = engine.backend().gpus_holding(*key);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_TRUE(held[0].streamed) << "and reported as streamed";
  // Two workers, room for one proof: a proof's upload never overlapped
  // another's kernels (with two proofs' room, the next one's upload runs
  // beside them).
  std::vector<engine::Span> uploads, kernels;
  for (const auto& s : recorder.spans()) {
    if (s.stage == Stage::upload) uploads.push_back(s);
    if (s.stage == Stage::lock_held) kernels.push_back(s);
  }
  ASSERT_EQ(uploads.size(), 4u);
  ASSERT_EQ(kernels.size(), 4u);
  for (const auto& u : uploads)
    for (const auto& k : kernels) {
      if (u.partition == k.partition) continue;
      EXPECT_TRUE(u.end <= k.start + 1e-3 || u.start >= k.end - 1e-3)
          << "partition " << u.partition << "'s upload ran inside partition " << k.partition << "'s kernels";
    }
}

// A streamed key's chunks grow where memory allows (fewer MSMs a proof) and
// stay as they are where a larger staging block would not leave room for a
// proof.
TEST(MemoryPlan, StreamChunksGrowOnlyWhereAProofStillFits) {
  using Part = circuit::Partition<Bn>;
  const auto key = dev_key<Bn>(Part::for_constraints(1 << 16, 0));
  const size_t width = std::max(key->key().n_vars(), key->key().domain_size());
  gpu::DeviceKeyOptions o;
  o.streamed = true;
  o.stream_chunk = size_t(1) << 10;
  const size_t least =
      gpu::DeviceKey<Bn>::bytes_needed(*key, o) + gpu::proof_device_bytes(*key, o, gpu::AbcSchedule::in_turn);
  EXPECT_EQ(gpu::plan_residency(*key, o, least).stream_chunk, size_t(1) << 10);
  const auto roomy = gpu::plan_residency(*key, o, SIZE_MAX);
  EXPECT_TRUE(roomy.streamed);
  EXPECT_GE(roomy.stream_chunk, width);  // one chunk an MSM
  EXPECT_LT(roomy.stream_chunk, 2 * width);
}

// A second key where what is kept for reuse is in the way (an earlier
// proof's scratch, free in its arena, and a key nobody is using): the cache
// gives the scratch back, and evicts the unused key only where the new one
// then fits resident, instead of failing with the memory free at the time.
TEST(MemoryLimit, FreeScratchAndUnusedKeysMakeRoomForAResidentKey) {
  using Part = circuit::Partition<Bn>;
  // Keys of ~100 MiB, so that a quarter of one is well above the arena's
  // rounding and what the key's buffers may take beyond bytes_needed.
  const auto k1 = dev_key<Bn>(Part::for_constraints(1 << 18, 0)), k2 = dev_key<Bn>(Part::for_constraints(1 << 18, 1));
  cuda::DeviceScope on(0);
  const size_t one = gpu::DeviceKey<Bn>::bytes_needed(*k1, {});
  const size_t with_proof = one + gpu::proof_device_bytes(*k2, {}, gpu::AbcSchedule::in_turn);
  for (const bool both_fit : {true, false}) {
    SCOPED_TRACE(both_fit ? "room for both keys" : "room for one key");
    const LimitScope limit(with_proof + one / 4 + (both_fit ? one : 0));
    engine::DeviceKeyCache<Bn> cache(0, size_t(1) << 40, {});  // a budget that never binds
    cuda::Arena scratch;
    ASSERT_FALSE(cache.acquire(k1)->streamed());
    // Almost all that is left, taken and given back to the arena, which keeps it.
    scratch.take(cuda::free_device_memory() - 2 * cuda::DeviceAllocator::granule);
    const size_t free_now = cuda::free_device_memory();
    ASSERT_LT(free_now, with_proof) << "the scratch is in the way";
    ASSERT_EQ(free_now + scratch.free_bytes() >= with_proof, both_fit) << "so is k1 where only one fits";
    const auto second = cache.acquire(k2);
    EXPECT_FALSE(second->streamed());
    EXPECT_EQ(scratch.free_bytes(), 0u) << "the arena's free blocks were given back";
    EXPECT_EQ(cache.counters().evictions, both_fit ? 0u : 1u) << "an unused key is evicted only where needed";
    EXPECT_EQ(cache.residence(*k1), both_fit ? engine::DeviceKeyCache<Bn>::Residence::resident
                                             : engine::DeviceKeyCache<Bn>::Residence::absent);
  }
}

TEST(MemoryLimit, TooLittleForOneProofFailsNamingTheShortfall) {
  using Part = circuit::Partition<Bn>;
  const auto key = dev_key<Bn>(Part::for_constraints(1 << 14, 0));
  cuda::DeviceScope on(0);
  const LimitScope limit(streamed_minimum(*key) / 2);
  engine::CudaBackendOptions o;
  engine::Recorder recorder(false);
  engine::Engine<Bn> engine({2, size_t(64) << 20}, recorder, engine::cuda_backend<Bn>(o));
  std::vector<engine::Synthesize<Bn>> parts;
  parts.push_back(synthesis_source<Bn>([] { return Part::for_constraints(1 << 14, 1); }));
  const auto results = submit_all(engine, key, std::move(parts)).get();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].proof);
  EXPECT_NE(results[0].error.find("MiB short"), std::string::npos) << results[0].error;
  EXPECT_NE(results[0].error.find("--gpu-memory"), std::string::npos) << results[0].error;
}

}  // namespace
}  // namespace cuzk::test
