#include "cuzk/queue/queue.hpp"

#include <openssl/evp.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "cuzk/io/zkey.hpp"
#include "cuzk/queue/schema.hpp"

namespace cuzk::queue {

namespace {

constexpr const char* kWorkChannel = "cuzk_work";  // payload: the job id submitted
constexpr const char* kDoneChannel = "cuzk_done";  // payload: the job id finished

std::string num(int64_t v) { return std::to_string(v); }

// A text[] literal for = ANY($n::text[]): {"a","b"} with quotes and backslashes escaped.
std::string text_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\"" : "\"";
    for (char ch : items[i]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out + "}";
}

std::string seconds(std::chrono::seconds s) { return num(s.count()); }

}  // namespace

std::string sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || !EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr)) throw std::runtime_error("SHA-256: no context");
  std::vector<char> buf(size_t(4) << 20);
  while (in) {
    in.read(buf.data(), (std::streamsize)buf.size());
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buf.data(), (size_t)in.gcount());
  }
  if (in.bad()) throw std::runtime_error("reading " + path + " failed");
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned i = 0; i < len; ++i) (hex += kHex[md[i] >> 4]) += kHex[md[i] & 15];
  return hex;
}

Queue::Queue(std::string conninfo, QueueOptions options) : options_(options), db_(std::move(conninfo)) {
  require_schema(db_);
  // Whether the server has LISTEN/NOTIFY: one LISTEN tried and taken back. A
  // connection listens only once it waits (await, wait_for_work): one that
  // never waits would keep every notification it is sent in libpq's memory.
  notifications_ = db_.listen(kWorkChannel);
  if (notifications_) db_.unlisten(kWorkChannel);
}

void Queue::put_key(const KeyRecord& k) {
  if (k.curve != "bn128" && k.curve != "bls12381") throw std::invalid_argument("key " + k.id + ": unknown curve " + k.curve);
  db_.exec("INSERT INTO cuzk_keys (id, curve, location, content_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING",
           {PgParam::text(k.id), PgParam::text(k.curve), PgParam::text(k.location), PgParam::text(k.content_hash)});
  const std::optional<KeyRecord> have = key(k.id);
  if (!have || have->curve != k.curve || have->content_hash != k.content_hash)
    throw std::invalid_argument("key " + k.id + " is registered with another " +
                                (have && have->curve != k.curve ? "curve" : "content hash") +
                                ": register the new one under a new id, or re-point this one (cuzk db key-repoint) "
                                "once no unfinished job uses it");
}

KeyRecord Queue::lock_key(const std::string& id, bool changing) {
  const PgResult r = db_.exec(std::string("SELECT id, curve, location, content_hash FROM cuzk_keys WHERE id = $1 ") +
                                  (changing ? "FOR UPDATE" : "FOR SHARE"),
                              {PgParam::text(id)});
  if (!r.rows()) throw std::invalid_argument("no key " + id + " is registered in the queue");
  if (changing) {
    // Read after the row lock: a submit that named the key has committed its job.
    const PgResult u = db_.exec("SELECT count(*) FROM cuzk_jobs WHERE key_id = $1 AND state IN ('queued', 'running')",
                                {PgParam::text(id)});
    if (const int64_t n = u.integer(0, 0))
      throw std::invalid_argument("key " + id + ": " + num(n) + (n == 1 ? " unfinished job uses" : " unfinished jobs use") +
                                  " it; await or let them finish first");
  }
  return KeyRecord{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.text(0, 3)};
}

std::vector<KeyListing> Queue::keys() {
  const PgResult r = db_.exec(
      "SELECT k.id, k.curve, k.location, k.content_hash, "
      "  to_char(k.registered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
      "  count(j.id), count(j.id) FILTER (WHERE j.state IN ('queued', 'running')) "
      "FROM cuzk_keys k LEFT JOIN cuzk_jobs j ON j.key_id = k.id GROUP BY k.id ORDER BY k.id");
  std::vector<KeyListing> out(r.rows());
  for (size_t i = 0; i < r.rows(); ++i)
    out[i] = {{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3)}, r.text(i, 4), r.integer(i, 5), r.integer(i, 6)};
  return out;
}

