// Several cuzkd processes (CPU backend) sharing one PostgreSQL job queue, as
// hosts of a fleet would: every partition proved exactly once or failed with
// its reason, every proof verified; a worker killed with SIGKILL mid-run
// whose partitions are re-claimed after their lease; the database restarted
// under load; priorities and deadlines honoured by the fleet; clients that
// submit, await and ask for the fleet's status through any cuzkd (cuzk client
// --queue); jobs awaited only by their owners and admins. The server is a
// real one (tests/queue/postgres_server.hpp).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <regex>
#include <thread>

#include "cuzk/ec/curves.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/queue/queue.hpp"
#include "cuzk/queue/schema.hpp"
#include "client_certificates.hpp"
#include "postgres_server.hpp"

namespace cuzk::test {
namespace {

using queue::PgParam;

const char* const kQueueCurves[] = {"bn128", "bls12381"};

class QueueFleet : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!PostgresServer::available(&why)) GTEST_SKIP() << why;
    pg = std::make_unique<PostgresServer>();
    queue::Pg db(pg->conninfo());
    queue::migrate(db);
    q = std::make_unique<queue::Queue>(pg->conninfo());
    for (const char* curve : kQueueCurves) {
      const fs::path zkey = fixture(curve, "linear", "circuit.zkey");
      q->put_key({std::string("linear-") + curve, curve, zkey.string(), queue::sha256_file(zkey.string())});
    }
  }
  // A worker named `host`; extra flags after the defaults, `toml` its configuration file.
  std::unique_ptr<Daemon> worker(const std::string& host, std::vector<std::string> extra = {},
                                 const std::string& toml = "") {
    fs::create_directories(dir.path() / host);
    std::vector<std::string> args{"--selfcheck", "false", "--queue", pg->conninfo(), "--queue-host", host,
                                  "--key-dir", fs::path(CUZK_SOURCE_DIR "/tests/fixtures").string(),
                                  "--witness-dir", fs::path(CUZK_SOURCE_DIR "/tests/fixtures").string(), "--log-level", "info"};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<Daemon>(dir.path() / host, toml, args);
  }
  // Jobs of `per_job` partitions each, alternating curves, from `clients` threads.
  std::vector<int64_t> submit(size_t jobs, size_t per_job, size_t clients = 3) {
    std::vector<int64_t> ids(jobs);
    std::vector<std::thread> t;
    for (size_t c = 0; c < clients; ++c)
      t.emplace_back([&, c] {
        queue::Queue mine(pg->conninfo());
        for (size_t j = c; j < jobs; j += clients) {
          const char* curve = kQueueCurves[j % 2];
          const auto w = read_bytes(fixture(curve, "linear", "witness.wtns"));
          queue::JobRequest r;
          r.key_id = std::string("linear-") + curve;
          r.requester = "client-" + std::to_string(c);
          r.partitions.assign(per_job, {std::string(w.begin(), w.end()), ""});
          ids[j] = mine.submit(r);
        }
      });
    for (auto& x : t) x.join();
    return ids;
  }
  // Every job done, every proof verified against its fixture's vk and publics.
  void expect_all_proved(const std::vector<int64_t>& ids, std::chrono::seconds timeout) {
    size_t proofs = 0;
    for (int64_t id : ids) {
      const auto j = q->await(id, timeout);
      ASSERT_TRUE(j && j->state == "done") << "job " << id << ": " << (j ? j->state : "missing");
      const std::string curve = j->key_id.substr(std::string("linear-").size());
      for (const auto& p : j->partitions) {
        ASSERT_EQ(p.state, "done");
        expect_verified(curve, p.proof, p.publics);
        ++proofs;
      }
    }
    EXPECT_GT(proofs, 0u);
  }
  // The signals are the bytes snarkjs wrote for them, as `cuzk prove` writes them.
  void expect_verified(const std::string& curve, const std::string& proof, const std::string& publics) {
    const fs::path vk = fixture(curve, "linear", "vk.json");
    const Bytes fixture_publics = read_bytes(fixture(curve, "linear", "public.json"));
    EXPECT_EQ(publics, std::string(fixture_publics.begin(), fixture_publics.end()));
    const auto check = [&]<class E>() {
      static std::map<std::string, groth16::VerifyingKey<E>> keys;  // each curve's linear vk
      auto it = keys.find(curve);
      if (it == keys.end()) it = keys.emplace(curve, io::read_vk_json<E>(vk)).first;
      const auto pr = io::parse_proof_json<E>(proof, "proof");
      const auto pub = io::parse_public_json<E>(publics, "publics");
      EXPECT_TRUE(groth16::verify<E>(it->second, pub, pr));
    };
    if (curve == "bn128")
      check.template operator()<ec::Bn254>();
    else
      check.template operator()<ec::Bls12_381>();
  }
  // A job of `n` linear partitions, submitted with `priority` and a deadline
  // `deadline` from now (none: zero).
  int64_t submit_one(const std::string& curve, size_t n, int priority, std::chrono::milliseconds deadline = {}) {
    const auto w = read_bytes(fixture(curve, "linear", "witness.wtns"));
    queue::JobRequest r;
    r.key_id = "linear-" + curve;
    r.priority = priority;
    if (deadline.count()) r.deadline = queue::SystemClock::now() + deadline;
    r.partitions.assign(n, {std::string(w.begin(), w.end()), ""});
    return q->submit(r);
  }
  int64_t count(const std::string& where) {
    return q->db().exec("SELECT count(*) FROM cuzk_partitions WHERE " + where).integer(0, 0);
  }

  TempDir dir;
  std::unique_ptr<PostgresServer> pg;
  std::unique_ptr<queue::Queue> q;
};

