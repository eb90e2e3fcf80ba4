// cuzkd on the cuda backend (label gpu; skipped without a GPU): proofs of
// both curves verify, Status lists the GPUs in rotation, and /metrics shows
// their health, kernel time and host-to-device bytes.
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

}  // namespace
}  // namespace cuzk::test
