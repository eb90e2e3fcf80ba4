// The job queue against a real PostgreSQL server (postgres_server.hpp): the
// schema's migrations, claim order (priority, deadline, key affinity), leases
// that lapse and are re-claimed, attempts that run out, results written once
// under concurrent workers, and a server restart under a client.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>

#include "cuzk/queue/queue.hpp"
#include "cuzk/queue/schema.hpp"
#include "postgres_server.hpp"

namespace cuzk::queue {
namespace {

using namespace std::chrono_literals;

class QueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!test::PostgresServer::available(&why)) GTEST_SKIP() << why;
    server = std::make_unique<test::PostgresServer>();
    Pg db(server->conninfo());
    migrate(db);
  }
  std::unique_ptr<Queue> queue(QueueOptions o = {}) { return std::make_unique<Queue>(server->conninfo(), o); }
  static KeyRecord key(const std::string& id) { return {id, "bn128", "/keys/" + id + ".zkey", "hash-" + id}; }
  static JobRequest job(const std::string& key_id, size_t partitions, int priority = 0) {
    JobRequest j;
    j.key_id = key_id;
    j.priority = priority;
    for (size_t i = 0; i < partitions; ++i) j.partitions.push_back({"wtns-" + std::to_string(i), ""});
    return j;
  }
  // The channels a connection LISTENs on.
  static int64_t listening(Queue& q) { return q.db().exec("SELECT count(*) FROM pg_listening_channels()").integer(0, 0); }
  std::unique_ptr<test::PostgresServer> server;
};

TEST_F(QueueTest, MigrationsAreIdempotentAndSafeConcurrently) {
  test::PostgresServer fresh;
  {
    Pg db(fresh.conninfo());
    EXPECT_THROW(
        {
          try {
            Queue q(fresh.conninfo());
          } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("cuzk db migrate"), std::string::npos) << e.what();
            throw;
          }
        },
        std::runtime_error);
  }
  std::vector<std::thread> starts;
  std::atomic<int> failures{0}, from_zero{0};
  for (int i = 0; i < 4; ++i)
    starts.emplace_back([&] {
      try {
        Pg db(fresh.conninfo());
        if (migrate(db) == 0) ++from_zero;
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++failures;
      }
    });
  for (auto& t : starts) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(from_zero, 1) << "exactly one start applies the migrations";
  Pg db(fresh.conninfo());
  EXPECT_EQ(migrate(db), schema_version());
  EXPECT_NO_THROW(Queue q(fresh.conninfo()));
}

// A queue of schema version 2, whose jobs had no owner, migrated to this
// build's: its job and partition stay, owned by '' (no caller's name, so only
// admins see it through a cuzkd), and are claimed as before; a job submitted
// after keeps its owner.
TEST_F(QueueTest, MigratingFromVersion2KeepsOldJobsForAdminsOnly) {
  test::PostgresServer old;
  Pg db(old.conninfo());
  EXPECT_THROW(migrate(db, schema_version() + 1), std::invalid_argument);
  ASSERT_EQ(migrate(db, 2), 0);
  EXPECT_THROW(Queue q(old.conninfo()), std::runtime_error) << "version 2 is not this build's";
  db.exec("INSERT INTO cuzk_keys (id, curve, location, content_hash) VALUES ('k', 'bn128', '/keys/k.zkey', 'hash-k')");
  const int64_t id =
      db.exec("INSERT INTO cuzk_jobs (key_id, partitions, requester) VALUES ('k', 1, 'someone') RETURNING id")
          .integer(0, 0);
  db.exec("INSERT INTO cuzk_partitions (job_id, part, key_id, priority, witness) VALUES ($1, 0, 'k', 0, 'old')",
          {PgParam::text(std::to_string(id))});

  EXPECT_EQ(migrate(db), 2);
  Queue q(old.conninfo());
  const std::optional<JobRecord> kept = q.job(id);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->owner, "");
  EXPECT_EQ(kept->state, "queued");
  const std::vector<Claim> c = q.claim("host-a", 5, {});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].job_id, id);
  EXPECT_EQ(c[0].witness, "old");
  JobRequest mine = job("k", 1);
  mine.owner = "cert:alice";
  EXPECT_EQ(q.job(q.submit(mine))->owner, "cert:alice");
}