void Queue::remove_key(const std::string& id) {
  db_.transaction([&] {
    lock_key(id, true);
    db_.exec("DELETE FROM cuzk_keys WHERE id = $1", {PgParam::text(id)});
  });
}

KeyRecord Queue::repoint_key(const std::string& id, const std::string& path) {
  const std::filesystem::path key = std::filesystem::absolute(path).lexically_normal();
  const io::ZkeyHeader header = io::read_zkey_header(key);
  const KeyRecord rec{id, ec::curve_name(header.curve), key.string(), sha256_file(key.string())};
  db_.transaction([&] {
    lock_key(id, true);
    db_.exec("UPDATE cuzk_keys SET curve = $2, location = $3, content_hash = $4, registered_at = now() WHERE id = $1",
             {PgParam::text(rec.id), PgParam::text(rec.curve), PgParam::text(rec.location),
              PgParam::text(rec.content_hash)});
  });
  return rec;
}

KeyRecord Queue::register_key(const std::string& path, std::string id) {
  const std::filesystem::path key = std::filesystem::absolute(path).lexically_normal();
  if (id.empty()) id = key.stem().string();
  if (std::optional<KeyRecord> have = this->key(id); have && have->location == key.string()) return *have;
  const io::ZkeyHeader header = io::read_zkey_header(key);
  KeyRecord rec{std::move(id), ec::curve_name(header.curve), key.string(), sha256_file(key.string())};
  put_key(rec);
  return rec;
}

std::optional<KeyRecord> Queue::key(const std::string& id) {
  const PgResult r = db_.exec("SELECT id, curve, location, content_hash FROM cuzk_keys WHERE id = $1", {PgParam::text(id)});
  if (!r.rows()) return std::nullopt;
  return KeyRecord{r.text(0, 0), r.text(0, 1), r.text(0, 2), r.text(0, 3)};
}

int64_t Queue::submit(const JobRequest& job) {
  if (job.partitions.empty()) throw std::invalid_argument("a job needs at least one partition");
  for (size_t i = 0; i < job.partitions.size(); ++i) {
    const NewPartition& p = job.partitions[i];
    if (p.witness.empty() == p.witness_url.empty())
      throw std::invalid_argument("partition " + num((int64_t)i) + ": give the witness inline or by URL, one of them");
    if (p.witness.size() > options_.max_inline_witness)
      throw std::invalid_argument("partition " + num((int64_t)i) + ": a witness of " + num((int64_t)p.witness.size()) +
                                  " bytes is over the inline limit of " + num((int64_t)options_.max_inline_witness) +
                                  "; put it on shared storage and give its file:// URL");
    if (!p.witness_url.empty() && !p.witness_url.starts_with("file:///"))
      throw std::invalid_argument("partition " + num((int64_t)i) + ": witness URL " + p.witness_url +
                                  " is not a file:/// URL on storage the workers share");
  }
  const std::string deadline =
      job.deadline ? num(std::chrono::duration_cast<std::chrono::microseconds>(job.deadline->time_since_epoch()).count())
                   : "";
  const PgParam deadline_param = job.deadline ? PgParam::text(deadline) : PgParam::null();
  const std::string priority = num(job.priority);
  return db_.transaction([&] {
    lock_key(job.key_id, false);
    const PgResult r = db_.exec(
        "INSERT INTO cuzk_jobs (key_id, priority, deadline, partitions, requester, label, owner) "
        "VALUES ($1, $2, to_timestamp($3::bigint / 1e6), $4, $5, $6, $7) RETURNING id",
        {PgParam::text(job.key_id), PgParam::text(priority), deadline_param,
         PgParam::text(num((int64_t)job.partitions.size())), PgParam::text(job.requester), PgParam::text(job.label),
         PgParam::text(job.owner)});
    const std::string id = r.text(0, 0);
    for (size_t i = 0; i < job.partitions.size(); ++i) {
      const NewPartition& p = job.partitions[i];
      db_.exec(
          "INSERT INTO cuzk_partitions (job_id, part, key_id, priority, deadline, witness, witness_url) "
          "VALUES ($1, $2, $3, $4, to_timestamp($5::bigint / 1e6), $6, $7)",
          {PgParam::text(id), PgParam::text(num((int64_t)i)), PgParam::text(job.key_id), PgParam::text(priority),
           deadline_param, p.witness.empty() ? PgParam::null() : PgParam::bytes(p.witness),
           p.witness_url.empty() ? PgParam::null() : PgParam::text(p.witness_url)});
    }
    if (notifications_) db_.exec("SELECT pg_notify($1, $2)", {PgParam::text(kWorkChannel), PgParam::text(id)});
    return (int64_t)std::stoll(id);
  });
}

