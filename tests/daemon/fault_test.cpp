// Faults injected through the test-only hook (CUZK_TEST_FAULTS=1: partitions
// named "fault:..." throw from their synthesis): an exception, an exception
// that is not a std::exception and an allocation failure each fail their
// partition alone with its reason, the job's other partitions are proved,
// the failures are counted in /metrics, and the daemon goes on serving.
#include <cstdlib>

#include "daemon_support.hpp"

namespace cuzk::test {
namespace {

v1::Partition fault(const std::string& what) {
  v1::Partition p = wtns_partition("bn128", "multiplier");
  p.set_name("fault:" + what);
  return p;
}

TEST(Faults, InjectedFaultsFailTheirPartitionAloneAndTheDaemonServesOn) {
  TempDir dir;
  ::setenv("CUZK_TEST_FAULTS", "1", 1);
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));
  ::unsetenv("CUZK_TEST_FAULTS");
  v1::SubmitRequest req;
  req.set_key_id("mult");
  *req.add_partitions() = fault("throw");
  *req.add_partitions() = wtns_partition("bn128", "multiplier");
  *req.add_partitions() = fault("nonstd");
  *req.add_partitions() = fault("bad_alloc");
  v1::JobResult result;
  const auto s = d.stub().Prove(context().get(), req, &result);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(result.partitions_size(), 4);
  EXPECT_EQ(result.partitions(0).error_code(), "internal");
  EXPECT_NE(result.partitions(0).error().find("injected fault"), std::string::npos) << result.partitions(0).error();
  expect_valid_proof(result.partitions(1), "bn128", "multiplier");
  EXPECT_EQ(result.partitions(2).error_code(), "internal");
  EXPECT_NE(result.partitions(2).error().find("not a std::exception"), std::string::npos) << result.partitions(2).error();
  EXPECT_EQ(result.partitions(3).error_code(), "resource_exhausted");
  EXPECT_NE(result.partitions(3).error().find("out of host memory"), std::string::npos) << result.partitions(3).error();

  const HttpReply metrics = http_get(d.metrics_port(), "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find("resource_exhausted"), std::string::npos);
  EXPECT_NE(metrics.body.find("internal"), std::string::npos);

  // The daemon proves on.
  v1::SubmitRequest good;
  good.set_key_id("mult");
  *good.add_partitions() = wtns_partition("bn128", "multiplier");
  v1::JobResult after;
  ASSERT_TRUE(d.stub().Prove(context().get(), good, &after).ok());
  expect_valid_proof(after.partitions(0), "bn128", "multiplier");
}

// Without the variable, a partition of that name is an ordinary witness.
TEST(Faults, TheHookIsOffByDefault) {
  TempDir dir;
  ::unsetenv("CUZK_TEST_FAULTS");
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));
  v1::SubmitRequest req;
  req.set_key_id("mult");
  *req.add_partitions() = fault("throw");
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), req, &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");
}

}  // namespace
}  // namespace cuzk::test
