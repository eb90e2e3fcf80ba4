#include "queue_worker.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "cuzk/queue/reconnect.hpp"
#include "cuzk/queue/schema.hpp"
#include "cuzk/util/stoppable_sleep.hpp"
#include "rpc_status.hpp"
#include "stage_times.hpp"

namespace cuzk::daemon {

namespace {

using namespace std::chrono_literals;

std::string default_host() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return std::string(name) + ":" + std::to_string(::getpid());
}

// Failures that another attempt (elsewhere) may not repeat: a fault, a drain,
// memory. A bad witness, a missing key or an unsatisfied circuit fail at once.
bool worth_retrying(service::ErrorKind k) {
  using service::ErrorKind;
  return k == ErrorKind::internal || k == ErrorKind::unavailable || k == ErrorKind::resource_exhausted ||
         k == ErrorKind::cancelled;
}

}  // namespace

QueueWorker::QueueWorker(service::Service& service, QueueConfig config) : service_(service), config_(std::move(config)) {
  if (config_.host.empty()) config_.host = default_host();
  options_.lease = std::chrono::seconds((int64_t)std::ceil(config_.lease_s));
  options_.max_attempts = config_.max_attempts;
  const auto& p = service_.placement();
  const unsigned workers = p.backend == service::BackendKind::cuda
                               ? service_.options().workers_per_gpu * (unsigned)p.gpus.size()
                               : service_.options().cpu_workers;
  capacity_ = config_.in_flight ? config_.in_flight : std::max(2u, 2 * workers);
}

QueueWorker::~QueueWorker() {
  if (claimer_.joinable()) stop();
}

void QueueWorker::start() {
  queue::Pg db(config_.url);
  if (config_.migrate) {
    const int before = queue::migrate(db);
    if (before != queue::schema_version())
      spdlog::info("queue: schema migrated from version {} to {}", before, queue::schema_version());
  }
  queue::require_schema(db);
  claimer_ = std::jthread([this](std::stop_token s) { claim_loop(s); });
  results_ = std::jthread([this](std::stop_token s) { result_loop(s); });
  leases_ = std::jthread([this](std::stop_token s) { lease_loop(s); });
  spdlog::info("queue: worker {} claiming up to {} partitions at once, leases of {} s", config_.host, capacity_,
               options_.lease.count());
}

template <class F>
void QueueWorker::with_reconnect(std::unique_ptr<queue::Queue>& q, std::stop_token stop, const char* what, F&& f) {
  queue::with_reconnect(q, config_.url, options_, stop, std::forward<F>(f),
                        [&](const std::exception& e, bool connected, std::chrono::milliseconds) {
                          // Anything but a lost connection is the caller's.
                          const auto* pg = dynamic_cast<const queue::PgError*>(&e);
                          if (!pg || !pg->connection_lost()) return false;
                          if (connected) spdlog::warn("queue: {}: {}; reconnecting", what, e.what());
                          ++counters_.reconnects;
                          return true;
                        });
}

void QueueWorker::claim_loop(std::stop_token stop) {
  std::unique_ptr<queue::Queue> q;
  auto last_sweep = std::chrono::steady_clock::now() - 1h;
  while (!stop.stop_requested()) {
    try {
      with_reconnect(q, stop, "claim", [&](queue::Queue& queue) {
        if (std::chrono::steady_clock::now() - last_sweep > 1s) {
          const queue::Sweep s = queue.sweep();
          counters_.lease_expiries += s.requeued;
          counters_.depth = queue.queued();
          last_sweep = std::chrono::steady_clock::now();
        }
        claim_once(queue, stop);
      });
    } catch (const std::exception& e) {
      spdlog::error("queue: claim: {}", e.what());
      sleep_unless_stopped(stop, 1s);
    }
  }
}