TEST_F(QueueTest, SubmitClaimCompleteAwait) {
  auto q = queue();
  q->put_key(key("k"));
  const int64_t id = q->submit(job("k", 3));
  auto c = q->claim("host-a", 2, {});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].part, 0);
  EXPECT_EQ(c[0].witness, "wtns-0");
  EXPECT_EQ(c[0].attempt, 1);
  EXPECT_EQ(q->job(id)->state, "running");
  for (const Claim& x : c) EXPECT_TRUE(q->complete(x, "host-a", "{\"p\":" + std::to_string(x.part) + "}", "[]", "{}"));
  // A connection that never waits listens to nothing: libpq would keep every
  // notification sent to it, for as long as the connection lives.
  EXPECT_EQ(listening(*q), 0);
  EXPECT_FALSE(q->await(id, 50ms)->finished());
  EXPECT_EQ(listening(*q), 1) << "an await listens for finished jobs only";
  auto rest = q->claim("host-b", 5, {});
  ASSERT_EQ(rest.size(), 1u);
  std::thread finisher([&] {
    auto other = queue();
    std::this_thread::sleep_for(100ms);
    other->complete(rest[0], "host-b", "{\"p\":2}", "[]", "{\"prove\":1}");
  });
  const auto j = q->await(id, 10s);
  finisher.join();
  ASSERT_TRUE(j && j->finished());
  EXPECT_EQ(j->state, "done");
  ASSERT_EQ(j->partitions.size(), 3u);
  EXPECT_EQ(j->partitions[2].proof, "{\"p\":2}");
  EXPECT_EQ(j->partitions[2].proved_by, "host-b");
  EXPECT_TRUE(q->claim("host-a", 5, {}).empty());
  const FleetStatus f = q->fleet();
  EXPECT_EQ(f.partitions, (std::vector<std::pair<std::string, int64_t>>{{"done", 3}}));
  ASSERT_EQ(f.hosts.size(), 2u);
  EXPECT_EQ(f.hosts[0].host, "host-a");
  EXPECT_EQ(f.hosts[0].proofs, 2);
  EXPECT_EQ(f.hosts[1].proofs_last_minute, 1);
  EXPECT_EQ(f.hosts[1].claimed, 0);
}

TEST_F(QueueTest, KeysAreRegisteredByPathAndHashedOnce) {
  auto q = queue();
  const std::string zkey = CUZK_SOURCE_DIR "/tests/fixtures/bn128/linear/circuit.zkey";
  const KeyRecord k = q->register_key(zkey, "linear");
  EXPECT_EQ(k.curve, "bn128");
  EXPECT_EQ(k.content_hash, sha256_file(zkey));
  EXPECT_EQ(q->key("linear")->location, zkey);
  // Registered again by the same path: the record, not a new read of the file.
  q->db().exec("UPDATE cuzk_keys SET content_hash = 'as recorded' WHERE id = 'linear'");
  EXPECT_EQ(q->register_key(zkey, "linear").content_hash, "as recorded");
  EXPECT_EQ(q->register_key(zkey).id, "circuit") << "the stem by default";
  // Another file under the same id, and a file that is no zkey, are refused.
  EXPECT_THROW(q->register_key(CUZK_SOURCE_DIR "/tests/fixtures/bls12381/linear/circuit.zkey", "linear"),
               std::invalid_argument);
  EXPECT_ANY_THROW(q->register_key(CUZK_SOURCE_DIR "/tests/fixtures/bn128/linear/witness.wtns", "not-a-key"));
  EXPECT_FALSE(q->key("not-a-key"));
}

TEST_F(QueueTest, PriorityThenDeadlineThenResidentKeyThenAge) {
  auto q = queue();
  for (const char* k : {"a", "b"}) q->put_key(key(k));
  const int64_t old_a = q->submit(job("a", 1));
  const int64_t b = q->submit(job("b", 1));
  JobRequest soon = job("a", 1);
  soon.deadline = SystemClock::now() + 1h;
  const int64_t deadline = q->submit(soon);
  const int64_t urgent = q->submit(job("b", 1, 5));
  std::vector<int64_t> order;
  for (int i = 0; i < 4; ++i) order.push_back(q->claim("h", 1, {"b"}).at(0).job_id);
  EXPECT_EQ(order, (std::vector<int64_t>{urgent, deadline, b, old_a}));
}

TEST_F(QueueTest, ALapsedLeaseIsReclaimedAndTheFirstResultStays) {
  QueueOptions o;
  o.lease = 1s;
  auto q = queue(o);
  q->put_key(key("k"));
  const int64_t id = q->submit(job("k", 1));
  const Claim first = q->claim("slow", 1, {}).at(0);
  EXPECT_EQ(q->renew("slow"), 1u);
  std::this_thread::sleep_for(1500ms);
  const Sweep s = q->sweep();
  EXPECT_EQ(s.requeued, 1u);
  const Claim second = q->claim("fast", 1, {}).at(0);
  EXPECT_EQ(second.attempt, 2);
  EXPECT_EQ(q->renew("slow"), 0u) << "the slow host no longer holds it";
  EXPECT_TRUE(q->complete(first, "slow", "{\"first\":1}", "[]", "{}")) << "a late result is still the first";
  EXPECT_FALSE(q->complete(second, "fast", "{\"second\":1}", "[]", "{}"));
  const auto j = q->job(id);
  EXPECT_EQ(j->state, "done");
  EXPECT_EQ(j->partitions[0].proof, "{\"first\":1}");
  EXPECT_EQ(j->partitions[0].proved_by, "slow");
}

