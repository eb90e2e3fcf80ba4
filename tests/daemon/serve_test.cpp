// cuzkd serving requests: every verb over a Unix socket from a C++ gRPC
// client, proofs checked by the verifier, bad requests answered with their
// codes while the daemon keeps serving, admission control, cancellation,
// status and metrics.
#include <sys/stat.h>

#include <algorithm>
#include <random>
#include <thread>

#include "daemon_support.hpp"

namespace cuzk::test {
namespace {

// Four keys: the multiplier and linear circuits on both curves.
std::string four_keys() {
  std::string t;
  for (const char* curve : kCurves)
    for (const char* circuit : {"multiplier", "linear"})
      t += key_entry(std::string(circuit) + "_" + curve, fixture(curve, circuit, "circuit.zkey"));
  return t;
}

// Submits req, asserting that cuzkd takes it, and points await at its job.
void submit_for_await(Daemon& d, const v1::SubmitRequest& req, v1::AwaitRequest& await) {
  v1::SubmitReply submitted;
  ASSERT_TRUE(d.stub().Submit(context().get(), req, &submitted).ok());
  await.set_job_id(submitted.job_id());
}

class Serve : public ::testing::Test {
 protected:
  TempDir dir;
};

TEST_F(Serve, ProvesOnBothCurvesAndTheProofsVerify) {
  Daemon d(dir.path(), four_keys());
  v1::ListKeysReply keys;
  ASSERT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
  ASSERT_EQ(keys.keys_size(), 4);
  for (const auto& k : keys.keys())
    EXPECT_EQ(k.curve(), k.id().find("bn128") != std::string::npos ? v1::BN254 : v1::BLS12_381) << k.id();

  for (const char* curve : kCurves)
    for (const char* circuit : {"multiplier", "linear"}) {
      SCOPED_TRACE(std::string(curve) + " " + circuit);
      const std::string key = std::string(circuit) + "_" + curve;
      v1::JobResult result;
      const auto status = d.stub().Prove(context().get(), request(key, curve, circuit, 2), &result);
      ASSERT_TRUE(status.ok()) << status.error_message();
      EXPECT_EQ(result.key_id(), key);
      EXPECT_EQ(result.curve(), std::string(curve) == "bn128" ? v1::BN254 : v1::BLS12_381);
      ASSERT_EQ(result.partitions_size(), 2);
      for (const auto& p : result.partitions()) expect_valid_proof(p, curve, circuit);
    }

  // Submit, then Await, then a second Await of the same job: NOT_FOUND.
  v1::AwaitRequest await;
  ASSERT_NO_FATAL_FAILURE(submit_for_await(d, request("multiplier_bn128", "bn128", "multiplier", 3), await));
  v1::JobResult result;
  const auto status = d.stub().Await(context().get(), await, &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(result.job_id(), await.job_id());
  ASSERT_EQ(result.partitions_size(), 3);
  for (const auto& p : result.partitions()) expect_valid_proof(p, "bn128", "multiplier");
  EXPECT_EQ(d.stub().Await(context().get(), await, &result).error_code(), grpc::StatusCode::NOT_FOUND);

  // The default socket mode.
  struct stat st{};
  ASSERT_EQ(::stat(d.socket().c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0660u);
}

TEST_F(Serve, PreloadsFromPathAndBytesAndEvicts) {
  const fs::path key_dir = fs::path(fixture("bls12381", "multiplier", "circuit.zkey")).parent_path();
  Daemon d(dir.path(), "key_dirs = [\"" + key_dir.string() + "\"]\n");
  v1::PreloadRequest from_path;
  from_path.set_path(fixture("bls12381", "multiplier", "circuit.zkey"));
  v1::KeyInfo info;
  ASSERT_TRUE(d.stub().Preload(context().get(), from_path, &info).ok());
  EXPECT_EQ(info.id(), "circuit");  // the file's stem
  EXPECT_EQ(info.curve(), v1::BLS12_381);
  EXPECT_EQ(info.n_vars(), 254u);
  EXPECT_EQ(info.domain_size(), 256u);

  v1::PreloadRequest from_bytes;
  const Bytes zkey = read_bytes(fixture("bn128", "linear", "circuit.zkey"));
  from_bytes.set_zkey(std::string(zkey.begin(), zkey.end()));
  from_bytes.set_id("lin");
  ASSERT_TRUE(d.stub().Preload(context().get(), from_bytes, &info).ok());
  EXPECT_EQ(info.id(), "lin");
  EXPECT_EQ(info.curve(), v1::BN254);
  EXPECT_EQ(info.n_vars(), 83u);

  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("lin", "bn128", "linear", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "linear");

  v1::EvictRequest evict;
  evict.set_id("lin");
  v1::EvictReply evicted;
  ASSERT_TRUE(d.stub().Evict(context().get(), evict, &evicted).ok());
  EXPECT_TRUE(evicted.evicted());
  ASSERT_TRUE(d.stub().Evict(context().get(), evict, &evicted).ok());
  EXPECT_FALSE(evicted.evicted());
  v1::ListKeysReply keys;
  ASSERT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
  ASSERT_EQ(keys.keys_size(), 1);
  EXPECT_EQ(keys.keys(0).id(), "circuit");
  EXPECT_EQ(d.stub().Prove(context().get(), request("lin", "bn128", "linear", 1), &result).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// Each bad request gets its code and a one-line message, and the daemon
// proves the next good request.
TEST_F(Serve, BadRequestsAnswerWithTheirCodeAndTheDaemonKeepsServing) {
  const fs::path witness_dir = dir / "witness";
  fs::create_directories(witness_dir);
  fs::copy_file(fixture("bn128", "multiplier", "witness.wtns"), witness_dir / "good.wtns");
  Daemon d(dir.path(),
           "witness_dirs = [\"" + witness_dir.string() + "\"]\nkey_dirs = [\"" + dir.path().string() + "\"]\n" +
               key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));

  const auto good = [&] {
    v1::JobResult result;
    const auto status = d.stub().Prove(context().get(), request("mult", "bn128", "multiplier", 1), &result);
    ASSERT_TRUE(status.ok()) << status.error_message();
    expect_valid_proof(result.partitions(0), "bn128", "multiplier");
  };
  const auto with = [](const std::function<void(v1::SubmitRequest&)>& edit) {
    v1::SubmitRequest req;
    req.set_key_id("mult");
    edit(req);
    return req;
  };
  const auto bytes_part = [](const Bytes& b, const std::string& name) {
    v1::Partition p;
    p.set_wtns(std::string(b.begin(), b.end()));
    p.set_name(name);
    return p;
  };
  const Bytes wtns = read_bytes(fixture("bn128", "multiplier", "witness.wtns"));
  std::mt19937_64 rng(7);
  Bytes random(wtns.size());
  for (auto& x : random) x = uint8_t(rng());

  struct Case {
    std::string name;
    v1::SubmitRequest req;
    grpc::StatusCode code;
    std::string expect;  // the whole message when `exact`, else a part
    bool exact = false;
  };
  const fs::path bls_wtns = fixture("bls12381", "multiplier", "witness.wtns");
  const fs::path short_wtns = fixture("bn128", "linear", "witness.wtns");
  const fs::path bn_key = fixture("bn128", "multiplier", "circuit.zkey");
  std::vector<Case> cases;
  cases.push_back({"unknown key", with([&](auto& r) {
                     r.set_key_id("nope");
                     *r.add_partitions() = wtns_partition("bn128", "multiplier");
                   }),
                   grpc::StatusCode::NOT_FOUND, "nope"});
  cases.push_back({"no key", with([&](auto& r) {
                     r.set_key_id("");
                     *r.add_partitions() = wtns_partition("bn128", "multiplier");
                   }),
                   grpc::StatusCode::INVALID_ARGUMENT, "key"});
  cases.push_back({"no partitions", with([](auto&) {}), grpc::StatusCode::INVALID_ARGUMENT, ""});
  cases.push_back({"partition without witness", with([](auto& r) { r.add_partitions()->set_name("p"); }),
                   grpc::StatusCode::INVALID_ARGUMENT, "p: no witness"});
  cases.push_back({"empty witness", with([&](auto& r) { *r.add_partitions() = bytes_part({}, "empty.wtns"); }),
                   grpc::StatusCode::INVALID_ARGUMENT, "empty.wtns"});
  cases.push_back({"truncated witness",
                   with([&](auto& r) {
                     *r.add_partitions() = bytes_part(Bytes(wtns.begin(), wtns.begin() + wtns.size() / 2), "cut.wtns");
                   }),
                   grpc::StatusCode::INVALID_ARGUMENT, "cut.wtns"});
  cases.push_back({"random bytes", with([&](auto& r) { *r.add_partitions() = bytes_part(random, "random.wtns"); }),
                   grpc::StatusCode::INVALID_ARGUMENT, "random.wtns"});
  cases.push_back({"wrong curve", with([&](auto& r) { *r.add_partitions() = wtns_partition("bls12381", "multiplier"); }),
                   grpc::StatusCode::INVALID_ARGUMENT, cli_prove_error(bn_key, bls_wtns), true});
  cases.push_back({"wrong length", with([&](auto& r) { *r.add_partitions() = wtns_partition("bn128", "linear"); }),
                   grpc::StatusCode::INVALID_ARGUMENT, cli_prove_error(bn_key, short_wtns), true});
  cases.push_back({"path outside the witness directories",
                   with([&](auto& r) { r.add_partitions()->set_wtns_path(fixture("bn128", "multiplier", "witness.wtns")); }),
                   grpc::StatusCode::INVALID_ARGUMENT, ""});
  // One bad partition among good ones fails the whole submit.
  cases.push_back({"one bad among good", with([&](auto& r) {
                     *r.add_partitions() = wtns_partition("bn128", "multiplier");
                     *r.add_partitions() = bytes_part(random, "random.wtns");
                   }),
                   grpc::StatusCode::INVALID_ARGUMENT, "random.wtns"});

  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    v1::JobResult result;
    const auto status = d.stub().Prove(context().get(), c.req, &result);
    EXPECT_EQ(status.error_code(), c.code) << status.error_message();
    const std::string msg = status.error_message();
    EXPECT_FALSE(msg.empty());
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    if (c.exact) EXPECT_EQ(msg, c.expect);
    else EXPECT_NE(msg.find(c.expect), std::string::npos) << "expected \"" << c.expect << "\" in: " << msg;
    good();
  }

  // A witness file under the allowed directory proves.
  v1::SubmitRequest by_path;
  by_path.set_key_id("mult");
  by_path.add_partitions()->set_wtns_path((witness_dir / "good.wtns").string());
  v1::JobResult result;
  auto status = d.stub().Prove(context().get(), by_path, &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");

  // A witness that does not satisfy the circuit: the job is answered, its
  // partition failed as unsatisfied.
  Container w = Container::parse(wtns);
  w.section(2).data[32] ^= 1;  // signal 1, the output: now out != a * b
  v1::SubmitRequest unsat;
  unsat.set_key_id("mult");
  *unsat.add_partitions() = bytes_part(w.bytes(), "unsatisfied.wtns");
  *unsat.add_partitions() = wtns_partition("bn128", "multiplier");
  status = d.stub().Prove(context().get(), unsat, &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(result.partitions_size(), 2);
  EXPECT_FALSE(result.partitions(0).ok());
  EXPECT_EQ(result.partitions(0).error_code(), "unsatisfied");
  EXPECT_NE(result.partitions(0).error().find("does not satisfy"), std::string::npos) << result.partitions(0).error();
  expect_valid_proof(result.partitions(1), "bn128", "multiplier");

  // Preload: a missing file, bytes that are no key, nothing.
  v1::KeyInfo info;
  v1::PreloadRequest missing;
  missing.set_path((dir / "missing.zkey").string());
  EXPECT_EQ(d.stub().Preload(context().get(), missing, &info).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::PreloadRequest garbage;
  garbage.set_zkey(std::string(random.begin(), random.end()));
  garbage.set_name("garbage.zkey");
  status = d.stub().Preload(context().get(), garbage, &info);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("garbage.zkey"), std::string::npos) << status.error_message();
  EXPECT_EQ(d.stub().Preload(context().get(), v1::PreloadRequest{}, &info).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  // Await and Cancel of a job that never was.
  v1::AwaitRequest await;
  await.set_job_id(987654);
  EXPECT_EQ(d.stub().Await(context().get(), await, &result).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::CancelRequest cancel;
  cancel.set_job_id(987654);
  v1::CancelReply cancelled;
  ASSERT_TRUE(d.stub().Cancel(context().get(), cancel, &cancelled).ok());
  EXPECT_FALSE(cancelled.cancelled());
  good();
}

// With key_dirs set, Preload by path takes only files under them ("..", and
// links out of them, do not get out).
TEST_F(Serve, PreloadByPathOnlyUnderTheKeyDirectories) {
  const fs::path keys = dir / "keys";
  fs::create_directories(keys);
  fs::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), keys / "mult.zkey");
  fs::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), dir / "outside.zkey");
  fs::create_symlink(dir / "outside.zkey", keys / "link.zkey");
  Daemon d(dir.path(), "key_dirs = [\"" + keys.string() + "\"]\n");
  v1::KeyInfo info;
  for (const fs::path& outside : {dir / "outside.zkey", keys / ".." / "outside.zkey", keys / "link.zkey"}) {
    SCOPED_TRACE(outside.string());
    v1::PreloadRequest req;
    req.set_path(outside.string());
    const auto status = d.stub().Preload(context().get(), req, &info);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(status.error_message().find("not under a key directory"), std::string::npos) << status.error_message();
  }
  v1::PreloadRequest inside;
  inside.set_path((keys / "mult.zkey").string());
  inside.set_id("mult");
  ASSERT_TRUE(d.stub().Preload(context().get(), inside, &info).ok());
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("mult", "bn128", "multiplier", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");
}

TEST_F(Serve, AdmissionRefusesWorkBeyondTheBound) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")),
           {"--max-pending-partitions", "2"});
  v1::SubmitReply reply;
  const auto status = d.stub().Submit(context().get(), request("mult", "bn128", "multiplier", 3), &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_FALSE(status.error_message().empty());
  // Within the bound, the same work is admitted and proved.
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("mult", "bn128", "multiplier", 2), &result).ok());
  for (const auto& p : result.partitions()) expect_valid_proof(p, "bn128", "multiplier");
}

TEST_F(Serve, CancelFailsWhatIsNotDoneAndStatusListsKeysAndJobs) {
  Daemon d(dir.path(), key_entry("mult", fixture("bls12381", "multiplier", "circuit.zkey")));
  auto req = request("mult", "bls12381", "multiplier", 200);
  req.set_label("long one");
  req.set_priority(3);
  v1::SubmitReply submitted;
  ASSERT_TRUE(d.stub().Submit(context().get(), req, &submitted).ok());

  v1::StatusReply st;
  ASSERT_TRUE(d.stub().Status(context().get(), {}, &st).ok());
  EXPECT_EQ(st.backend(), "cpu");
  EXPECT_FALSE(st.draining());
  EXPECT_FALSE(st.version().empty());
  ASSERT_EQ(st.keys_size(), 1);
  EXPECT_EQ(st.keys(0).id(), "mult");
  ASSERT_EQ(st.jobs_size(), 1);
  EXPECT_EQ(st.jobs(0).job_id(), submitted.job_id());
  EXPECT_EQ(st.jobs(0).key_id(), "mult");
  EXPECT_EQ(st.jobs(0).label(), "long one");
  EXPECT_EQ(st.jobs(0).priority(), 3);
  EXPECT_EQ(st.jobs(0).partitions(), 200u);
  EXPECT_GT(st.queued_partitions() + st.running_partitions(), 0u);
  EXPECT_GT(st.pending_bytes(), 0u);

  v1::CancelRequest cancel;
  cancel.set_job_id(submitted.job_id());
  v1::CancelReply cancelled;
  ASSERT_TRUE(d.stub().Cancel(context().get(), cancel, &cancelled).ok());
  EXPECT_TRUE(cancelled.cancelled());

  v1::AwaitRequest await;
  await.set_job_id(submitted.job_id());
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Await(context().get(), await, &result).ok());
  ASSERT_EQ(result.partitions_size(), 200);
  size_t n_cancelled = 0;
  for (const auto& p : result.partitions()) {
    if (p.ok()) continue;
    EXPECT_EQ(p.error_code(), "cancelled") << p.error();
    n_cancelled += p.error_code() == "cancelled";
  }
  EXPECT_GT(n_cancelled, 0u);
  // Awaited: the job is gone.
  ASSERT_TRUE(d.stub().Cancel(context().get(), cancel, &cancelled).ok());
  EXPECT_FALSE(cancelled.cancelled());
  ASSERT_TRUE(d.stub().Status(context().get(), {}, &st).ok());
  EXPECT_EQ(st.jobs_size(), 0);
}

TEST_F(Serve, AwaitWithATimeoutAnswersDeadlineExceededAndTheJobGoesOn) {
  Daemon d(dir.path(), key_entry("mult", fixture("bls12381", "multiplier", "circuit.zkey")));
  v1::AwaitRequest await;
  ASSERT_NO_FATAL_FAILURE(submit_for_await(d, request("mult", "bls12381", "multiplier", 100), await));
  await.set_timeout_ms(1);
  v1::JobResult result;
  EXPECT_EQ(d.stub().Await(context().get(), await, &result).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  await.set_timeout_ms(0);
  ASSERT_TRUE(d.stub().Await(context().get(), await, &result).ok());
  ASSERT_EQ(result.partitions_size(), 100);
  for (const auto& p : result.partitions()) EXPECT_TRUE(p.ok()) << p.error();
  expect_valid_proof(result.partitions(99), "bls12381", "multiplier");
}

// An Await under way answers as soon as its job is done, not at the end of a
// polling period: from the Submit to the answer, the client waits little more
// than the job's own time (its last partition's total, measured by cuzkd).
// The median of five, so that one slow moment of a busy machine does not count.
TEST_F(Serve, AnAwaitAnswersAsSoonAsItsJobIsDone) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));
  std::vector<double> late_ms;
  for (int i = 0; i < 5; ++i) {
    const auto start = std::chrono::steady_clock::now();
    v1::AwaitRequest await;
    ASSERT_NO_FATAL_FAILURE(submit_for_await(d, request("mult", "bn128", "multiplier", 2), await));
    v1::JobResult result;
    const auto status = d.stub().Await(context().get(), await, &result);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const double waited_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double job_ms = 0;
    for (const auto& p : result.partitions()) job_ms = std::max(job_ms, p.times().total_s() * 1e3);
    late_ms.push_back(waited_ms - job_ms);
  }
  std::sort(late_ms.begin(), late_ms.end());
  EXPECT_LT(late_ms[2], 50.0) << "answers " << late_ms[0] << " to " << late_ms[4] << " ms after their jobs were done";
}

