#include "server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "rpc_status.hpp"
#include "stage_times.hpp"

namespace cuzk::daemon {

namespace {

using service::Clock;
using service::Error;
using service::ErrorKind;

v1::Curve to_proto(ec::Curve c) { return c == ec::Curve::bn254 ? v1::BN254 : v1::BLS12_381; }

void fill(v1::KeyInfo* out, const service::KeyInfo& k) {
  out->set_id(k.id);
  out->set_source(k.source);
  out->set_curve(to_proto(k.curve));
  out->set_n_vars(k.n_vars);
  out->set_n_public(k.n_public);
  out->set_domain_size(k.domain_size);
  out->set_host_bytes(k.host_bytes);
  out->set_jobs(k.jobs);
  for (const engine::KeyOnGpu& g : k.gpus) {
    v1::KeyOnGpu* r = out->add_gpus();
    r->set_device(g.device);
    r->set_streamed(g.streamed);
  }
}

void fill(v1::JobResult* out, const service::JobOutcome& o) {
  out->set_job_id(o.id);
  out->set_key_id(o.key);
  out->set_curve(to_proto(o.curve));
  for (const auto& p : o.partitions) {
    auto* r = out->add_partitions();
    r->set_ok(p.ok());
    if (p.ok()) {
      // The bytes `cuzk prove` writes, so a client that saves them verbatim writes the same files.
      service::SnarkjsJson json = service::snarkjs_json(*p.proved);
      r->set_proof_json(std::move(json.proof));
      r->set_public_json(std::move(json.publics));
    } else {
      r->set_error_code(service::error_kind_name(p.error_kind));
      r->set_error(p.error);
    }
    fill_times(r->mutable_times(), p.times);
  }
}

// The earlier of a job deadline of `ms` from now (0: none) and a gRPC
// deadline (system clock, max: none), on the service's clock.
Clock::time_point job_deadline(uint64_t ms, std::chrono::system_clock::time_point grpc_deadline) {
  auto d = after_ms<Clock>(ms);
  if (grpc_deadline != std::chrono::system_clock::time_point::max()) {
    const auto now = Clock::now();
    const auto left = std::chrono::duration_cast<Clock::duration>(grpc_deadline - std::chrono::system_clock::now());
    if (left < Clock::time_point::max() - now) d = std::min(d, now + left);
  }
  return d;
}

// The partitions of a request, whose witness bytes are moved out of it, not
// copied: gRPC's synchronous handlers see the request as const, but it is
// the call's own message (made by the handler's deserialization, not a const
// object, read by nothing else once the handler has it), so taking its bytes
// leaves empty strings behind instead of a second copy of every witness.
std::vector<service::PartitionInput> partitions_of(v1::SubmitRequest& req) {
  std::vector<service::PartitionInput> parts;
  parts.reserve(size_t(req.partitions_size()));
  for (int i = 0; i < req.partitions_size(); ++i) {
    auto& p = *req.mutable_partitions(i);
    const std::string name = p.name().empty() ? "partition " + std::to_string(i) : p.name();
    switch (p.witness_case()) {
      case v1::Partition::kWtns:
        parts.emplace_back(service::WitnessBytes{std::move(*p.mutable_wtns()), name});
        break;
      case v1::Partition::kWtnsPath:
        parts.emplace_back(service::WitnessFile{p.wtns_path()});
        break;
      case v1::Partition::kNative:
        parts.emplace_back(service::NativeWitness{p.native().circuit(), p.native().constraints(), p.native().seed()});
        break;
      case v1::Partition::WITNESS_NOT_SET:
        throw Error(ErrorKind::invalid_argument, name + ": no witness (wtns, wtns_path or native)");
    }
  }
  return parts;
}

}  // namespace

grpc::Status ProverService::Preload(grpc::ServerContext* ctx, const v1::PreloadRequest* req, v1::KeyInfo* out) {
  return guarded("Preload", ctx, [&] {
    // A load under an id replaces the key that other callers' jobs name.
    const Caller caller = auth_.admin(*ctx, "Preload");
    // A key whose contents are loaded already is answered with, under its id.
    constexpr auto same = service::Service::SameContent::reuse;
    service::KeyInfo k;
    switch (req->source_case()) {
      case v1::PreloadRequest::kPath:
        k = service_.load_key(req->path(), req->id(), service::Service::PathFrom::client, same);
        break;
      case v1::PreloadRequest::kZkey:
        k = service_.load_key_bytes(std::vector<uint8_t>(req->zkey().begin(), req->zkey().end()),
                                    req->name().empty() ? "zkey" : req->name(), req->id(), same);
        break;
      case v1::PreloadRequest::SOURCE_NOT_SET:
        throw Error(ErrorKind::invalid_argument, "Preload: no key (path or zkey)");
    }
    spdlog::info("key {} loaded from {} by {} ({}, {} variables, domain {})", loggable(k.id), loggable(k.source),
                 caller.name, ec::curve_name(k.curve), k.n_vars, k.domain_size);
    fill(out, k);
  });
}

grpc::Status ProverService::Evict(grpc::ServerContext* ctx, const v1::EvictRequest* req, v1::EvictReply* out) {
  return guarded("Evict", ctx, [&] {
    const Caller caller = auth_.admin(*ctx, "Evict");
    const bool evicted = service_.evict(req->id());
    if (evicted) spdlog::info("key {} evicted by {}", loggable(req->id()), caller.name);
    out->set_evicted(evicted);
  });
}

grpc::Status ProverService::ListKeys(grpc::ServerContext* ctx, const v1::ListKeysRequest*, v1::ListKeysReply* out) {
  return guarded("ListKeys", ctx, [&] {
    for (const auto& k : service_.keys()) fill(out->add_keys(), k);
  });
}

service::JobId ProverService::submit(grpc::ServerContext* ctx, const Caller& caller, const v1::SubmitRequest& req,
                                     bool prove) {
  if (req.key_id().empty()) throw Error(ErrorKind::invalid_argument, "no key_id");
  service::SubmitOptions opts;
  opts.priority = req.priority();
  opts.label = req.label();
  opts.owner = caller.name;
  // A Submit's own gRPC deadline bounds the Submit, not the job; a Prove's
  // bounds both.
  opts.deadline = job_deadline(req.deadline_ms(), prove ? ctx->deadline() : std::chrono::system_clock::time_point::max());
  const auto id = service_.submit(req.key_id(), partitions_of(const_cast<v1::SubmitRequest&>(req)), opts);
  spdlog::debug("job {} admitted for {}: key {}, {} partitions, priority {}", id, caller.name, loggable(req.key_id()),
                req.partitions_size(), req.priority());
  return id;
}

bool ProverService::may_see(const Caller& caller, service::JobId id) const {
  const auto owner = service_.owner(id);
  return !owner || caller.may_see(*owner);
}

bool ProverService::await(grpc::ServerContext* ctx, service::JobId id, uint64_t timeout_ms, v1::JobResult* out) {
  // The service's await returns the moment the job is done (its condition
  // variable is notified by the job's last partition). The synchronous gRPC
  // API tells of a caller who went away only when asked (IsCancelled), so the
  // wait is cut into slices between which it is asked: such a caller frees
  // the thread within a slice; its job goes on and stays awaitable.
  constexpr auto kSlice = std::chrono::milliseconds(100);
  const auto until = after_ms<Clock>(timeout_ms);
  for (;;) {
    if (ctx->IsCancelled()) throw Error(ErrorKind::cancelled, "the caller went away");
    const auto now = Clock::now();
    const auto wait = until == Clock::time_point::max() ? Clock::duration(kSlice)
                                                        : std::min<Clock::duration>(kSlice, until - now);
    if (auto outcome = service_.await(id, std::max(wait, Clock::duration::zero()))) {
      double total = 0;
      for (const auto& p : outcome->partitions) total = std::max(total, p.times[Phase::total]);
      spdlog::info("job {} done: key {}, {} partitions, {} failed, {:.3f} s", id, loggable(outcome->key),
                   outcome->partitions.size(), outcome->failed(), total);
      fill(out, *outcome);
      return true;
    }
    if (Clock::now() >= until) return false;
  }
}

grpc::Status ProverService::Submit(grpc::ServerContext* ctx, const v1::SubmitRequest* req, v1::SubmitReply* out) {
  return guarded("Submit", ctx, [&] { out->set_job_id(submit(ctx, auth_.caller(*ctx), *req, false)); });
}

grpc::Status ProverService::Await(grpc::ServerContext* ctx, const v1::AwaitRequest* req, v1::JobResult* out) {
  return guarded("Await", ctx, [&] {
    // The service's own answer for an id it does not know, word for word.
    if (!may_see(auth_.caller(*ctx), req->job_id()))
      throw Error(ErrorKind::not_found, "no job " + std::to_string(req->job_id()) + " (unknown, or already awaited)");
    if (!await(ctx, req->job_id(), req->timeout_ms(), out))
      throw Error(ErrorKind::deadline_exceeded,
                  "job " + std::to_string(req->job_id()) + " is not done after " +
                      std::to_string(req->timeout_ms()) + " ms");
  });
}

grpc::Status ProverService::Prove(grpc::ServerContext* ctx, const v1::SubmitRequest* req, v1::JobResult* out) {
  return guarded("Prove", ctx, [&] {
    const auto id = submit(ctx, auth_.caller(*ctx), *req, true);
    try {
      await(ctx, id, 0, out);
    } catch (...) {
      // Only this call knew the job: cancel it and take its outcome, so
      // that nothing is left waiting for an Await that will not come.
      service_.cancel(id);
      try {
        service_.await(id);
      } catch (...) {
      }
      throw;
    }
  });
}

grpc::Status ProverService::Cancel(grpc::ServerContext* ctx, const v1::CancelRequest* req, v1::CancelReply* out) {
  return guarded("Cancel", ctx, [&] {
    const Caller caller = auth_.caller(*ctx);
    const bool cancelled = may_see(caller, req->job_id()) && service_.cancel(req->job_id());
    if (cancelled) spdlog::info("job {} cancelled by {}", req->job_id(), caller.name);
    out->set_cancelled(cancelled);
  });
}

grpc::Status ProverService::Status(grpc::ServerContext* ctx, const v1::StatusRequest*, v1::StatusReply* out) {
  return guarded("Status", ctx, [&] {
    const Caller caller = auth_.caller(*ctx);
    const auto s = service_.status();
    out->set_backend(s.backend);
    out->set_draining(s.draining);
    out->set_queued_partitions(s.queued_partitions);
    out->set_running_partitions(s.running_partitions);
    out->set_pending_bytes(s.pending_bytes);
    for (const auto& j : s.jobs) {
      if (!caller.may_see(j.owner)) continue;
      auto* r = out->add_jobs();
      r->set_job_id(j.id);
      r->set_key_id(j.key);
      r->set_label(j.label);
      r->set_state(service::job_state_name(j.state));
      r->set_priority(j.priority);
      r->set_partitions(j.partitions);
      r->set_done(j.done);
      r->set_failed(j.failed);
      r->set_age_s(j.age);
    }
    for (const auto& k : s.keys) fill(out->add_keys(), k);
    for (const auto& g : s.gpus) {
      auto* r = out->add_gpus();
      r->set_device(g.device);
      r->set_name(g.name);
      r->set_healthy(g.healthy);
      r->set_fault(g.fault);
#define CUZK_GPU_COUNTER_SET(name, ...) r->set_##name(g.counters.name);
      CUZK_GPU_COUNTERS(CUZK_GPU_COUNTER_SET)
#undef CUZK_GPU_COUNTER_SET
      r->set_recovery_error(g.recovery_error);
    }
    out->set_host_pool_bytes(s.host_pool_bytes);
    out->set_host_pool_budget(s.host_pool_budget);
    out->set_host_pool_allocations(s.host_pool_allocations);
    out->set_host_pool_waits(s.host_pool_waits);
    out->set_version(service::kVersion);
  });
}

}  // namespace cuzk::daemon
