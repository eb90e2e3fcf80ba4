// Who may do what in cuzkd (src/daemon/auth.hpp, docs/SECURITY.md's rights
// table): a real cuzkd with three identities at once, none of them root:
// the test's own uid on the Unix socket, made a plain user by
// `default_admins = false`, and two clients on loopback TCP whose
// certificates (made here with openssl, signed by a test CA) name "alice",
// a plain user, and "carol", an admin by `admin_names`. Before: every caller
// had every right (issue 34, "No authorization").
#include <unistd.h>

#include "client_certificates.hpp"

namespace cuzk::test {
namespace {

class Authorization : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ClientCertificates::available()) GTEST_SKIP() << "no openssl to make certificates with";
    certs = std::make_unique<ClientCertificates>(std::vector<std::string>{"alice", "carol"});
    daemon = std::make_unique<Daemon>(
        dir.path(),
        key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")) +
            "[auth]\ndefault_admins = false\nadmin_uids = []\nadmin_names = [\"carol\"]\n",
        certs->daemon_args());
  }

  // A stub on the TLS listener with NAME's certificate.
  std::unique_ptr<v1::Prover::Stub> as(const std::string& name) {
    return v1::Prover::NewStub(certs->channel(*daemon, name));
  }

  static uint64_t submit(v1::Prover::Stub& stub, const std::string& label) {
    v1::SubmitRequest req;
    req.set_key_id("mult");
    req.set_label(label);
    *req.add_partitions() = wtns_partition("bn128", "multiplier");
    v1::SubmitReply reply;
    const auto status = stub.Submit(context(20s).get(), req, &reply);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return reply.job_id();
  }
  // The labels of the jobs `stub`'s caller sees in Status.
  static std::vector<std::string> labels(v1::Prover::Stub& stub) {
    v1::StatusReply reply;
    const auto status = stub.Status(context(20s).get(), {}, &reply);
    EXPECT_TRUE(status.ok()) << status.error_message();
    std::vector<std::string> out;
    for (const auto& j : reply.jobs()) out.push_back(j.label());
    return out;
  }
  static grpc::Status await(v1::Prover::Stub& stub, uint64_t id, v1::JobResult* result) {
    v1::AwaitRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(60'000);
    return stub.Await(context(90s).get(), req, result);
  }
  static bool cancel(v1::Prover::Stub& stub, uint64_t id) {
    v1::CancelRequest req;
    req.set_job_id(id);
    v1::CancelReply reply;
    const auto status = stub.Cancel(context(20s).get(), req, &reply);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return reply.cancelled();
  }

  TempDir dir;
  std::unique_ptr<ClientCertificates> certs;
  std::unique_ptr<Daemon> daemon;
};

using Labels = std::vector<std::string>;

// Another plain user can neither see, await nor cancel a job: it is answered
// as an id that does not exist. Its owner and an admin can. Before: Status
// listed every job with its label to every caller, and anyone could await or
// cancel it.
TEST_F(Authorization, AJobIsSeenOnlyByItsOwnerAndAnAdmin) {
  v1::Prover::Stub& unix_user = daemon->stub();  // uid:<the test's>, not an admin here
  const auto alice = as("alice");
  const auto carol = as("carol");

  const uint64_t a = submit(*alice, "alice's");
  EXPECT_EQ(labels(unix_user), Labels{});
  EXPECT_EQ(labels(*alice), Labels{"alice's"});
  EXPECT_EQ(labels(*carol), Labels{"alice's"});
  v1::JobResult result;
  const grpc::Status foreign = await(unix_user, a, &result);
  const grpc::Status unknown = await(unix_user, a + 1000, &result);
  EXPECT_EQ(foreign.error_code(), grpc::StatusCode::NOT_FOUND) << foreign.error_message();
  // Word for word the answer for an unknown id but the number: nothing tells that it exists.
  EXPECT_EQ(foreign.error_message(), "no job " + std::to_string(a) + " (unknown, or already awaited)");
  EXPECT_EQ(unknown.error_message(), "no job " + std::to_string(a + 1000) + " (unknown, or already awaited)");
  EXPECT_FALSE(cancel(unix_user, a));
  // Its owner awaits it, and it was not cancelled by the stranger.
  const grpc::Status own = await(*alice, a, &result);
  ASSERT_TRUE(own.ok()) << own.error_message();
  ASSERT_EQ(result.partitions_size(), 1);
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");

  // A job of the Unix socket's user: alice does not see it, its owner and the admin do.
  const uint64_t u = submit(unix_user, "unix user's");
  EXPECT_EQ(labels(*alice), Labels{});
  EXPECT_EQ(await(*alice, u, &result).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_FALSE(cancel(*alice, u));
  EXPECT_EQ(labels(unix_user), Labels{"unix user's"});
  EXPECT_EQ(labels(*carol), Labels{"unix user's"});
  // The admin cancels and awaits another's job.
  EXPECT_TRUE(cancel(*carol, u));
  const grpc::Status by_admin = await(*carol, u, &result);
  ASSERT_TRUE(by_admin.ok()) << by_admin.error_message();
  EXPECT_EQ(result.job_id(), u);
  EXPECT_EQ(labels(unix_user), Labels{});  // awaited: gone
}

// Loading and evicting keys is an admin's right: a plain user on either
// listener is refused with one line that names the right and the caller,
// and the key stays; the admin loads and evicts. Before: any caller replaced
// or evicted the key that other callers' jobs named.
TEST_F(Authorization, KeyManagementIsAnAdminsRight) {
  v1::Prover::Stub& unix_user = daemon->stub();
  const auto alice = as("alice");
  const auto carol = as("carol");
  const Bytes zkey = read_bytes(fixture("bn128", "multiplier", "circuit.zkey"));
  v1::PreloadRequest preload;
  preload.set_zkey(std::string(zkey.begin(), zkey.end()));
  preload.set_id("mult2");
  v1::EvictRequest evict;
  evict.set_id("mult");
  const std::string me = "uid:" + std::to_string(::getuid());
  for (auto [stub, name] : {std::pair<v1::Prover::Stub*, std::string>{&unix_user, me}, {alice.get(), "cert:alice"}}) {
    SCOPED_TRACE(name);
    v1::KeyInfo info;
    const grpc::Status loaded = stub->Preload(context(20s).get(), preload, &info);
    EXPECT_EQ(loaded.error_code(), grpc::StatusCode::PERMISSION_DENIED) << loaded.error_message();
    EXPECT_EQ(loaded.error_message(),
              "Preload is an admin's right, and " + name + " is not an admin ([auth] admin_uids, admin_names)");
    v1::EvictReply evicted;
    const grpc::Status gone = stub->Evict(context(20s).get(), evict, &evicted);
    EXPECT_EQ(gone.error_code(), grpc::StatusCode::PERMISSION_DENIED) << gone.error_message();
    EXPECT_EQ(gone.error_message().find('\n'), std::string::npos);
  }
  v1::ListKeysReply keys;
  ASSERT_TRUE(unix_user.ListKeys(context(20s).get(), {}, &keys).ok());
  ASSERT_EQ(keys.keys_size(), 1);
  EXPECT_EQ(keys.keys(0).id(), "mult");

  v1::KeyInfo info;
  const grpc::Status loaded = carol->Preload(context(60s).get(), preload, &info);
  ASSERT_TRUE(loaded.ok()) << loaded.error_message();
  v1::EvictReply evicted;
  ASSERT_TRUE(carol->Evict(context(20s).get(), evict, &evicted).ok());
  EXPECT_TRUE(evicted.evicted());
}

}  // namespace
}  // namespace cuzk::test