TEST_F(Serve, MetricsCountProofsAndFailuresAndHealthzAnswers) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")));
  ASSERT_GT(d.metrics_port(), 0) << d.log();
  const auto health = http_get(d.metrics_port(), "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");

  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("mult", "bn128", "multiplier", 2), &result).ok());
  Container w = Container::load(fixture("bn128", "multiplier", "witness.wtns"));
  w.section(2).data[32] ^= 1;
  v1::SubmitRequest unsat;
  unsat.set_key_id("mult");
  const Bytes b = w.bytes();
  unsat.add_partitions()->set_wtns(std::string(b.begin(), b.end()));
  ASSERT_TRUE(d.stub().Prove(context().get(), unsat, &result).ok());

  const auto m = http_get(d.metrics_port(), "/metrics");
  ASSERT_EQ(m.status, 200);
  for (const char* line : {"cuzk_proofs_total{curve=\"bn128\",key=\"mult\"} 2",
                           "cuzk_partition_failures_total{key=\"mult\",reason=\"unsatisfied\"} 1",
                           "cuzk_partition_seconds_count{stage=\"total\"} 2",
                           "cuzk_partition_seconds_count{stage=\"synthesis\"} 2", "cuzk_partitions_proved_total 2",
                           "cuzk_partitions_failed_total{reason=\"unsatisfied\"} 1", "cuzk_jobs_submitted_total 2",
                           "cuzk_keys_loaded 1", "cuzk_queued_partitions 0", "cuzk_draining 0",
                           "# TYPE cuzk_partition_seconds histogram", "# TYPE cuzk_host_pool_allocations_total counter",
                           "cuzk_stage_seconds_total{gpu=\"cpu\",stage=\"synthesis\"}"})
    EXPECT_NE(m.body.find(line), std::string::npos) << "no \"" << line << "\" in:\n" << m.body;
  EXPECT_EQ(http_get(d.metrics_port(), "/nothing").status, 404);
}