// 2,000 partitions over keys of both curves from 3 clients, 3 workers.
TEST_F(QueueFleet, ThreeWorkersProveEveryPartitionOnce) {
  std::vector<std::unique_ptr<Daemon>> workers;
  for (int w = 0; w < 3; ++w) workers.push_back(worker("host-" + std::to_string(w)));
  const auto ids = submit(100, 20);
  expect_all_proved(ids, std::chrono::seconds(600));
  EXPECT_EQ(count("state = 'done'"), 2000);
  EXPECT_EQ(count("attempts <> 1"), 0) << "nothing lapsed or failed, so nothing was proved twice";
  EXPECT_EQ(q->db().exec("SELECT count(DISTINCT proved_by) FROM cuzk_partitions").integer(0, 0), 3)
      << "every worker took part";
  // Key affinity: the fraction of claims whose key the claimer already held.
  double claims = 0, affine = 0;
  for (auto& w : workers) {
    const std::string m = http_get(w->metrics_port(), "/metrics").body;
    const auto read = [&](const char* name) {
      std::smatch s;
      return std::regex_search(m, s, std::regex(std::string(name) + R"(\{[^}]*\} ([0-9.e+]+))")) ? std::stod(s[1]) : -1.0;
    };
    claims += read("cuzk_queue_claims_total");
    affine += read("cuzk_queue_affinity_claims_total");
  }
  EXPECT_EQ(claims, 2000);
  std::printf("key affinity: %.0f of %.0f claims (%.1f%%) found their key loaded\n", affine, claims, 100 * affine / claims);
  EXPECT_GT(affine / claims, 0.9) << "each worker loads each key once, so nearly all claims find it";
}

// The status page's fleet (docs/DAEMON.md, "The status page and
// monitoring"): this host's counters and the queue's hosts, from its own
// connection.
TEST_F(QueueFleet, TheStatusPageShowsTheFleet) {
  auto w = worker("page-host");
  expect_all_proved({submit_one("bn128", 3, 0)}, std::chrono::seconds(120));
  nlohmann::json s;
  const bool shown = eventually(
      [&] {
        s = nlohmann::json::parse(http_get(w->metrics_port(), "/status.json").body);
        const auto& f = s["fleet"];
        return f.is_object() && f["this_host"]["proofs_written"] == 3 && f["fleet"].contains("hosts") &&
               f["fleet"]["partitions"].value("done", 0) == 3;
      },
      20s);
  ASSERT_TRUE(shown) << s["fleet"].dump(1);
  EXPECT_EQ(s["fleet"]["host"], "page-host");
  ASSERT_EQ(s["fleet"]["fleet"]["hosts"].size(), 1u);
  EXPECT_EQ(s["fleet"]["fleet"]["hosts"][0]["host"], "page-host");
  EXPECT_EQ(s["fleet"]["fleet"]["hosts"][0]["proofs"], 3);
}

