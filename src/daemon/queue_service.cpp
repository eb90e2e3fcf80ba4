#include "queue_service.hpp"

#include <algorithm>
#include <chrono>

#include "cuzk/service/errors.hpp"
#include "cuzk/service/paths.hpp"
#include "cuzk/queue/reconnect.hpp"
#include "rpc_status.hpp"
#include "stage_times.hpp"

namespace cuzk::daemon {

namespace {

using namespace std::chrono_literals;
using service::Error;
using service::ErrorKind;

constexpr size_t kAnnouncementsKept = 4096;

v1::Curve curve_of(const std::string& name) {
  return name == "bn128" ? v1::BN254 : name == "bls12381" ? v1::BLS12_381 : v1::CURVE_UNSPECIFIED;
}

}  // namespace

QueueService::QueueService(std::string conninfo, queue::QueueOptions options, std::vector<std::filesystem::path> key_dirs,
                           const Authorizer& auth, std::string host)
    : conninfo_(std::move(conninfo)),
      options_(options),
      key_dirs_(std::move(key_dirs)),
      auth_(auth),
      host_(std::move(host)) {
  listener_ = std::jthread([this](std::stop_token s) { listen_loop(s); });
}

QueueService::~QueueService() {
  listener_.request_stop();
  listener_ = {};
}

template <class F>
auto QueueService::with_queue(F&& f) -> decltype(f(std::declval<queue::Queue&>())) {
  std::unique_ptr<queue::Queue> q;
  {
    std::unique_lock lock(pool_mu_);
    pool_cv_.wait(lock, [&] { return !idle_.empty() || open_ < kConnections; });
    if (!idle_.empty()) {
      q = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;
    }
  }
  // Back to the pool when it still works; closed (and its slot freed) when lost.
  const auto give_back = [&](bool keep) {
    {
      std::lock_guard lock(pool_mu_);
      if (keep && q) idle_.push_back(std::move(q));
      else --open_;
    }
    pool_cv_.notify_one();
  };
  try {
    if (!q) q = std::make_unique<queue::Queue>(conninfo_, options_);
    if constexpr (std::is_void_v<decltype(f(*q))>) {
      f(*q);
      give_back(true);
    } else {
      auto result = f(*q);
      give_back(true);
      return result;
    }
  } catch (const queue::PgError& e) {
    give_back(!e.connection_lost());
    throw Error(e.connection_lost() ? ErrorKind::unavailable : ErrorKind::internal,
                std::string("the queue's database: ") + e.what());
  } catch (...) {
    give_back(true);
    throw;
  }
}

void QueueService::listen_loop(std::stop_token stop) {
  std::unique_ptr<queue::Queue> q;
  // The Awaits poll meanwhile; the connection is made again after a pause.
  const auto retry = [](const std::exception& e, bool, std::chrono::milliseconds pause) {
    spdlog::warn("queue: listening for finished jobs: {}; again in {} ms", e.what(), pause.count());
    return true;
  };
  while (!stop.stop_requested()) {
    bool notifications = true;
    std::vector<int64_t> ids;
    try {
      queue::with_reconnect(q, conninfo_, options_, stop, [&](queue::Queue& queue) {
        notifications = queue.notifications();
        if (notifications) ids = queue.wait_for_done(500ms);
      }, retry);
    } catch (const std::exception&) {
      return;  // every failure is retried until stop is requested
    }
    if (!notifications) return;  // nothing to listen to: the Awaits poll
    if (ids.empty()) continue;
    {
      std::lock_guard lock(done_mu_);
      for (int64_t id : ids) {
        done_ids_.push_back(id);
        ++announced_;
      }
      while (done_ids_.size() > kAnnouncementsKept) done_ids_.pop_front();
    }
    done_cv_.notify_all();
  }
}

bool QueueService::announced_since(uint64_t seen, int64_t id) const {
  const uint64_t first = announced_ - done_ids_.size();  // the number of done_ids_.front()
  if (seen < first) return true;
  return std::find(done_ids_.begin() + (ptrdiff_t)(seen - first), done_ids_.end(), id) != done_ids_.end();
}

grpc::Status QueueService::Submit(grpc::ServerContext* ctx, const v1::QueueSubmitRequest* req, v1::SubmitReply* out) {
  return guarded("Queue.Submit", ctx, [&] {
    if (req->key_id().empty() && req->key_path().empty())
      throw Error(ErrorKind::invalid_argument, "no key: give key_id, key_path or both");
    queue::JobRequest job;
    job.priority = req->priority();
    job.label = req->label();
    job.requester = req->requester().empty() ? ctx->peer() : req->requester();
    job.owner = auth_.caller(*ctx).in_fleet(host_).name;
    if (const auto d = after_ms<queue::SystemClock>(req->deadline_ms()); d != queue::SystemClock::time_point::max())
      job.deadline = d;
    job.partitions.reserve((size_t)req->partitions_size());
    for (int i = 0; i < req->partitions_size(); ++i) {
      const v1::QueuePartition& p = req->partitions(i);
      if (p.witness_case() == v1::QueuePartition::WITNESS_NOT_SET)
        throw Error(ErrorKind::invalid_argument, "partition " + std::to_string(i) + ": no witness (wtns or wtns_url)");
      job.partitions.push_back({p.wtns(), p.wtns_url()});
    }
    // A key registered by path is allowed and checked as a Preload's is, before it is read.
    if (!req->key_path().empty()) {
      auth_.admin(*ctx, "registering a key (key_path)");
      service::open_allowed(req->key_path(), key_dirs_, false, "key");
    }
    const int64_t id = with_queue([&](queue::Queue& q) {
      job.key_id = req->key_path().empty() ? req->key_id() : q.register_key(req->key_path(), req->key_id()).id;
      return q.submit(job);
    });
    spdlog::info("queue: job {} submitted by {} (requester {}): key {}, {} partitions, priority {}", id,
                 loggable(job.owner), loggable(job.requester), loggable(job.key_id), job.partitions.size(),
                 job.priority);
    out->set_job_id((uint64_t)id);
  });
}

grpc::Status QueueService::Await(grpc::ServerContext* ctx, const v1::AwaitRequest* req, v1::JobResult* out) {
  return guarded("Queue.Await", ctx, [&] {
    const int64_t id = (int64_t)req->job_id();
    const auto until = after_ms<std::chrono::steady_clock>(req->timeout_ms());
    const Caller caller = auth_.caller(*ctx).in_fleet(host_);
    for (;;) {
      if (ctx->IsCancelled()) throw Error(ErrorKind::cancelled, "the caller went away");
      uint64_t seen;
      {
        std::lock_guard lock(done_mu_);
        seen = announced_;
      }
      std::optional<queue::JobRecord> job;
      std::optional<queue::KeyRecord> key;
      with_queue([&](queue::Queue& q) {
        job = q.job(id);
        if (job && job->finished()) key = q.key(job->key_id);
      });
      // Another's job is answered word for word as a missing one: nothing tells that it exists.
      if (!job || !caller.may_see(job->owner))
        throw Error(ErrorKind::not_found, "no job " + std::to_string(id) + " in the queue");
      if (job->finished()) {
        out->set_job_id((uint64_t)id);
        out->set_key_id(job->key_id);
        out->set_curve(key ? curve_of(key->curve) : v1::CURVE_UNSPECIFIED);
        for (const queue::PartitionRecord& p : job->partitions) {
          v1::PartitionResult* r = out->add_partitions();
          r->set_ok(p.state == "done");
          if (r->ok()) {
            r->set_proof_json(p.proof);
            r->set_public_json(p.publics);
          } else {
            r->set_error_code(p.state);
            r->set_error(p.error);
          }
          fill_times(r->mutable_times(), stage_times_from_json(p.times));
          r->set_proved_by(p.proved_by);
          r->set_attempts((uint32_t)p.attempts);
        }
        return;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= until)
        throw Error(ErrorKind::deadline_exceeded, "job " + std::to_string(id) + " is still " + job->state + " after " +
                                                      std::to_string(req->timeout_ms()) + " ms");
      std::unique_lock lock(done_mu_);
      done_cv_.wait_until(lock, std::min(now + 1s, until), [&] { return announced_since(seen, id); });
    }
  });
}

grpc::Status QueueService::Status(grpc::ServerContext* ctx, const v1::QueueStatusRequest*, v1::QueueStatusReply* out) {
  return guarded("Queue.Status", ctx, [&] {
    const queue::FleetStatus f = with_queue([](queue::Queue& q) { return q.fleet(); });
    for (const auto& [state, n] : f.partitions) (*out->mutable_partitions())[state] = (uint64_t)n;
    for (const queue::HostStatus& h : f.hosts) {
      v1::QueueHostStatus* r = out->add_hosts();
      r->set_host(h.host);
      r->set_claimed((uint64_t)h.claimed);
      r->set_proofs_last_minute((uint64_t)h.proofs_last_minute);
      r->set_proofs((uint64_t)h.proofs);
    }
    out->set_partitions_with_failed_attempts((uint64_t)f.partitions_with_failed_attempts);
    out->set_failed_attempts((uint64_t)f.failed_attempts);
  });
}

}  // namespace cuzk::daemon