// Native circuits by name: a key from `cuzk setup --circuit partition`, its
// witnesses synthesized by the daemon from seeds; another size or an unknown
// circuit is refused at submission.
TEST_F(Serve, NativePartitionsProveAgainstASetupKey) {
  const fs::path key = dir / "native.zkey", vk = dir / "native_vk.json";
  const auto made = cuzk({"setup", "--circuit", "partition", "--curve", "bls12_381", "--constraints", "1024",
                          key.string(), "--vk", vk.string(), "--backend", "cpu"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  Daemon d(dir.path(), key_entry("native", key) + "[service]\nnative_circuits = true\n");
  const auto native = [](const std::string& circuit, uint64_t constraints, uint64_t seed) {
    v1::Partition p;
    p.mutable_native()->set_circuit(circuit);
    p.mutable_native()->set_constraints(constraints);
    p.mutable_native()->set_seed(seed);
    return p;
  };
  v1::SubmitRequest req;
  req.set_key_id("native");
  for (uint64_t seed : {1, 2, 3}) *req.add_partitions() = native("partition", 1024, seed);
  v1::JobResult result;
  auto status = d.stub().Prove(context().get(), req, &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(result.partitions_size(), 3);
  for (const auto& p : result.partitions()) expect_verifies(p, "bls12381", vk);
  // Different seeds, different witnesses: the public signals differ.
  EXPECT_NE(result.partitions(0).public_json(), result.partitions(1).public_json());

  req.clear_partitions();
  *req.add_partitions() = native("hash-chain", 1024, 1);
  status = d.stub().Prove(context().get(), req, &result);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("is not the circuit of"), std::string::npos) << status.error_message();
  req.clear_partitions();
  *req.add_partitions() = native("partition", 2048, 1);
  status = d.stub().Prove(context().get(), req, &result);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("larger than"), std::string::npos) << status.error_message();
  req.clear_partitions();
  *req.add_partitions() = native("sudoku", 1024, 1);
  status = d.stub().Prove(context().get(), req, &result);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("sudoku"), std::string::npos) << status.error_message();
}