TEST_F(QueueFleet, AKilledWorkersPartitionsAreReclaimedAfterTheLease) {
  auto a = worker("doomed", {"--queue-lease", "2", "--cpu-workers", "1", "--queue-in-flight", "8"});
  const auto ids = submit(20, 10, 1);
  ASSERT_TRUE(eventually([&] { return count("proved_by = 'doomed'") >= 5; }, 60s));
  a->signal(SIGKILL);
  a->wait_exit(10s);
  const int64_t held = count("state = 'claimed' AND claimed_by = 'doomed'");
  EXPECT_GT(held, 0) << "the worker died holding claims";
  auto b = worker("survivor", {"--queue-lease", "2"});
  expect_all_proved(ids, std::chrono::seconds(300));
  EXPECT_EQ(count("state = 'done'"), 200);
  EXPECT_EQ(count("attempts = 2 AND proved_by = 'survivor'"), held) << "what the dead worker held, re-claimed once";
  EXPECT_EQ(count("errors::text LIKE '%the lease lapsed%'"), held);
}

TEST_F(QueueFleet, TheDatabaseRestartedUnderLoad) {
  auto a = worker("a");
  auto b = worker("b");
  const auto ids = submit(40, 10);
  ASSERT_TRUE(eventually([&] { return count("state = 'done'") >= 20; }, 60s));
  pg->stop();
  std::this_thread::sleep_for(2s);
  pg->start();
  q->db().reconnect();
  expect_all_proved(ids, std::chrono::seconds(300));
  EXPECT_EQ(count("state = 'done'"), 400);
  EXPECT_TRUE(a->wait_for_log("reconnecting", 1s) || b->wait_for_log("reconnecting", 1s)) << a->log();
}

TEST_F(QueueFleet, SigtermGivesUnstartedClaimsBack) {
  auto a = worker("leaving", {"--cpu-workers", "1", "--queue-in-flight", "16"});
  submit(4, 50, 1);
  ASSERT_TRUE(eventually([&] { return count("proved_by = 'leaving'") >= 2; }, 60s));
  a->signal(SIGTERM);
  EXPECT_EQ(a->wait_exit(60s), 0) << a->log();
  EXPECT_EQ(count("state = 'claimed'"), 0) << "nothing left claimed";
  EXPECT_EQ(count("state = 'failed'"), 0);
  EXPECT_EQ(count("state = 'queued' AND attempts <> 0"), 0) << "a release is not an attempt";
  EXPECT_TRUE(a->wait_for_log("given back to the queue", 1s));
}

// Everything is queued before any worker starts, so the order of the claims
// is the queue's: the higher priority first, then the earlier deadline, then
// the rest; a deadline that passed before any host took the job fails it.
// Two workers claim concurrently, so each may take one batch (in-flight 2)
// while the other's claim of the rows before it is still open.
TEST_F(QueueFleet, PrioritiesAndDeadlinesHoldAcrossHosts) {
  const int64_t low = submit_one("bn128", 40, 0);
  const int64_t soon = submit_one("bls12381", 40, 0, std::chrono::hours(1));
  const int64_t high = submit_one("bn128", 40, 5);
  const int64_t late = submit_one("bn128", 10, 0, std::chrono::milliseconds(300));
  std::this_thread::sleep_for(1s);
  std::vector<std::unique_ptr<Daemon>> workers;
  for (const char* host : {"ordered-a", "ordered-b"})
    workers.push_back(worker(host, {"--cpu-workers", "1", "--queue-in-flight", "2"}));
  expect_all_proved({low, soon, high}, std::chrono::seconds(300));
  const auto claimed_before_last_of = [&](int64_t first, int64_t then) {
    return count("job_id = " + std::to_string(then) + " AND claimed_at < (SELECT max(claimed_at) FROM cuzk_partitions "
                 "WHERE job_id = " + std::to_string(first) + ")");
  };
  const int64_t slack = 2 * 2;  // workers x in-flight
  EXPECT_LE(claimed_before_last_of(high, soon), slack) << "priority first";
  EXPECT_LE(claimed_before_last_of(high, low), slack);
  EXPECT_LE(claimed_before_last_of(soon, low), slack) << "then the earlier deadline";
  EXPECT_EQ(count("job_id = " + std::to_string(late) + " AND state = 'failed' AND error LIKE '%deadline passed%'"), 10);
  EXPECT_EQ(q->job(late)->state, "failed");
  EXPECT_EQ(q->db().exec("SELECT count(DISTINCT proved_by) FROM cuzk_partitions WHERE state = 'done'").integer(0, 0), 2);
}