TEST_F(QueueTest, AttemptsRunOutWithTheirReasons) {
  QueueOptions o;
  o.lease = 1s;
  o.max_attempts = 2;
  auto q = queue(o);
  q->put_key(key("k"));
  const int64_t lapses = q->submit(job("k", 1));
  q->claim("h1", 1, {});
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(q->sweep().requeued, 1u);
  q->claim("h2", 1, {});
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(q->sweep().failed, 1u);
  auto j = q->job(lapses);
  EXPECT_EQ(j->state, "failed");
  EXPECT_NE(j->partitions[0].error.find("lapsed on h2 at attempt 2 of 2"), std::string::npos) << j->partitions[0].error;

  const int64_t retried = q->submit(job("k", 1));
  q->fail(q->claim("h1", 1, {}).at(0), "h1", "GPU fault", true);
  EXPECT_EQ(q->job(retried)->partitions[0].state, "queued");
  q->fail(q->claim("h2", 1, {}).at(0), "h2", "GPU fault again", true);
  j = q->job(retried);
  EXPECT_EQ(j->state, "failed");
  EXPECT_EQ(j->partitions[0].error, "GPU fault again");
  const PgResult reasons =
      q->db().exec("SELECT jsonb_array_length(errors) FROM cuzk_partitions WHERE job_id = $1", {PgParam::text(std::to_string(retried))});
  EXPECT_EQ(reasons.integer(0, 0), 2);

  const int64_t bad = q->submit(job("k", 2));
  q->fail(q->claim("h1", 1, {}).at(0), "h1", "the witness does not satisfy the circuit", false);
  EXPECT_EQ(q->job(bad)->partitions[0].state, "failed") << "a bad witness is not retried";
  EXPECT_EQ(q->job(bad)->state, "running");
  EXPECT_TRUE(q->complete(q->claim("h1", 1, {}).at(0), "h1", "{}", "[]", "{}"));
  EXPECT_EQ(q->job(bad)->state, "failed");
}

TEST_F(QueueTest, ReleaseGivesClaimsBackWithoutCountingThem) {
  auto q = queue();
  q->put_key(key("k"));
  q->submit(job("k", 3));
  EXPECT_EQ(q->claim("h", 3, {}).size(), 3u);
  EXPECT_EQ(q->release("h"), 3u);
  const auto again = q->claim("g", 3, {});
  ASSERT_EQ(again.size(), 3u);
  for (const Claim& c : again) EXPECT_EQ(c.attempt, 1);
}

TEST_F(QueueTest, ConcurrentWorkersProveEachPartitionExactlyOnce) {
  auto q = queue();
  q->put_key(key("k"));
  std::vector<int64_t> jobs;
  for (int i = 0; i < 20; ++i) jobs.push_back(q->submit(job("k", 20, i % 3)));
  std::atomic<int> written{0}, claimed{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&, w] {
      auto mine = queue();
      const std::string host = "worker-" + std::to_string(w);
      for (;;) {
        const auto c = mine->claim(host, 7, {});
        if (c.empty()) return;
        claimed += (int)c.size();
        for (const Claim& x : c) written += mine->complete(x, host, "{}", "[]", "{}") ? 1 : 0;
      }
    });
  for (auto& t : workers) t.join();
  EXPECT_EQ(claimed, 400);
  EXPECT_EQ(written, 400);
  for (int64_t id : jobs) EXPECT_EQ(q->job(id)->state, "done") << id;
}