Sweep Queue::sweep() {
  Sweep s;
  const std::string max = num(options_.max_attempts);
  const PgResult r = db_.exec(
      "UPDATE cuzk_partitions SET "
      "  state = CASE WHEN attempts >= $1 THEN 'failed' ELSE 'queued' END, "
      "  error = CASE WHEN attempts >= $1 THEN 'the lease lapsed on ' || claimed_by || ' at attempt ' || attempts || "
      "          ' of ' || $1 ELSE error END, "
      "  errors = errors || jsonb_build_array(jsonb_build_object('host', claimed_by, 'attempt', attempts, "
      "          'error', 'the lease lapsed', 'at', now())), "
      "  done_at = CASE WHEN attempts >= $1 THEN now() END, "
      "  claimed_by = NULL, lease_expires = NULL "
      "WHERE state = 'claimed' AND lease_expires < now() RETURNING job_id, state",
      {PgParam::text(max)});
  std::vector<int64_t> touched;
  for (size_t i = 0; i < r.rows(); ++i) {
    (r.value(i, 1) == "failed" ? s.failed : s.requeued) += 1;
    if (r.value(i, 1) == "failed") touched.push_back(r.integer(i, 0));
  }
  const PgResult late = db_.exec(
      "UPDATE cuzk_partitions SET state = 'failed', done_at = now(), "
      "  error = 'the deadline passed before any host took it' "
      "WHERE state = 'queued' AND deadline < now() RETURNING job_id");
  s.failed += late.rows();
  for (size_t i = 0; i < late.rows(); ++i) touched.push_back(late.integer(i, 0));
  for (int64_t job : touched) finish_job_if_done(job);
  return s;
}

std::vector<Claim> Queue::claim(const std::string& host, size_t n, const std::vector<std::string>& resident) {
  if (n == 0) return {};
  return db_.transaction([&] {
    // Binary results: the witness comes as raw bytes, not hex.
    const PgResult r = db_.exec(
        "WITH pick AS ("
        "  SELECT job_id, part FROM cuzk_partitions WHERE state = 'queued' "
        "  ORDER BY priority DESC, deadline ASC NULLS LAST, (key_id = ANY($3::text[])) DESC, job_id, part "
        "  LIMIT $2 FOR UPDATE SKIP LOCKED) "
        "UPDATE cuzk_partitions p SET state = 'claimed', claimed_by = $1, claimed_at = now(), "
        "  lease_expires = now() + make_interval(secs => $4::int), attempts = p.attempts + 1 "
        "FROM pick WHERE p.job_id = pick.job_id AND p.part = pick.part "
        "RETURNING p.job_id, p.part, p.key_id, p.witness, p.witness_url, p.attempts, "
        "  (p.key_id = ANY($3::text[]))::int, (SELECT content_hash FROM cuzk_keys k WHERE k.id = p.key_id)",
        {PgParam::text(host), PgParam::text(num((int64_t)n)), PgParam::text(text_array(resident)),
         PgParam::text(seconds(options_.lease))},
        true);
    std::vector<Claim> out(r.rows());
    std::string jobs = "{";
    for (size_t i = 0; i < r.rows(); ++i) {
      Claim& c = out[i];
      c.job_id = r.integer(i, 0);
      c.part = (int)r.integer(i, 1);
      c.key_id = r.text(i, 2);
      if (!r.is_null(i, 3)) c.witness = r.text(i, 3);
      if (!r.is_null(i, 4)) c.witness_url = r.text(i, 4);
      c.attempt = (int)r.integer(i, 5);
      c.key_was_resident = r.integer(i, 6) != 0;
      if (!r.is_null(i, 7)) c.key_hash = r.text(i, 7);
      if (i) jobs += ',';
      jobs += num(c.job_id);
    }
    if (!out.empty())
      db_.exec("UPDATE cuzk_jobs SET state = 'running', started_at = now() WHERE id = ANY($1::bigint[]) AND state = 'queued'",
               {PgParam::text(jobs + "}")});
    return out;
  });
}