// cuzk client --queue: a job submitted through one cuzkd (registering its key
// by path, witnesses inline and by file:// URL), awaited through another, as
// often as asked; the fleet's status through either; the errors.
TEST_F(QueueFleet, ClientsGoThroughAnyCuzkd) {
  auto a = worker("front-a");
  auto b = worker("front-b");
  const auto at = [](const Daemon& d) { return "unix://" + d.socket().string(); };
  const auto job_id = [](const ProcessResult& r) { return r.out.substr(0, r.out.find('\n')); };
  const std::string zkey = fixture("bn128", "linear", "circuit.zkey").string();
  const std::string wtns = fixture("bn128", "linear", "witness.wtns").string();

  const ProcessResult inline_job = cuzk({"client", "submit", "--queue", "linear-by-rpc", "--key-path", zkey, wtns, wtns,
                                         "--label", "through a", "--daemon", at(*a)});
  ASSERT_EQ(inline_job.exit_code, 0) << inline_job.err;
  const ProcessResult url_job =
      cuzk({"client", "submit", "--queue", "linear-by-rpc", wtns, "--by-path", "--priority", "3", "--daemon", at(*b)});
  ASSERT_EQ(url_job.exit_code, 0) << url_job.err;
  EXPECT_EQ(count("job_id = " + job_id(url_job) + " AND witness_url = 'file://" + wtns + "'"), 1);
  EXPECT_EQ(q->key("linear-by-rpc")->content_hash, queue::sha256_file(zkey)) << "registered by the cuzkd, hashed";

  TempDir out;
  const ProcessResult got =
      cuzk({"client", "await", "--queue", job_id(inline_job), "--out", out.path().string(), "--daemon", at(*b)});
  ASSERT_EQ(got.exit_code, 0) << got.err;
  for (int i = 0; i < 2; ++i) {
    const auto base = out.path() / ("partition-" + std::to_string(i));
    const Bytes proof = read_bytes(base.string() + ".proof.json"), pub = read_bytes(base.string() + ".public.json");
    expect_verified("bn128", std::string(proof.begin(), proof.end()), std::string(pub.begin(), pub.end()));
  }
  // Awaited again, through the other cuzkd, as JSON: the queue keeps the job.
  const ProcessResult again = cuzk({"client", "await", "--queue", job_id(url_job), "--daemon", at(*a)});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const nlohmann::json j = nlohmann::json::parse(again.out);
  ASSERT_EQ(j["partitions"].size(), 1u);
  EXPECT_TRUE(j["partitions"][0]["ok"].get<bool>());
  EXPECT_EQ(j["partitions"][0]["attempts"], 1);
  EXPECT_EQ(j["partitions"][0]["proved_by"].get<std::string>().rfind("front-", 0), 0u);
  // The stage times the worker stored with the proof, read back by the other cuzkd.
  const auto& times = j["partitions"][0]["times_s"];
  EXPECT_GT(times["prove"].get<double>(), 0.0) << times;
  EXPECT_GE(times["total"].get<double>(), times["prove"].get<double>() + times["synthesis"].get<double>()) << times;
  EXPECT_EQ(j["curve"], "bn128");

  const ProcessResult fleet = cuzk({"client", "status", "--queue", "--daemon", at(*a)});
  ASSERT_EQ(fleet.exit_code, 0) << fleet.err;
  EXPECT_NE(fleet.out.find("partitions: done 3\n"), std::string::npos) << fleet.out;
  EXPECT_NE(fleet.out.find("front-"), std::string::npos) << fleet.out;

  const ProcessResult unknown = cuzk({"client", "await", "--queue", "987654", "--daemon", at(*a)});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no job 987654"), std::string::npos) << unknown.err;
  const ProcessResult no_key = cuzk({"client", "submit", "--queue", "never-registered", wtns, "--daemon", at(*a)});
  EXPECT_EQ(no_key.exit_code, 2);
  EXPECT_NE(no_key.err.find("no key never-registered"), std::string::npos) << no_key.err;
  const ProcessResult pending = cuzk({"client", "await", "--queue", std::to_string(submit_one("bn128", 50, -1)),
                                      "--timeout-ms", "1", "--daemon", at(*a)});
  EXPECT_EQ(pending.exit_code, 1) << "a timeout that passed first";

  // A key registered by path is checked against key_dirs as a Preload's is
  // (before: any file cuzkd could read was hashed and registered).
  fs::copy_file(zkey, dir.path() / "outside.zkey");
  const ProcessResult outside = cuzk({"client", "submit", "--queue", "outside", "--key-path",
                                      (dir.path() / "outside.zkey").string(), wtns, "--daemon", at(*a)});
  EXPECT_NE(outside.exit_code, 0);
  EXPECT_NE(outside.err.find("not under a key directory"), std::string::npos) << outside.err;
  EXPECT_FALSE(q->key("outside")) << "registered";

  fs::create_directories(dir.path() / "plain");
  Daemon plain(dir.path() / "plain", "", {"--selfcheck", "false"});
  const ProcessResult refused = cuzk({"client", "status", "--queue", "--daemon", at(plain)});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("start cuzkd with --queue"), std::string::npos) << refused.err;
}

