// The service on several GPUs, where the machine has one: ctest starts this
// test with CUZK_LOGICAL_GPUS=2 (cuda/runtime.hpp), so the process sees two
// GPUs on one CUDA device, each with its own streams, key cache, kernel lock
// and fault state. What only several GPUs exercise: partitions spread over
// both, the key read once and resident on each, and one GPU failing while the
// other proves on, then coming back.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/service/example_circuits.hpp"
#include "proving_support.hpp"
#include "service_test_support.hpp"

namespace cuzk::service {
namespace {

using namespace std::chrono_literals;
using E = ec::Bn254;
using Chain = circuit::HashChain<E>;
constexpr uint64_t kConstraints = 1 << 14;

std::vector<PartitionInput> chain_job(size_t n, uint64_t first_seed) {
  std::vector<PartitionInput> parts;
  for (size_t i = 0; i < n; ++i) parts.push_back(NativeWitness{"hash-chain", kConstraints, first_seed + i});
  return parts;
}

// Proofs made on each GPU so far: its kernel regions.
std::vector<uint64_t> proofs_per_gpu(const Service& svc) {
  const Counters c = svc.counters();
  std::vector<uint64_t> out;
  for (int d = 0; d < 2; ++d) {
    const auto it = c.stages.find(d);
    out.push_back(it == c.stages.end() ? 0 : it->second[(size_t)Stage::lock_held].count);
  }
  return out;
}

void expect_all_proved(const JobOutcome& done, size_t n) {
  ASSERT_EQ(done.partitions.size(), n);
  for (const auto& p : done.partitions) EXPECT_TRUE(p.ok()) << p.error;
}

// ctest sets CUZK_LOGICAL_GPUS=2; the test, like a front end, applies it
// before any GPU is used.
const bool kEnvironmentApplied = (apply_environment_switches(), true);

TEST(LogicalGpus, TheProcessSeesTwoOnOneDevice) {
  ASSERT_TRUE(kEnvironmentApplied);
  ASSERT_EQ(cuda::device_count(), 2) << "ctest sets CUZK_LOGICAL_GPUS=2";
  EXPECT_EQ(cuda::physical_device(0), 0);
  if (cuda::physical_device(1) == 0) {
    EXPECT_EQ(cuda::devices_sharing(0), 2);
  }
  ServiceOptions o;
  o.placement = {BackendKind::cuda, "all"};
  Service svc(o);
  ASSERT_EQ(svc.placement().gpus, (std::vector<int>{0, 1}));
}

TEST(LogicalGpus, PartitionsSpreadAndTheKeyIsResidentOnEach) {
  ServiceOptions o;
  o.placement = {BackendKind::cuda, "all"};
  o.native_circuits = example_circuits();
  Service svc(o);
  svc.add_key("chain", test::dev_key<E>(Chain::for_constraints(kConstraints, 0)));
  const size_t n = 24;
  const JobOutcome done = *svc.await(svc.submit("chain", chain_job(n, 1)));
  expect_all_proved(done, n);

  const auto per_gpu = proofs_per_gpu(svc);
  EXPECT_EQ(per_gpu[0] + per_gpu[1], n);
  EXPECT_GT(per_gpu[0], 0u) << "GPU 0 proved none of " << n;
  EXPECT_GT(per_gpu[1], 0u) << "GPU 1 proved none of " << n;
  const Status s = svc.status();
  ASSERT_EQ(s.gpus.size(), 2u);
  for (const auto& g : s.gpus) {
    EXPECT_TRUE(g.healthy) << g.name;
    EXPECT_EQ(g.counters.key_uploads, 1u) << g.name << ": the key goes up once to each GPU";
    EXPECT_GT(g.counters.key_cache_bytes, 0u) << g.name;
    EXPECT_NE(g.name.find("logical"), std::string::npos) << g.name;
  }
  EXPECT_EQ(s.gpus[0].counters.key_cache_bytes, s.gpus[1].counters.key_cache_bytes);
}

TEST(LogicalGpus, OneFailingGpuLeavesTheOtherProvingThenComesBack) {
  ServiceOptions o;
  o.placement = {BackendKind::cuda, "all"};
  o.test_faults = true;
  o.native_circuits = example_circuits();
  o.gpu_recovery_interval = 300ms;
  Service svc(o);
  svc.add_key("chain", test::dev_key<E>(Chain::for_constraints(kConstraints, 0)));
  expect_all_proved(*svc.await(svc.submit("chain", chain_job(8, 1))), 8);

  // The injected fault fails its own partition; the next partition GPU 1
  // takes meets it, takes GPU 1 out of rotation and goes to GPU 0.
  std::vector<PartitionInput> fault;
  fault.push_back(WitnessBytes{{}, "fault:gpu:1"});
  const JobOutcome failed = *svc.await(svc.submit("chain", std::move(fault)));
  ASSERT_EQ(failed.partitions.size(), 1u);
  EXPECT_FALSE(failed.partitions[0].ok());
  const auto before = proofs_per_gpu(svc);
  const size_t n = 16;
  expect_all_proved(*svc.await(svc.submit("chain", chain_job(n, 100))), n);
  const auto after = proofs_per_gpu(svc);
  EXPECT_EQ(after[0] + after[1], before[0] + before[1] + n) << "every partition proved once";
  Status s = svc.status();
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[1].counters.faults, 1u);
  EXPECT_TRUE(s.gpus[0].healthy) << "a fault on GPU 1 leaves GPU 0 alone";
  EXPECT_EQ(s.gpus[0].counters.faults, 0u);

  // The recovery resets the device under both logical GPUs; both prove again.
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!svc.status().gpus[1].healthy && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50ms);
  s = svc.status();
  ASSERT_TRUE(s.gpus[1].healthy) << s.gpus[1].recovery_error;
  EXPECT_EQ(s.gpus[1].counters.recoveries, 1u);
  const auto recovered = proofs_per_gpu(svc);
  expect_all_proved(*svc.await(svc.submit("chain", chain_job(n, 200))), n);
  const auto last = proofs_per_gpu(svc);
  EXPECT_EQ(last[0] + last[1], recovered[0] + recovered[1] + n);
  EXPECT_GT(last[1], recovered[1]) << "GPU 1 proves again after its recovery";
  EXPECT_GT(last[0], recovered[0]) << "and GPU 0, whose state the reset ended too, as well";
}

}  // namespace
}  // namespace cuzk::service