// A caller that goes away: an Await's job goes on and stays awaitable; a
// Prove's job, which no one else knows, is cancelled and forgotten.
TEST_F(Serve, CallersThatGoAwayLeaveNothingBehind) {
  Daemon d(dir.path(), key_entry("mult", fixture("bls12381", "multiplier", "circuit.zkey")));
  v1::AwaitRequest await;
  ASSERT_NO_FATAL_FAILURE(submit_for_await(d, request("mult", "bls12381", "multiplier", 60), await));
  v1::JobResult result;
  EXPECT_EQ(d.stub().Await(context(50ms).get(), await, &result).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  const auto status = d.stub().Await(context().get(), await, &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(result.partitions_size(), 60);
  for (const auto& p : result.partitions()) EXPECT_TRUE(p.ok()) << p.error();

  EXPECT_EQ(d.stub().Prove(context(300ms).get(), request("mult", "bls12381", "multiplier", 300), &result).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  const auto idle = [&] {
    v1::StatusReply st;
    return d.stub().Status(context().get(), {}, &st).ok() && st.jobs_size() == 0 && st.queued_partitions() == 0 &&
           st.running_partitions() == 0;
  };
  EXPECT_TRUE(eventually(idle, 60s)) << d.log();
}

// A request larger than max_message_bytes is refused by gRPC itself, and the
// daemon goes on serving.
TEST_F(Serve, ARequestOverTheSizeLimitIsRefused) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")),
           {"--max-message-bytes", "4KiB"});
  v1::JobResult result;
  EXPECT_EQ(d.stub().Prove(context().get(), request("mult", "bn128", "multiplier", 1), &result).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::ListKeysReply keys;
  ASSERT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
  EXPECT_EQ(keys.keys_size(), 1);
}

TEST_F(Serve, TheSocketHasTheConfiguredMode) {
  Daemon d(dir.path(), "socket_mode = \"0600\"\n");
  struct stat st{};
  ASSERT_EQ(::stat(d.socket().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  v1::ListKeysReply keys;
  EXPECT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
}

}  // namespace
}  // namespace cuzk::test