// A queue job is its submitter's, as the fleet names it: a client
// certificate's name on every host, a Unix user's uid qualified by the host
// it called. To a caller who is neither the owner nor an admin, Queue.Await
// answers as for a job that does not exist, word for word; a job from before
// owners (or inserted with SQL) is an admin's only. Two hosts, each with the
// test's uid a plain user on its socket, alice and carol (an admin) on TLS.
// Before: Queue.Await answered any caller about any job (issue 34).
TEST_F(QueueFleet, AJobIsAwaitedOnlyByItsOwnerAndAnAdmin) {
  if (!ClientCertificates::available()) GTEST_SKIP() << "no openssl to make certificates with";
  const ClientCertificates certs({"alice", "carol"});
  const std::string auth = "[auth]\ndefault_admins = false\nadmin_uids = []\nadmin_names = [\"carol\"]\n";
  auto a = worker("owners-a", certs.daemon_args(), auth);
  auto b = worker("owners-b", certs.daemon_args(), auth);
  const auto unix_user = [](const Daemon& d) {
    return v1::Queue::NewStub(grpc::CreateChannel("unix:" + d.socket().string(), grpc::InsecureChannelCredentials()));
  };
  const auto as = [&](const Daemon& d, const std::string& name) { return v1::Queue::NewStub(certs.channel(d, name)); };
  const auto submit = [](v1::Queue::Stub& stub) {
    const auto w = read_bytes(fixture("bn128", "linear", "witness.wtns"));
    v1::QueueSubmitRequest req;
    req.set_key_id("linear-bn128");
    req.set_requester("cert:carol");  // a label: it grants nothing
    req.add_partitions()->set_wtns(std::string(w.begin(), w.end()));
    v1::SubmitReply reply;
    const grpc::Status status = stub.Submit(context(20s).get(), req, &reply);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return (int64_t)reply.job_id();
  };
  const auto await = [](v1::Queue::Stub& stub, int64_t id) {
    v1::AwaitRequest req;
    req.set_job_id((uint64_t)id);
    req.set_timeout_ms(60'000);
    v1::JobResult result;
    const grpc::Status status = stub.Await(context(90s).get(), req, &result);
    EXPECT_TRUE(!status.ok() || (result.job_id() == (uint64_t)id && result.partitions_size() == 1 &&
                                 result.partitions(0).ok()))
        << result.DebugString();
    return status;
  };
  const auto expect_unknown = [&](v1::Queue::Stub& stub, int64_t id) {
    const grpc::Status s = await(stub, id);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
    EXPECT_EQ(s.error_message(), "no job " + std::to_string(id) + " in the queue");
  };
  const auto owner = [&](int64_t id) { return q->job(id)->owner; };
  const auto user_a = unix_user(*a), user_b = unix_user(*b);
  const auto alice_a = as(*a, "alice"), alice_b = as(*b, "alice"), carol_b = as(*b, "carol");

  expect_unknown(*user_a, 987654);  // the answer every other case below must match
  const int64_t alices = submit(*alice_a);
  EXPECT_EQ(owner(alices), "cert:alice");
  expect_unknown(*user_a, alices);
  expect_unknown(*user_b, alices);
  EXPECT_TRUE(await(*alice_b, alices).ok()) << "a certificate's name holds on every host";
  EXPECT_TRUE(await(*carol_b, alices).ok());

  const int64_t users = submit(*user_a);
  EXPECT_EQ(owner(users), "uid:" + std::to_string(::getuid()) + "@owners-a");
  EXPECT_TRUE(await(*user_a, users).ok());
  expect_unknown(*user_b, users);  // the same uid on another host may be another user
  expect_unknown(*alice_a, users);
  EXPECT_TRUE(await(*carol_b, users).ok());

  const int64_t nobodys = submit_one("bn128", 1, 0);  // no owner: as a job from before owners
  EXPECT_EQ(owner(nobodys), "");
  expect_unknown(*user_a, nobodys);
  expect_unknown(*alice_a, nobodys);
  EXPECT_TRUE(await(*carol_b, nobodys).ok());
}

// cuzk db keys, key-repoint and key-remove (the operator's): refused in one
// line while a job that names the id is unfinished; a worker that proved
// with the id's old key loads the new one (its claim carries the new hash).
TEST_F(QueueFleet, OperatorsRepointAndRemoveKeysWithCuzkDb) {
  const std::string url = pg->conninfo();
  const std::string bls = fixture("bls12381", "linear", "circuit.zkey").string();
  const int64_t first = submit_one("bn128", 1, 0);
  for (const std::vector<std::string>& verb :
       {std::vector<std::string>{"db", "key-repoint", "--queue", url, "linear-bn128", bls},
        std::vector<std::string>{"db", "key-remove", "--queue", url, "linear-bn128"}}) {
    const ProcessResult busy = cuzk(verb);
    EXPECT_NE(busy.exit_code, 0) << verb[1];
    EXPECT_EQ(busy.err, "error: key linear-bn128: 1 unfinished job uses it; await or let them finish first\n");
  }
  auto w = worker("keeper");
  ASSERT_EQ(q->await(first, std::chrono::seconds(60))->state, "done");

  const ProcessResult moved = cuzk({"db", "key-repoint", "--queue", url, "linear-bn128", bls});
  ASSERT_EQ(moved.exit_code, 0) << moved.err;
  EXPECT_NE(moved.out.find(queue::sha256_file(bls)), std::string::npos) << moved.out;
  const ProcessResult listed = cuzk({"db", "keys", "--queue", url});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find(bls), std::string::npos) << listed.out;
  EXPECT_TRUE(std::regex_search(listed.out, std::regex("\n  linear-bn128 +bls12381 +[0-9T:Z-]+ +1 +0 "))) << listed.out;

  const auto w_bls = read_bytes(fixture("bls12381", "linear", "witness.wtns"));
  queue::JobRequest r;
  r.key_id = "linear-bn128";
  r.partitions.push_back({std::string(w_bls.begin(), w_bls.end()), ""});
  const auto second = q->await(q->submit(r), std::chrono::seconds(60));
  ASSERT_EQ(second->state, "done") << second->partitions.at(0).error;
  expect_verified("bls12381", second->partitions.at(0).proof, second->partitions.at(0).publics);

  const ProcessResult removed = cuzk({"db", "key-remove", "--queue", url, "linear-bn128"});
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  EXPECT_FALSE(q->key("linear-bn128"));
  const ProcessResult again = cuzk({"db", "key-remove", "--queue", url, "linear-bn128"});
  EXPECT_NE(again.exit_code, 0);
  EXPECT_EQ(again.err, "error: no key linear-bn128 is registered in the queue\n");
}

}  // namespace
}  // namespace cuzk::test
