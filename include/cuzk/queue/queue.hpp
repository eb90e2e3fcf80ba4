// The job queue in PostgreSQL: what clients submit and await, and what every
// cuzkd worker claims, leases, proves and writes back. The database is the
// only shared state; every transition is one transaction, so that a worker
// killed at any point leaves either its claim (which expires) or its result,
// never half of one. A partition's result is written at most once: the first
// host to finish it wins, and a later one (a re-claim after a lease expired
// on a slow host) finds it done and discards its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/queue/pg.hpp"

namespace cuzk::queue {

using SystemClock = std::chrono::system_clock;

struct QueueOptions {
  std::chrono::seconds lease{30};  // a claim lapses this long after its last renewal
  int max_attempts = 3;            // claims of one partition before it is failed with its reasons
  size_t max_inline_witness = size_t(16) << 20;  // larger witnesses go by URL (docs/QUEUE.md says why)
};

struct KeyRecord {
  std::string id;
  std::string curve;         // "bn128" or "bls12381"
  std::string location;      // the zkey's path as every worker sees it (shared storage)
  std::string content_hash;  // hex SHA-256 of the file: a worker proves only with the key it names
};

// A registered key as the operator sees it (cuzk db keys).
struct KeyListing {
  KeyRecord key;
  std::string registered_at;       // ISO 8601, UTC
  int64_t jobs = 0, unfinished = 0;  // jobs that name it, and those of them queued or running
};

struct NewPartition {
  std::string witness;      // the .wtns bytes inline, or empty with
  std::string witness_url;  // file:///shared/path.wtns
};

struct JobRequest {
  std::string key_id;
  std::vector<NewPartition> partitions;
  int priority = 0;
  std::optional<SystemClock::time_point> deadline;
  std::string requester, label;  // text the client chose, not an identity
  // Who may await the job through a cuzkd besides admins: the submitter as
  // every host of the fleet names it (daemon/auth.hpp); empty: admins only.
  std::string owner;
};

// One partition a worker holds until it writes the result or the lease lapses.
struct Claim {
  int64_t job_id = 0;
  int part = 0;
  std::string key_id;
  std::string witness, witness_url;
  std::string key_hash;    // the key's content_hash when claimed (a re-pointed id has a new one)
  int attempt = 0;         // 1 on the first claim
  bool key_was_resident = false;  // the claimer said it held the key (affinity)
};

struct PartitionRecord {
  int part = 0;
  std::string state;  // queued, claimed, done, failed
  std::string proof, publics, times, proved_by, error;
  int attempts = 0;
};

struct JobRecord {
  int64_t id = 0;
  std::string key_id, state;  // queued, running, done, failed
  std::string owner;          // as JobRequest's
  std::vector<PartitionRecord> partitions;
  bool finished() const { return state == "done" || state == "failed"; }
};

// The whole fleet at a glance (cuzk db status, cuzk client status --queue).
struct HostStatus {
  std::string host;
  int64_t claimed = 0, proofs_last_minute = 0, proofs = 0;
};
struct FleetStatus {
  std::vector<std::pair<std::string, int64_t>> partitions;  // by state, in name order
  std::vector<HostStatus> hosts;                            // every host that holds or proved a partition
  int64_t partitions_with_failed_attempts = 0, failed_attempts = 0;
};

struct Sweep {
  size_t requeued = 0, failed = 0;  // lapsed leases put back, or failed after max_attempts; deadlines passed
};

// Hex SHA-256 of a file's contents: a key's content_hash.
std::string sha256_file(const std::string& path);

class Queue {
 public:
  // Connects; the schema must be this build's (schema.hpp).
  Queue(std::string conninfo, QueueOptions options = {});

  const QueueOptions& options() const { return options_; }
  Pg& db() { return db_; }
  // Whether the server delivers NOTIFY (else waiting polls).
  bool notifications() const { return notifications_; }

  // Registers a key; the same id with another hash or curve is an error.
  void put_key(const KeyRecord& key);
  // The key `id` (default: the file's stem) as the .zkey at `path` (made
  // absolute: the path every worker reads): registered with the curve of its
  // header, which is checked, and its hash, unless the id names that path
  // already, which costs no read of a key that may be tens of GB; the workers
  // check the hash when they load it.
  KeyRecord register_key(const std::string& path, std::string id = {});
  std::optional<KeyRecord> key(const std::string& id);
  // Every registered key, by id. A key id names one key until the operator
  // removes or re-points it, each refused (std::invalid_argument, one line)
  // while jobs that name it are unfinished, whose workers must prove with
  // the key they were submitted against.
  std::vector<KeyListing> keys();
  void remove_key(const std::string& id);
  // The key `id` as the .zkey at `path` (made absolute), of its header's
  // curve and its hash read anew.
  KeyRecord repoint_key(const std::string& id, const std::string& path);

  int64_t submit(const JobRequest& job);

  // Leases that lapsed go back to the queue (or fail after max_attempts), and
  // queued partitions whose deadline passed fail.
  Sweep sweep();
  // Up to n queued partitions, highest priority first, then earliest
  // deadline, then those of keys in `resident` (the claimer's GPUs hold them),
  // then oldest; each leased to `host`.
  std::vector<Claim> claim(const std::string& host, size_t n, const std::vector<std::string>& resident);
  // Extends every lease `host` holds; returns how many it holds.
  size_t renew(const std::string& host);
  // The proof of a claimed partition; false when another host wrote it first.
  bool complete(const Claim& c, const std::string& host, const std::string& proof, const std::string& publics,
                const std::string& times_json);
  // A failure: `retry` puts the partition back (until max_attempts), else it fails now.
  void fail(const Claim& c, const std::string& host, const std::string& error, bool retry);
  // Gives back what `host` holds (a clean shutdown), not counted as attempts.
  size_t release(const std::string& host);

  std::optional<JobRecord> job(int64_t id);
  // Partitions waiting to be claimed, over every key (the queue's depth).
  int64_t queued();
  FleetStatus fleet();
  // Waits until the job has finished or the timeout passes (LISTEN, or polling).
  std::optional<JobRecord> await(int64_t id, std::chrono::milliseconds timeout);
  // Waits for new work (a NOTIFY on submit, or the poll interval).
  void wait_for_work(std::chrono::milliseconds timeout);
  // Waits for jobs to finish: the ids a NOTIFY named within `timeout` (none
  // on a timeout, and always none where the server has no NOTIFY).
  std::vector<int64_t> wait_for_done(std::chrono::milliseconds timeout);

 private:
  void finish_job_if_done(int64_t job_id);
  // Within a transaction: the key `id`, locked against removal or change
  // until it ends, or throws naming the id; `changing`: refused while
  // unfinished jobs name it.
  KeyRecord lock_key(const std::string& id, bool changing);
  QueueOptions options_;
  Pg db_;
  bool notifications_ = false;
};

}  // namespace cuzk::queue
