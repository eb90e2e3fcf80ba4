// cuzkd under load: 8 clients at once send 1,040 partitions in jobs of 1 to 5
// over four keys (both curves, two sizes). Some jobs carry a witness that does
// not satisfy its circuit, some are cancelled as soon as they are submitted,
// some have a deadline that expires at once. Every partition comes back
// exactly once: a proof of a good witness that verifies, or a failure with its
// reason (unsatisfied, cancelled, deadline_exceeded) where one applies; and
// the daemon's resident memory at the end is within 10% of what it was when a
// quarter of the work was done.
#include <atomic>
#include <cstdio>
#include <functional>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "daemon_support.hpp"

namespace cuzk::test {
namespace {

constexpr int kClients = 8;
constexpr int kPartitionsPerClient = 130;

struct KeyUse {
  std::string id, curve, circuit;
};

const KeyUse kKeys[] = {{"mult_bn", "bn128", "multiplier"},
                        {"lin_bn", "bn128", "linear"},
                        {"mult_bls", "bls12381", "multiplier"},
                        {"lin_bls", "bls12381", "linear"}};

// VmRSS of a process, in KiB.
long resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// How a job is sent, chosen from its number so that every client sends each kind.
enum class Kind { good, with_unsatisfied, cancelled, expiring };

Kind kind_of(int job) {
  switch (job % 7) {
    case 3: return Kind::with_unsatisfied;
    case 5: return Kind::cancelled;
    case 6: return Kind::expiring;
    default: return Kind::good;
  }
}

// A partition whose witness is well formed but does not satisfy the circuit
// (its last signal changed, still below r).
v1::Partition unsatisfied_partition(const KeyUse& k) {
  v1::Partition p = wtns_partition(k.curve, k.circuit);
  std::string& w = *p.mutable_wtns();
  w[w.size() - 32] ^= 1;
  return p;
}

struct Tally {
  std::mutex mu;
  std::set<uint64_t> job_ids;
  std::atomic<int> sent{0}, returned{0}, proved{0}, unsatisfied{0}, cancelled{0}, expired{0};
};

// One client: jobs until it has sent its partitions; every outcome checked.
void client(Daemon& d, int index, Tally& tally, const std::function<void(int)>& progress) {
  int sent = 0;
  for (int job = 0; sent < kPartitionsPerClient; ++job) {
    const KeyUse& key = kKeys[(index + job) % 4];
    const Kind kind = kind_of(job);
    const int n = std::min(1 + (index + job) % 5, kPartitionsPerClient - sent);
    v1::SubmitRequest req;
    req.set_key_id(key.id);
    req.set_priority((index + job) % 3);
    req.set_label("client " + std::to_string(index));
    if (kind == Kind::expiring) req.set_deadline_ms(1);
    for (int p = 0; p < n; ++p)
      *req.add_partitions() = kind == Kind::with_unsatisfied && p == 0 ? unsatisfied_partition(key)
                                                                       : wtns_partition(key.curve, key.circuit);
    v1::SubmitReply submitted;
    const auto s = d.stub().Submit(context().get(), req, &submitted);
    ASSERT_TRUE(s.ok()) << s.error_message();
    {
      std::lock_guard lock(tally.mu);
      EXPECT_TRUE(tally.job_ids.insert(submitted.job_id()).second) << "job id " << submitted.job_id() << " twice";
    }
    tally.sent += n;
    sent += n;
    if (kind == Kind::cancelled) {
      v1::CancelRequest cancel;
      cancel.set_job_id(submitted.job_id());
      v1::CancelReply cancelled;
      ASSERT_TRUE(d.stub().Cancel(context().get(), cancel, &cancelled).ok());
    }
    v1::AwaitRequest await;
    await.set_job_id(submitted.job_id());
    v1::JobResult result;
    const auto a = d.stub().Await(context().get(), await, &result);
    ASSERT_TRUE(a.ok()) << a.error_message();
    ASSERT_EQ(result.partitions_size(), n) << "job " << submitted.job_id();
    for (int p = 0; p < n; ++p) {
      const auto& r = result.partitions(p);
      const int returned = ++tally.returned;
      if (r.ok()) {
        EXPECT_FALSE(kind == Kind::with_unsatisfied && p == 0) << "an unsatisfied witness was proved";
        expect_valid_proof(r, key.curve, key.circuit);
        ++tally.proved;
      } else if (kind == Kind::with_unsatisfied && p == 0) {
        EXPECT_EQ(r.error_code(), "unsatisfied") << r.error();
        ++tally.unsatisfied;
      } else if (kind == Kind::cancelled) {
        EXPECT_EQ(r.error_code(), "cancelled") << r.error();
        ++tally.cancelled;
      } else if (kind == Kind::expiring) {
        EXPECT_EQ(r.error_code(), "deadline_exceeded") << r.error();
        ++tally.expired;
      } else {
        ADD_FAILURE() << "a good partition failed: " << r.error_code() << ": " << r.error();
      }
      progress(returned);
    }
  }
}

TEST(Load, EightClientsThousandPartitionsNothingLostMemoryFlat) {
  TempDir dir;
  std::string keys;
  for (const KeyUse& k : kKeys) keys += key_entry(k.id, fixture(k.curve, k.circuit, "circuit.zkey"));
  Daemon d(dir.path(), keys, {"--cpu-workers", "2", "--threads", "1"});
  Tally tally;
  constexpr int total = kClients * kPartitionsPerClient;
  std::atomic<long> rss_at_quarter{-1};
  const auto progress = [&](int returned) {
    if (returned == total / 4) rss_at_quarter = resident_kib(d.pid());
  };
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) clients.emplace_back([&, c] { client(d, c, tally, progress); });
  for (auto& t : clients) t.join();
  const long rss_at_end = resident_kib(d.pid());

  EXPECT_EQ(tally.sent, total);
  EXPECT_EQ(tally.returned, total) << "every partition comes back, once";
  EXPECT_EQ(tally.proved + tally.unsatisfied + tally.cancelled + tally.expired, total);
  EXPECT_GT(tally.unsatisfied, 0);
  EXPECT_GT(tally.cancelled + tally.expired, 0);
  EXPECT_GT(tally.proved, total / 2);
  ASSERT_GT(rss_at_quarter, 0);
  EXPECT_LE(rss_at_end, rss_at_quarter * 11 / 10)
      << "resident memory grew from " << rss_at_quarter << " KiB at a quarter to " << rss_at_end << " KiB";

  v1::StatusReply status;
  ASSERT_TRUE(d.stub().Status(context().get(), {}, &status).ok());
  EXPECT_EQ(status.queued_partitions() + status.running_partitions(), 0u);
  EXPECT_EQ(status.pending_bytes(), 0u);
  std::printf("load: %d partitions from %d clients: %d proved, %d unsatisfied, %d cancelled, %d past their deadline; "
              "cuzkd RSS %ld KiB at a quarter, %ld KiB at the end\n",
              total, kClients, tally.proved.load(), tally.unsatisfied.load(), tally.cancelled.load(),
              tally.expired.load(), rss_at_quarter.load(), rss_at_end);
}

}  // namespace
}  // namespace cuzk::test
