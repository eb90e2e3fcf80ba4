// cuzk db <verb>: the PostgreSQL job queue from the command line, straight to
// the database (docs/QUEUE.md): migrate its schema, submit a job (registering
// its key), await a job's proofs, a summary of the whole fleet, and the
// registered keys (list, remove, re-point).
#include "queue_commands.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "cuzk/io/json.hpp"
#include "cuzk/queue/queue.hpp"
#include "cuzk/queue/schema.hpp"
#include "file_bytes.hpp"
#include "queue_view.hpp"

namespace cuzk::cli {

namespace {

namespace fs = std::filesystem;

struct DbFlags {
  std::string url, key, key_id, out, label, path;
  std::vector<std::string> wtns;
  int priority = 0;
  double deadline_s = 0, timeout_s = 0;
  bool by_path = false;
  int64_t job = 0;
};

std::string url_of(const DbFlags& f) {
  if (!f.url.empty()) return f.url;
  if (const char* env = std::getenv("CUZK_QUEUE")) return env;
  throw std::invalid_argument("no queue: give --queue postgres://... or set CUZK_QUEUE");
}

int migrate(const DbFlags& f) {
  queue::Pg db(url_of(f));
  const int before = queue::migrate(db);
  std::printf("queue schema: version %d%s\n", queue::schema_version(),
              before == queue::schema_version() ? " (already)" : (" (was " + std::to_string(before) + ")").c_str());
  return 0;
}

int submit(const DbFlags& f) {
  queue::Queue q(url_of(f));
  const queue::KeyRecord key = q.register_key(f.key, f.key_id);
  queue::JobRequest job;
  job.key_id = key.id;
  job.priority = f.priority;
  job.label = f.label;
  if (const char* user = std::getenv("USER")) job.requester = user;
  if (f.deadline_s > 0)
    job.deadline = queue::SystemClock::now() + std::chrono::milliseconds(int64_t(f.deadline_s * 1000));
  for (const std::string& w : f.wtns) {
    if (std::optional<std::string> url = queued_witness_url(w, f.by_path))
      job.partitions.push_back({"", std::move(*url)});
    else
      job.partitions.push_back({read_bytes(w, "the witness"), ""});
  }
  std::printf("%lld\n", (long long)q.submit(job));
  return 0;
}

int await_job(const DbFlags& f) {
  queue::Queue q(url_of(f));
  const auto timeout = f.timeout_s > 0 ? std::chrono::milliseconds(int64_t(f.timeout_s * 1000)) : std::chrono::hours(24 * 365);
  const std::optional<queue::JobRecord> j = q.await(f.job, timeout);
  if (!j) throw std::invalid_argument("no job " + std::to_string(f.job) + " in the queue");
  if (!j->finished()) {
    std::fprintf(stderr, "error: job %lld is still %s after the timeout\n", (long long)f.job, j->state.c_str());
    return 1;
  }
  size_t failed = 0;
  if (!f.out.empty()) fs::create_directories(f.out);
  for (const queue::PartitionRecord& p : j->partitions) {
    if (p.state != "done") {
      ++failed;
      std::fprintf(stderr, "partition %d failed: %s\n", p.part, p.error.c_str());
      continue;
    }
    if (f.out.empty()) continue;
    const fs::path base = fs::path(f.out) / ("partition-" + std::to_string(p.part));
    const std::pair<fs::path, nlohmann::ordered_json> files[] = {
        {base.string() + ".proof.json", nlohmann::ordered_json::parse(p.proof)},
        {base.string() + ".public.json", nlohmann::ordered_json::parse(p.publics)}};
    io::write_json_files(files);
  }
  std::printf("job %lld %s: %zu of %zu partitions proved\n", (long long)f.job, j->state.c_str(),
              j->partitions.size() - failed, j->partitions.size());
  return failed ? 1 : 0;
}

int status(const DbFlags& f) {
  queue::Queue q(url_of(f));
  std::fputs(fleet_table(q.fleet()).c_str(), stdout);
  return 0;
}

int list_keys(const DbFlags& f) {
  queue::Queue q(url_of(f));
  std::fputs(keys_table(q.keys()).c_str(), stdout);
  return 0;
}

int remove_key(const DbFlags& f) {
  queue::Queue q(url_of(f));
  q.remove_key(f.key_id);
  std::printf("key %s removed\n", f.key_id.c_str());
  return 0;
}

int repoint_key(const DbFlags& f) {
  queue::Queue q(url_of(f));
  const queue::KeyRecord k = q.repoint_key(f.key_id, f.path);
  std::printf("key %s is %s (%s, SHA-256 %s)\n", k.id.c_str(), k.location.c_str(), k.curve.c_str(),
              k.content_hash.c_str());
  return 0;
}

}  // namespace

void add_queue_commands(CLI::App& app, std::function<int()>& run) {
  auto flags = std::make_shared<DbFlags>();
  auto* db = app.add_subcommand("db", "The PostgreSQL job queue that cuzkd --queue workers share (docs/QUEUE.md)");
  db->require_subcommand(1);
  const auto add_url = [&](CLI::App* cmd) {
    cmd->add_option("--queue", flags->url, "postgres://... or \"host=... dbname=...\" (default: $CUZK_QUEUE)");
  };
  auto* m = db->add_subcommand("migrate", "Bring the queue's schema to this cuzk's version (safe to run at any time)");
  add_url(m);
  m->callback([&run, flags] { run = [flags] { return migrate(*flags); }; });

  auto* s = db->add_subcommand("submit", "Register a key and queue one partition per witness; prints the job id");
  add_url(s);
  s->add_option("key", flags->key, "The .zkey, at a path every worker reads (shared storage)")->required();
  s->add_option("wtns", flags->wtns, "Witnesses (.wtns), one partition each")->required();
  s->add_option("--key-id", flags->key_id, "The key's id in the queue (default: the file's stem)");
  s->add_option("--priority", flags->priority, "Higher first");
  s->add_option("--deadline", flags->deadline_s, "Seconds from now after which unclaimed partitions fail");
  s->add_option("--label", flags->label, "Free text kept with the job");
  s->add_flag("--by-path", flags->by_path, "Send witnesses as file:// paths on shared storage, never inline");
  s->callback([&run, flags] { run = [flags] { return submit(*flags); }; });

  auto* a = db->add_subcommand("await", "Wait for a job; write its proofs as DIR/partition-<i>.{proof,public}.json");
  add_url(a);
  a->add_option("job", flags->job, "The job id submit printed")->required();
  a->add_option("--out", flags->out, "Directory for the proofs (default: none written)");
  a->add_option("--timeout", flags->timeout_s, "Seconds to wait (default: no limit)");
  a->callback([&run, flags] { run = [flags] { return await_job(*flags); }; });

  auto* st = db->add_subcommand("status", "The fleet: partitions by state, and per host what it holds and proved");
  add_url(st);
  st->callback([&run, flags] { run = [flags] { return status(*flags); }; });

  auto* k = db->add_subcommand("keys", "The registered keys: id, curve, path, hash, when registered, jobs naming them");
  add_url(k);
  k->callback([&run, flags] { run = [flags] { return list_keys(*flags); }; });

  auto* kr = db->add_subcommand("key-remove", "Unregister a key id (refused while unfinished jobs use it)");
  add_url(kr);
  kr->add_option("id", flags->key_id, "The key's id in the queue")->required();
  kr->callback([&run, flags] { run = [flags] { return remove_key(*flags); }; });

  auto* kp = db->add_subcommand(
      "key-repoint", "Point a key id at another .zkey, hashed anew (refused while unfinished jobs use the id)");
  add_url(kp);
  kp->add_option("id", flags->key_id, "The key's id in the queue")->required();
  kp->add_option("path", flags->path, "The .zkey, at a path every worker reads (shared storage)")->required();
  kp->callback([&run, flags] { run = [flags] { return repoint_key(*flags); }; });
}

}  // namespace cuzk::cli
