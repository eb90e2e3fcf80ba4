#include "cuzk/queue/schema.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace cuzk::queue {

namespace {

// Each migration is a list of statements run in one transaction. Only what
// YugabyteDB's YSQL also supports: no LOCK TABLE, no advisory locks, no
// deferrable constraints, no generated columns (docs/QUEUE.md lists the checks).
constexpr const char* kV1[] = {
    R"sql(CREATE TABLE cuzk_keys (
  id            TEXT PRIMARY KEY,
  curve         TEXT NOT NULL CHECK (curve IN ('bn128', 'bls12381')),
  location      TEXT NOT NULL,
  content_hash  TEXT NOT NULL,
  registered_at TIMESTAMPTZ NOT NULL DEFAULT now()))sql",
    R"sql(CREATE TABLE cuzk_jobs (
  id           BIGSERIAL PRIMARY KEY,
  key_id       TEXT NOT NULL REFERENCES cuzk_keys (id),
  priority     INT NOT NULL DEFAULT 0,
  deadline     TIMESTAMPTZ,
  state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  partitions   INT NOT NULL CHECK (partitions > 0),
  requester    TEXT NOT NULL DEFAULT '',
  label        TEXT NOT NULL DEFAULT '',
  submitted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at   TIMESTAMPTZ,
  done_at      TIMESTAMPTZ))sql",
    R"sql(CREATE TABLE cuzk_partitions (
  job_id        BIGINT NOT NULL REFERENCES cuzk_jobs (id) ON DELETE CASCADE,
  part          INT NOT NULL,
  key_id        TEXT NOT NULL,
  priority      INT NOT NULL,
  deadline      TIMESTAMPTZ,
  witness       BYTEA,
  witness_url   TEXT,
  state         TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed')),
  attempts      INT NOT NULL DEFAULT 0,
  claimed_by    TEXT,
  claimed_at    TIMESTAMPTZ,
  lease_expires TIMESTAMPTZ,
  proof         TEXT,
  publics       TEXT,
  times         JSONB,
  proved_by     TEXT,
  error         TEXT,
  errors        JSONB NOT NULL DEFAULT '[]',
  done_at       TIMESTAMPTZ,
  PRIMARY KEY (job_id, part),
  CHECK ((witness IS NULL) <> (witness_url IS NULL)),
  CHECK ((state = 'done') = (proof IS NOT NULL)),
  CHECK ((state = 'claimed') = (lease_expires IS NOT NULL))))sql",
    // What claim() scans: the queued partitions in the order they are taken.
    "CREATE INDEX cuzk_partitions_queued ON cuzk_partitions (priority DESC, deadline, job_id, part) "
    "WHERE state = 'queued'",
    // What the lease sweep scans.
    "CREATE INDEX cuzk_partitions_leases ON cuzk_partitions (lease_expires) WHERE state = 'claimed'",
};

// A key id may be removed or re-pointed by the operator once no unfinished
// job names it (Queue::remove_key, repoint_key), so finished jobs keep the id
// they were proved under without a foreign key holding the key in place;
// submit locks the key's row instead, for as long as it inserts its job.
constexpr const char* kV2[] = {
    "ALTER TABLE cuzk_jobs DROP CONSTRAINT IF EXISTS cuzk_jobs_key_id_fkey",
    // What the refusal to change a key in use, and `cuzk db keys`, count.
    "CREATE INDEX cuzk_jobs_key ON cuzk_jobs (key_id, state)",
};

// A job's owner: who submitted it, as every host of the fleet names that
// caller; only the owner and admins may await it through a cuzkd. Jobs from
// before, and rows inserted with SQL that name none, get '', which names no
// caller: only admins see them.
constexpr const char* kV3[] = {
    "ALTER TABLE cuzk_jobs ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
};

struct Migration {
  const char* const* statements;
  size_t count;
};
template <size_t N>
constexpr Migration migration(const char* const (&s)[N]) {
  return {s, N};
}
constexpr std::array kMigrations = {migration(kV1), migration(kV2), migration(kV3)};

// The version row, made inside the migration's transaction. Concurrent first
// starts would otherwise race on CREATE TABLE IF NOT EXISTS, whose loser sees
// a unique violation or "type already exists" depending on where it lost;
// the transaction-scoped advisory lock taken first makes them take turns.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(7170000001)";  // any fixed key, cuzk's alone

void ensure_version_table(Pg& db) {
  db.exec(
      "CREATE TABLE IF NOT EXISTS cuzk_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL, "
      "migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())");
  db.exec("INSERT INTO cuzk_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
}

int current_version(Pg& db, bool lock) {
  const PgResult r = db.exec(std::string("SELECT version FROM cuzk_schema WHERE id = 1") + (lock ? " FOR UPDATE" : ""));
  return r.rows() ? (int)r.integer(0, 0) : 0;
}

}  // namespace

int schema_version() { return (int)kMigrations.size(); }

int migrate(Pg& db, int version) {
  if (version < 0 || version > schema_version())
    throw std::invalid_argument("no schema version " + std::to_string(version) + " (this cuzk's is " +
                                std::to_string(schema_version()) + ")");
  return db.transaction([&] {
    db.exec(kMigrationLock);
    ensure_version_table(db);
    const int before = current_version(db, true);
    if (before > schema_version())
      throw std::runtime_error("the queue's schema is version " + std::to_string(before) + ", newer than this cuzk's " +
                               std::to_string(schema_version()) + ": upgrade cuzk");
    if (before >= version) return before;
    for (int v = before; v < version; ++v) {
      const Migration& m = kMigrations[(size_t)v];
      for (size_t i = 0; i < m.count; ++i) db.exec(m.statements[i]);
    }
    db.exec("UPDATE cuzk_schema SET version = $1, migrated_at = now() WHERE id = 1",
            {PgParam::text(std::to_string(version))});
    return before;
  });
}

void require_schema(Pg& db) {
  int version = 0;
  try {
    version = current_version(db, false);
  } catch (const PgError& e) {
    if (e.sqlstate() != "42P01") throw;  // undefined_table: never migrated
  }
  if (version == schema_version()) return;
  throw std::runtime_error("the queue's schema is version " + std::to_string(version) + ", this cuzk's is " +
                           std::to_string(schema_version()) +
                           (version < schema_version() ? ": run `cuzk db migrate` (or cuzkd --migrate)" : ": upgrade cuzk"));
}

}  // namespace cuzk::queue
