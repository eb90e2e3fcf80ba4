// cuzkd on the cuda backend (label gpu; skipped without a GPU): proofs of
// both curves verify, Status lists the GPUs in rotation, and /metrics shows
// their health, kernel time and host-to-device bytes; a real fault on a GPU
// (through the test-only hook) takes it out of rotation, and a fresh process
// proves on it again.
#include <cstdlib>
#include <regex>

#include "daemon_support.hpp"

namespace cuzk::test {
namespace {

TEST(DaemonGpu, ProvesOnTheGpuAndReportsIt) {
  TempDir dir;
  std::string keys;
  for (const char* curve : kCurves) keys += key_entry(curve, fixture(curve, "multiplier", "circuit.zkey"));
  Daemon d(dir.path(), keys, {"--backend", "cuda"});
  for (const char* curve : kCurves) {
    SCOPED_TRACE(curve);
    v1::SubmitRequest req;
    req.set_key_id(curve);
    for (int i = 0; i < 4; ++i) *req.add_partitions() = wtns_partition(curve, "multiplier");
    v1::JobResult result;
    const auto status = d.stub().Prove(context().get(), req, &result);
    ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << d.log();
    ASSERT_EQ(result.partitions_size(), 4);
    for (const auto& p : result.partitions()) expect_valid_proof(p, curve, "multiplier");
  }
  v1::StatusReply st;
  ASSERT_TRUE(d.stub().Status(context().get(), {}, &st).ok());
  EXPECT_EQ(st.backend(), "cuda");
  ASSERT_GE(st.gpus_size(), 1);
  for (const auto& g : st.gpus()) {
    EXPECT_TRUE(g.healthy()) << g.device() << ": " << g.fault();
    EXPECT_FALSE(g.name().empty());
  }
  const auto m = http_get(d.metrics_port(), "/metrics");
  ASSERT_EQ(m.status, 200);
  for (const char* pattern : {R"(cuzk_gpu_healthy\{gpu="0",name="[^"]+"\} 1)",
                              R"(cuzk_gpu_busy_seconds_total\{gpu="0"\} [0-9.e-]+)",
                              R"(cuzk_h2d_bytes_total\{gpu="0",stage="upload"\} [1-9][0-9.e+]*)",
                              R"(cuzk_proofs_total\{curve="bls12381",key="bls12381"\} 4)"})
    EXPECT_TRUE(std::regex_search(m.body, std::regex(pattern))) << "no " << pattern << " in:\n" << m.body;
}

v1::JobResult prove(Daemon& d, const std::vector<v1::Partition>& partitions) {
  v1::SubmitRequest req;
  req.set_key_id("bn128");
  for (const auto& p : partitions) *req.add_partitions() = p;
  v1::JobResult result;
  const auto status = d.stub().Prove(context().get(), req, &result);
  EXPECT_TRUE(status.ok()) << status.error_message() << "\n" << d.log();
  return result;
}

v1::GpuStatus gpu0(Daemon& d) {
  v1::StatusReply st;
  EXPECT_TRUE(d.stub().Status(context().get(), {}, &st).ok());
  for (const auto& g : st.gpus())
    if (g.device() == 0) return g;
  ADD_FAILURE() << "Status lists no GPU 0";
  return {};
}

// The fault is real: a kernel writes through an invalid address on GPU 0,
// which leaves its context unusable (cudaErrorIllegalAddress) as failing
// hardware would. With one GPU, the partitions that meet it fail with the
// reason (unavailable), none is lost, and status and metrics show the GPU
// out. Two seconds later the daemon resets the GPU; on the H200 the reset
// does not make it usable to the process again, so with every GPU lost the
// daemon drains and exits with status 3, and a fresh process (what systemd's
// Restart=on-failure starts) self-checks the GPU and proves on it.
TEST(DaemonGpu, AFaultedGpuLeavesRotationAndAFreshProcessProvesAgain) {
  TempDir dir;
  const std::string keys = key_entry("bn128", fixture("bn128", "multiplier", "circuit.zkey"));
  ::setenv("CUZK_TEST_FAULTS", "1", 1);
  Daemon d(dir.path(), keys, {"--backend", "cuda", "--gpus", "0", "--gpu-recovery-interval", "2"});
  ::unsetenv("CUZK_TEST_FAULTS");
  const v1::Partition good = wtns_partition("bn128", "multiplier");
  const v1::JobResult before = prove(d, {good});
  ASSERT_EQ(before.partitions_size(), 1);
  expect_valid_proof(before.partitions(0), "bn128", "multiplier");

  v1::Partition fault = good;
  fault.set_name("fault:gpu:0");
  const v1::JobResult injected = prove(d, {fault});
  ASSERT_EQ(injected.partitions_size(), 1);
  EXPECT_NE(injected.partitions(0).error().find("injected a fault on GPU 0"), std::string::npos)
      << injected.partitions(0).error();

  // The next partitions meet the fault: the GPU leaves rotation, and with no
  // GPU left each fails with its reason.
  const v1::JobResult met = prove(d, {good, good, good});
  ASSERT_EQ(met.partitions_size(), 3);
  for (const auto& p : met.partitions()) {
    EXPECT_EQ(p.error_code(), "unavailable") << p.error();
    EXPECT_NE(p.error().find("GPU 0 faulted and was taken out of rotation"), std::string::npos) << p.error();
    EXPECT_NE(p.error().find("cudaErrorIllegalAddress"), std::string::npos) << p.error();
  }
  const v1::GpuStatus out = gpu0(d);
  EXPECT_FALSE(out.healthy());
  EXPECT_EQ(out.faults(), 1u);
  EXPECT_NE(out.fault().find("cudaErrorIllegalAddress"), std::string::npos) << out.fault();
  const auto m = http_get(d.metrics_port(), "/metrics");
  for (const char* pattern : {R"(cuzk_gpu_healthy\{gpu="0",name="[^"]+"\} 0)", R"(cuzk_gpu_faults_total\{gpu="0"\} 1)",
                              R"(cuzk_partitions_failed_total\{reason="unavailable"\} 3)"})
    EXPECT_TRUE(std::regex_search(m.body, std::regex(pattern))) << "no " << pattern << " in:\n" << m.body;

  // The reset is tried; the GPU is still unusable to this process, so it
  // drains and exits for a restart.
  EXPECT_EQ(d.wait_exit(60s), 3) << d.log();
  EXPECT_NE(d.log().find("every GPU has faulted"), std::string::npos) << d.log();
  EXPECT_NE(d.log().find("the reset did not bring it back"), std::string::npos) << d.log();

  Daemon fresh(dir.path(), keys, {"--backend", "cuda", "--gpus", "0"});
  const v1::GpuStatus back = gpu0(fresh);
  EXPECT_TRUE(back.healthy()) << back.fault();
  const v1::JobResult after = prove(fresh, {good, good, good, good});
  ASSERT_EQ(after.partitions_size(), 4);
  for (const auto& p : after.partitions()) expect_valid_proof(p, "bn128", "multiplier");
}

}  // namespace
}  // namespace cuzk::test