size_t Queue::renew(const std::string& host) {
  return db_
      .exec("UPDATE cuzk_partitions SET lease_expires = now() + make_interval(secs => $2::int) "
            "WHERE state = 'claimed' AND claimed_by = $1",
            {PgParam::text(host), PgParam::text(seconds(options_.lease))})
      .affected();
}

bool Queue::complete(const Claim& c, const std::string& host, const std::string& proof, const std::string& publics,
                     const std::string& times_json) {
  return db_.transaction([&] {
    // The job's row first: its last partitions, finished on two hosts at once,
    // then see each other's result, and exactly one of them closes the job.
    db_.exec("SELECT 1 FROM cuzk_jobs WHERE id = $1 FOR UPDATE", {PgParam::text(num(c.job_id))});
    const size_t written =
        db_.exec("UPDATE cuzk_partitions SET state = 'done', proof = $3, publics = $4, times = $5::jsonb, "
                 "  proved_by = $6, done_at = now(), claimed_by = NULL, lease_expires = NULL "
                 "WHERE job_id = $1 AND part = $2 AND state IN ('queued', 'claimed')",
                 {PgParam::text(num(c.job_id)), PgParam::text(num(c.part)), PgParam::text(proof),
                  PgParam::text(publics), PgParam::text(times_json), PgParam::text(host)})
            .affected();
    if (written) finish_job_if_done(c.job_id);
    return written == 1;
  });
}

void Queue::fail(const Claim& c, const std::string& host, const std::string& error, bool retry) {
  db_.transaction([&] {
    db_.exec("SELECT 1 FROM cuzk_jobs WHERE id = $1 FOR UPDATE", {PgParam::text(num(c.job_id))});
    db_.exec(
        "UPDATE cuzk_partitions SET "
        "  state = CASE WHEN $5 AND attempts < $6 THEN 'queued' ELSE 'failed' END, "
        "  error = CASE WHEN $5 AND attempts < $6 THEN error ELSE $4 END, "
        "  done_at = CASE WHEN $5 AND attempts < $6 THEN NULL ELSE now() END, "
        "  errors = errors || jsonb_build_array(jsonb_build_object('host', $3::text, 'attempt', attempts, "
        "    'error', $4::text, 'at', now())), "
        "  claimed_by = NULL, lease_expires = NULL "
        "WHERE job_id = $1 AND part = $2 AND state IN ('queued', 'claimed')",
        {PgParam::text(num(c.job_id)), PgParam::text(num(c.part)), PgParam::text(host), PgParam::text(error),
         PgParam::text(retry ? "true" : "false"), PgParam::text(num(options_.max_attempts))});
    finish_job_if_done(c.job_id);
  });
}

size_t Queue::release(const std::string& host) {
  return db_
      .exec("UPDATE cuzk_partitions SET state = 'queued', claimed_by = NULL, lease_expires = NULL, "
            "  attempts = attempts - 1 WHERE state = 'claimed' AND claimed_by = $1",
            {PgParam::text(host)})
      .affected();
}

void Queue::finish_job_if_done(int64_t job_id) {
  const PgResult r = db_.exec(
      "UPDATE cuzk_jobs SET done_at = now(), state = CASE WHEN EXISTS (SELECT 1 FROM cuzk_partitions "
      "  WHERE job_id = $1 AND state = 'failed') THEN 'failed' ELSE 'done' END "
      "WHERE id = $1 AND state IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM cuzk_partitions "
      "  WHERE job_id = $1 AND state IN ('queued', 'claimed')) RETURNING id",
      {PgParam::text(num(job_id))});
  if (r.rows() && notifications_)
    db_.exec("SELECT pg_notify($1, $2)", {PgParam::text(kDoneChannel), PgParam::text(num(job_id))});
}