// A key id names one key until the operator removes or re-points it (cuzk db
// key-remove, key-repoint), each refused while an unfinished job names the
// id; finished jobs keep the id they were proved under, and a claim carries
// the hash of the key it is to be proved with.
TEST_F(QueueTest, OperatorsRemoveAndRepointKeysNoUnfinishedJobUses) {
  auto q = queue();
  const std::string bn = CUZK_SOURCE_DIR "/tests/fixtures/bn128/linear/circuit.zkey";
  const std::string bls = CUZK_SOURCE_DIR "/tests/fixtures/bls12381/linear/circuit.zkey";
  const KeyRecord first = q->register_key(bn, "k");
  const int64_t done = q->submit(job("k", 1));
  std::vector<KeyListing> keys = q->keys();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].key.id, "k");
  EXPECT_EQ(keys[0].key.location, bn);
  EXPECT_EQ(keys[0].key.content_hash, first.content_hash);
  EXPECT_EQ(keys[0].registered_at.size(), 20u) << keys[0].registered_at;  // 2026-12-05T18:25:33Z
  EXPECT_EQ(keys[0].jobs, 1);
  EXPECT_EQ(keys[0].unfinished, 1);

  const auto refused = [&](auto&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("(not refused)");
  };
  EXPECT_EQ(refused([&] { q->remove_key("k"); }), "key k: 1 unfinished job uses it; await or let them finish first");
  EXPECT_EQ(refused([&] { q->repoint_key("k", bls); }), "key k: 1 unfinished job uses it; await or let them finish first");
  EXPECT_EQ(q->key("k")->content_hash, first.content_hash);

  const Claim c = q->claim("h", 1, {}).at(0);
  EXPECT_EQ(c.key_hash, first.content_hash);
  EXPECT_TRUE(q->complete(c, "h", "{}", "[]", "{}"));
  const KeyRecord second = q->repoint_key("k", bls);
  EXPECT_EQ(second.curve, "bls12381");
  EXPECT_EQ(second.content_hash, sha256_file(bls));
  EXPECT_EQ(q->key("k")->location, bls);
  EXPECT_EQ(q->keys().at(0).unfinished, 0);
  EXPECT_EQ(q->keys().at(0).jobs, 1);
  EXPECT_NE(refused([&] { q->repoint_key("k", CUZK_SOURCE_DIR "/tests/fixtures/bn128/linear/witness.wtns"); }),
            "(not refused)");
  EXPECT_EQ(q->key("k")->content_hash, second.content_hash) << "a file that is no key changes nothing";

  q->submit(job("k", 1));
  const Claim d = q->claim("h", 1, {}).at(0);
  EXPECT_EQ(d.key_hash, second.content_hash) << "the re-pointed key's";
  EXPECT_NE(refused([&] { q->remove_key("k"); }), "(not refused)");
  q->fail(d, "h", "no", false);
  q->remove_key("k");
  EXPECT_FALSE(q->key("k"));
  EXPECT_TRUE(q->keys().empty());
  EXPECT_EQ(q->job(done)->state, "done") << "a finished job stays";
  EXPECT_EQ(refused([&] { q->submit(job("k", 1)); }), "no key k is registered in the queue");
  EXPECT_EQ(refused([&] { q->remove_key("k"); }), "no key k is registered in the queue");
  EXPECT_EQ(refused([&] { q->repoint_key("missing", bn); }), "no key missing is registered in the queue");
}

TEST_F(QueueTest, BadInputIsRefusedWithItsReason) {
  QueueOptions o;
  o.max_inline_witness = 8;
  auto q = queue(o);
  q->put_key(key("k"));
  EXPECT_NO_THROW(q->put_key(key("k")));
  KeyRecord changed = key("k");
  changed.content_hash = "other";
  EXPECT_THROW(q->put_key(changed), std::invalid_argument);
  KeyRecord curve = key("c");
  curve.curve = "bls12_377";
  EXPECT_THROW(q->put_key(curve), std::invalid_argument);
  EXPECT_THROW(q->submit(job("missing", 1)), std::invalid_argument);
  EXPECT_THROW(q->submit(job("k", 0)), std::invalid_argument);
  JobRequest big = job("k", 1);
  big.partitions[0].witness = std::string(9, 'w');
  EXPECT_THROW(q->submit(big), std::invalid_argument);
  JobRequest url = job("k", 1);
  url.partitions[0] = {"", "http://example.com/w.wtns"};
  EXPECT_THROW(q->submit(url), std::invalid_argument);
  url.partitions[0] = {"", "file:///shared/w.wtns"};
  const int64_t id = q->submit(url);
  EXPECT_EQ(q->claim("h", 1, {}).at(0).witness_url, "file:///shared/w.wtns");
  EXPECT_GT(id, 0);
}

TEST_F(QueueTest, AServerRestartIsSurvivedByReconnecting) {
  auto q = queue();
  q->put_key(key("k"));
  const int64_t id = q->submit(job("k", 1));
  server->stop();
  try {
    q->claim("h", 1, {});
    ADD_FAILURE() << "a claim with the server down succeeded";
  } catch (const PgError& e) {
    EXPECT_TRUE(e.connection_lost()) << e.what() << " (" << e.sqlstate() << ")";
  }
  server->start();
  q->db().reconnect();
  const Claim c = q->claim("h", 1, {}).at(0);
  EXPECT_EQ(c.job_id, id);
  EXPECT_TRUE(q->complete(c, "h", "{}", "[]", "{}"));
}

}  // namespace
}  // namespace cuzk::queue