void QueueWorker::claim_once(queue::Queue& q, std::stop_token stop) {
  size_t held;
  std::vector<std::string> resident;
  {
    // Full: the results thread frees room as each proof is written.
    std::unique_lock lock(mu_);
    if (!held_changed_.wait_for(lock, stop, 1s, [&] { return held_.size() < capacity_; })) return;
    held = held_.size();
    for (const auto& [id, hash] : loaded_) resident.push_back(id);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<queue::Claim> claims = q.claim(config_.host, capacity_ - held, resident);
  counters_.claim_micros +=
      (uint64_t)std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  ++counters_.claim_calls;
  if (claims.empty()) {
    q.wait_for_work(500ms);
    return;
  }
  for (const queue::Claim& c : claims) {
    ++counters_.claims;
    if (c.attempt > 1) ++counters_.reclaims;
    if (c.key_was_resident) ++counters_.affinity_hits;
    const std::string name = "job " + std::to_string(c.job_id) + " partition " + std::to_string(c.part);
    try {
      const std::string key = ensure_key(q, c);
      std::vector<service::PartitionInput> input;
      if (!c.witness_url.empty())
        input.emplace_back(service::WitnessFile{c.witness_url.substr(std::string_view("file://").size())});
      else
        input.emplace_back(service::WitnessBytes{c.witness, name});
      service::SubmitOptions options;
      options.on_finished = [this](service::JobId id) {
        {
          std::lock_guard lock(mu_);
          finished_.push_back(id);
        }
        held_changed_.notify_all();
      };
      const service::JobId job = service_.submit(key, std::move(input), std::move(options));
      {
        std::lock_guard lock(mu_);
        held_.push_back({c, job});
      }
      held_changed_.notify_all();
    } catch (const std::exception& e) {
      const std::exception_ptr ep = std::current_exception();
      const service::ErrorKind kind = service::classify(ep);
      spdlog::warn("queue: {}: {}", loggable(name), loggable(service::message_of(ep)));
      q.fail(c, config_.host, service::message_of(ep), worth_retrying(kind));
      ++counters_.failed;
    }
  }
}

std::string QueueWorker::ensure_key(queue::Queue& q, const queue::Claim& c) {
  const std::string& key_id = c.key_id;
  {
    std::lock_guard lock(mu_);
    if (const auto it = loaded_.find(key_id); it != loaded_.end() && it->second == c.key_hash) return key_id;
  }
  const std::optional<queue::KeyRecord> rec = q.key(key_id);
  if (!rec) throw service::Error(service::ErrorKind::not_found, "the queue has no key " + key_id);
  // The file must be the key the submitter registered: a key replaced on the
  // shared storage would make proofs that do not verify against its vk.
  const std::string hash = queue::sha256_file(rec->location);
  if (hash != rec->content_hash)
    throw service::Error(service::ErrorKind::invalid_argument,
                         "key " + key_id + " at " + rec->location + " has SHA-256 " + hash + ", the queue records " +
                             rec->content_hash);
  const service::KeyInfo info = service_.load_key(rec->location, key_id);
  if (ec::curve_name(info.curve) != rec->curve)
    throw service::Error(service::ErrorKind::invalid_argument,
                         "key " + key_id + " is a " + ec::curve_name(info.curve) + " key, the queue records " + rec->curve);
  spdlog::info("queue: loaded key {} from {}", loggable(key_id), loggable(rec->location));
  std::lock_guard lock(mu_);
  loaded_[key_id] = rec->content_hash;
  return key_id;
}

std::optional<QueueWorker::Held> QueueWorker::next_finished(std::stop_token stop) {
  std::unique_lock lock(mu_);
  const auto any = [&] { return !finished_.empty(); };
  // Once stop is requested, what is still held was cancelled by stop() and
  // finishes soon: it is waited for without the token, to be written or let go.
  if (!held_changed_.wait(lock, stop, any)) held_changed_.wait(lock, [&] { return any() || held_.empty(); });
  if (!any()) return std::nullopt;
  const service::JobId id = finished_.front();
  finished_.pop_front();
  // A partition may finish before the claim thread, back from submit, holds it.
  auto it = held_.end();
  held_changed_.wait(lock, [&] {
    it = std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.job == id; });
    return it != held_.end();
  });
  Held h = std::move(*it);
  held_.erase(it);
  return h;
}

void QueueWorker::result_loop(std::stop_token stop) {
  std::unique_ptr<queue::Queue> q;
  while (const std::optional<Held> next = next_finished(stop)) {
    held_changed_.notify_all();  // room for the claim thread
    std::optional<service::JobOutcome> outcome;
    try {
      outcome = service_.await(next->job);
    } catch (const std::exception& e) {
      // Lost: its lease lapses and another host proves it.
      spdlog::error("queue: awaiting job {} partition {}: {}", next->claim.job_id, next->claim.part, e.what());
      continue;
    }
    try {
      with_reconnect(q, stop, "result", [&](queue::Queue& queue) { write_back(queue, *next, outcome->partitions[0]); });
    } catch (const std::exception& e) {
      spdlog::error("queue: writing job {} partition {}: {} (its lease lapses; another host proves it)",
                    next->claim.job_id, next->claim.part, e.what());
    }
  }
}

void QueueWorker::write_back(queue::Queue& q, const Held& h, const service::PartitionOutcome& o) {
  if (o.ok()) {
    const service::SnarkjsJson json = service::snarkjs_json(*o.proved);
    if (q.complete(h.claim, config_.host, json.proof, json.publics, stage_times_json(o.times)))
      ++counters_.written;
    else
      ++counters_.duplicates;  // another host wrote it first (our lease had lapsed)
    return;
  }
  if (o.error_kind == service::ErrorKind::cancelled && stopping_) return;  // released by stop()
  q.fail(h.claim, config_.host, o.error, worth_retrying(o.error_kind));
  ++counters_.failed;
}

void QueueWorker::lease_loop(std::stop_token stop) {
  std::unique_ptr<queue::Queue> q;
  const auto every = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease) / 3;
  while (!stop.stop_requested()) {
    try {
      with_reconnect(q, stop, "renew", [&](queue::Queue& queue) { queue.renew(config_.host); });
    } catch (const std::exception& e) {
      spdlog::error("queue: renewing leases: {}", e.what());
    }
    sleep_unless_stopped(stop, every);
  }
}

size_t QueueWorker::stop() {
  stopping_ = true;
  claimer_.request_stop();
  claimer_.join();
  std::vector<service::JobId> jobs;
  {
    std::lock_guard lock(mu_);
    for (const Held& h : held_) jobs.push_back(h.job);
  }
  // Outside the lock: a cancel reports what had not started at once, and
  // on_finished takes the lock.
  for (service::JobId job : jobs) service_.cancel(job);
  results_.request_stop();
  results_.join();  // writes what finished; what was cancelled is left claimed
  leases_.request_stop();
  leases_.join();
  size_t released = 0;
  try {
    queue::Queue q(config_.url, options_);
    released = q.release(config_.host);
  } catch (const std::exception& e) {
    spdlog::error("queue: releasing this host's claims: {} (their leases lapse instead)", e.what());
  }
  counters_.released += released;
  spdlog::info("queue: worker {} stopped; {} partitions given back to the queue", config_.host, released);
  return released;
}

}  // namespace cuzk::daemon