std::optional<JobRecord> Queue::job(int64_t id) {
  const PgResult j = db_.exec("SELECT key_id, state, owner FROM cuzk_jobs WHERE id = $1", {PgParam::text(num(id))});
  if (!j.rows()) return std::nullopt;
  JobRecord out{id, j.text(0, 0), j.text(0, 1), j.text(0, 2), {}};
  const PgResult p = db_.exec(
      "SELECT part, state, coalesce(proof, ''), coalesce(publics, ''), coalesce(times::text, ''), "
      "  coalesce(proved_by, ''), coalesce(error, ''), attempts FROM cuzk_partitions WHERE job_id = $1 ORDER BY part",
      {PgParam::text(num(id))});
  for (size_t i = 0; i < p.rows(); ++i)
    out.partitions.push_back({(int)p.integer(i, 0), p.text(i, 1), p.text(i, 2), p.text(i, 3), p.text(i, 4),
                              p.text(i, 5), p.text(i, 6), (int)p.integer(i, 7)});
  return out;
}

int64_t Queue::queued() { return db_.exec("SELECT count(*) FROM cuzk_partitions WHERE state = 'queued'").integer(0, 0); }

FleetStatus Queue::fleet() {
  FleetStatus f;
  const PgResult states = db_.exec("SELECT state, count(*) FROM cuzk_partitions GROUP BY state ORDER BY state");
  for (size_t i = 0; i < states.rows(); ++i) f.partitions.emplace_back(states.text(i, 0), states.integer(i, 1));
  const PgResult hosts = db_.exec(
      "SELECT h, sum(claimed), sum(done_minute), sum(done_total) FROM ("
      "  SELECT claimed_by AS h, count(*) AS claimed, 0 AS done_minute, 0 AS done_total FROM cuzk_partitions "
      "    WHERE state = 'claimed' GROUP BY claimed_by "
      "  UNION ALL SELECT proved_by, 0, count(*) FILTER (WHERE done_at > now() - interval '1 minute'), count(*) "
      "    FROM cuzk_partitions WHERE state = 'done' GROUP BY proved_by) t GROUP BY h ORDER BY h");
  for (size_t i = 0; i < hosts.rows(); ++i)
    f.hosts.push_back({hosts.text(i, 0), hosts.integer(i, 1), hosts.integer(i, 2), hosts.integer(i, 3)});
  const PgResult failed = db_.exec(
      "SELECT count(*) FILTER (WHERE jsonb_array_length(errors) > 0), coalesce(sum(jsonb_array_length(errors)), 0) "
      "FROM cuzk_partitions");
  f.partitions_with_failed_attempts = failed.integer(0, 0);
  f.failed_attempts = failed.integer(0, 1);
  return f;
}

std::optional<JobRecord> Queue::await(int64_t id, std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  if (notifications_) db_.listen(kDoneChannel);  // before the first read, so that no NOTIFY falls between
  for (;;) {
    std::optional<JobRecord> j = job(id);
    if (!j || j->finished()) return j;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return j;
    // A NOTIFY wakes the wait at once; without them (or one missed while the
    // connection was down) the job is read again every 200 ms.
    db_.wait_notifications(std::min(left, std::chrono::milliseconds(200)));
  }
}

void Queue::wait_for_work(std::chrono::milliseconds timeout) {
  if (notifications_) db_.listen(kWorkChannel);
  db_.wait_notifications(notifications_ ? timeout : std::min(timeout, std::chrono::milliseconds(200)));
}

std::vector<int64_t> Queue::wait_for_done(std::chrono::milliseconds timeout) {
  std::vector<int64_t> ids;
  if (!notifications_) {
    std::this_thread::sleep_for(timeout);
    return ids;
  }
  db_.listen(kDoneChannel);
  for (const PgNotification& n : db_.wait_notifications(timeout)) {
    int64_t id = 0;
    const char* end = n.payload.data() + n.payload.size();
    // Anything but a job id (a NOTIFY sent by hand) is not ours to read.
    if (n.channel == kDoneChannel && std::from_chars(n.payload.data(), end, id).ptr == end) ids.push_back(id);
  }
  return ids;
}

}  // namespace cuzk::queue
