// The service on the CUDA backend: keys of both curves on the same GPU (one
// kernel lock, one host pool), proofs that verify against snarkjs's
// verification keys, each key uploaded once and then served from the GPU's
// cache, the GPU reported healthy, and an evicted key's device copy freed.
#include <gtest/gtest.h>

#include "service_test_support.hpp"

namespace cuzk::service {
namespace {

using test::fixture;
using test::read_bytes;
using test_support::expect_verifies;
using test_support::witness_bytes;

std::vector<PartitionInput> witnesses(const std::string& curve, const std::string& circuit, int n) {
  std::vector<PartitionInput> parts;
  for (int i = 0; i < n; ++i)
    parts.push_back(witness_bytes(curve, circuit));
  return parts;
}

TEST(CudaService, BothCurvesShareTheGpu) {
  ServiceOptions o;
  o.placement = {BackendKind::cuda, "0"};
  Service svc(o);
  ASSERT_EQ(svc.placement().backend, BackendKind::cuda);
  svc.load_key(fixture("bn128", "multiplier", "circuit.zkey"), "bn");
  svc.load_key(fixture("bls12381", "multiplier", "circuit.zkey"), "bls");
  const JobId bn = svc.submit("bn", witnesses("bn128", "multiplier", 4));
  const JobId bls = svc.submit("bls", witnesses("bls12381", "multiplier", 4));
  const JobOutcome bn_done = *svc.await(bn), bls_done = *svc.await(bls);
  for (const auto& p : bn_done.partitions) expect_verifies<ec::Bn254>(p, "bn128", "multiplier");
  for (const auto& p : bls_done.partitions) expect_verifies<ec::Bls12_381>(p, "bls12381", "multiplier");

  Status s = svc.status();
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_TRUE(s.gpus[0].healthy);
  EXPECT_EQ(s.gpus[0].counters.key_uploads, 2u) << "each key uploaded once";
  // Every later acquire finds it: the 3 other partitions' of each key, and
  // each partition's where the key went up ahead of its job (Backend::prefetch).
  EXPECT_GE(s.gpus[0].counters.key_hits, 6u) << "and served from the cache after";
  EXPECT_LE(s.gpus[0].counters.key_hits, 8u);
  EXPECT_GT(s.gpus[0].counters.key_cache_bytes, 0u);
  EXPECT_NE(s.gpus[0].name.find("GPU 0"), std::string::npos);
  ASSERT_EQ(s.keys.size(), 2u);
  for (const KeyInfo& k : s.keys) {
    ASSERT_EQ(k.gpus.size(), 1u) << k.id << " is held by GPU 0";
    EXPECT_EQ(k.gpus[0].device, 0);
    EXPECT_FALSE(k.gpus[0].streamed) << k.id << ": a multiplier's key is resident";
  }
  for (const KeyInfo& k : svc.keys()) EXPECT_EQ(k.gpus.size(), 1u) << k.id << ": ListKeys says the same";
  const Counters c = svc.counters();
  EXPECT_EQ(c.partitions_proved, 8u);
  EXPECT_GT(c.stages.at(0)[(size_t)Stage::lock_held].seconds, 0);
  EXPECT_GT(c.stages.at(0)[(size_t)Stage::upload].bytes, 0u);

  EXPECT_TRUE(svc.evict("bn"));
  s = svc.status();
  ASSERT_EQ(s.keys.size(), 1u);
  EXPECT_EQ(s.keys[0].gpus.size(), 1u) << "the other key stays on the GPU";
  EXPECT_TRUE(svc.evict("bls"));
  s = svc.status();
  EXPECT_EQ(s.gpus[0].counters.key_cache_bytes, 0u) << "evicted keys leave the GPU";
}

}  // namespace
}  // namespace cuzk::service
