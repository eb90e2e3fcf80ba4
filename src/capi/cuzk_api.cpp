// cuzk's own C API (the cuzk_ half of include/cuzk/cuzk.h) over the proving
// service: a prover is one service::Service, a key one of its keys, a job one
// of its jobs. Like rapidsnark_api.cpp this file only converts: C arguments
// to service calls, outcomes to library-owned strings, and every exception,
// of any type, to a status and the calling thread's message (c_boundary.hpp).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/cuzk.h"
#include "cuzk/ec/curves.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/service/errors.hpp"
#include "cuzk/service/placement.hpp"
#include "cuzk/service/proof.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/util/stages.hpp"

#include "c_boundary.hpp"

struct cuzk_prover {
  cuzk::service::Service svc;
};

struct cuzk_result {
  struct Proof {
    cuzk_status status;
    std::string error, proof, publics;
    cuzk_times times;
  };
  std::vector<Proof> proofs;
};

namespace {

using namespace cuzk;
using service::ErrorKind;

using Refusal = capi::Refusal<cuzk_status>;

thread_local std::string last_error;

cuzk_status status_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::none: return CUZK_OK;
    case ErrorKind::invalid_argument: return CUZK_ERROR_INVALID_ARGUMENT;
    case ErrorKind::not_found: return CUZK_ERROR_NOT_FOUND;
    case ErrorKind::unsatisfied: return CUZK_ERROR_UNSATISFIED;
    case ErrorKind::resource_exhausted: return CUZK_ERROR_RESOURCE_EXHAUSTED;
    case ErrorKind::cancelled: return CUZK_ERROR_CANCELLED;
    case ErrorKind::deadline_exceeded: return CUZK_ERROR_DEADLINE_EXCEEDED;
    case ErrorKind::unavailable: return CUZK_ERROR_UNAVAILABLE;
    case ErrorKind::internal: break;
  }
  return CUZK_ERROR_INTERNAL;
}

// f(), which returns a status; whatever it throws becomes a status (a
// Refusal's, or its kind's) and the calling thread's message.
template <class F>
cuzk_status guarded(F&& f) noexcept {
  const auto code_of = [](const std::exception_ptr& e) { return status_of(service::classify(e)); };
  return capi::guarded(f, code_of, CUZK_ERROR_RESOURCE_EXHAUSTED, [](cuzk_status status, std::string_view message) {
    try {
      last_error = message;
    } catch (...) {
      last_error.clear();  // no memory for the message: an empty one is what is left
    }
    return status;
  });
}

void require(const void* p, const char* what) {
  if (!p) throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, std::string("null ") + what};
}

// `text` into buf (size bytes, NUL included), or SHORT_BUFFER with the size
// needed in *needed (when given) and nothing written.
cuzk_status deliver(const std::string& text, char* buf, size_t size, size_t* needed, const char* what) {
  if (needed) *needed = text.size() + 1;
  if (!buf || size < text.size() + 1)
    throw Refusal{CUZK_ERROR_SHORT_BUFFER, std::string(what) + " needs " + std::to_string(text.size() + 1) +
                                               " bytes, the buffer has " + std::to_string(buf ? size : 0)};
  std::memcpy(buf, text.c_str(), text.size() + 1);
  return CUZK_OK;
}

std::string key_id_of(const char* id) {
  if (!id) return "";
  const std::string s(id);
  if (s.empty() || s.size() >= CUZK_KEY_ID_MAX)
    throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, "a key id needs 1 to " + std::to_string(CUZK_KEY_ID_MAX - 1) +
                                                   " bytes, not " + std::to_string(s.size())};
  return s;
}

void give_id(const service::KeyInfo& k, char* id_out) {
  if (!id_out) return;
  const size_t n = std::min(k.id.size(), size_t(CUZK_KEY_ID_MAX - 1));  // ids from file stems may be longer
  std::memcpy(id_out, k.id.data(), n);
  id_out[n] = '\0';
}

service::ServiceOptions service_options(const cuzk_options* o) {
  service::apply_environment_switches();
  service::ServiceOptions s;
  if (!o) return s;
  // 0.1's struct ended before gpu_memory: its callers get the later fields' defaults.
  constexpr size_t first_version = offsetof(cuzk_options, gpu_memory);
  if (o->struct_size < first_version || o->struct_size > sizeof(cuzk_options))
    throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, "cuzk_options.struct_size is " + std::to_string(o->struct_size) +
                                                  ", not sizeof(cuzk_options) (call cuzk_options_init)"};
  if (o->struct_size >= offsetof(cuzk_options, gpu_memory) + sizeof(o->gpu_memory))
    s.placement.gpu_memory = o->gpu_memory;
  if (o->backend) {
    const auto b = service::backend_named(o->backend);
    if (!b)
      throw Refusal{CUZK_ERROR_INVALID_ARGUMENT,
                    std::string("unknown backend \"") + o->backend + "\" (auto, cpu or cuda)"};
    s.placement.backend = *b;
  }
  if (o->n_gpus > 0) {
    require(o->gpus, "gpus");
    std::string list;
    for (size_t i = 0; i < o->n_gpus; ++i) {
      if (i) list += ',';
      list += std::to_string(o->gpus[i]);
    }
    s.placement.gpus = list;
  }
  s.threads = o->threads;
  if (o->synthesis_threads) s.synthesis_threads = o->synthesis_threads;
  if (o->workers_per_gpu) s.workers_per_gpu = o->workers_per_gpu;
  if (o->finalizer_threads) s.finalizer_threads = o->finalizer_threads;
  if (o->max_pending_partitions) s.max_pending_partitions = o->max_pending_partitions;
  return s;
}

service::PartitionInput input_of(const cuzk_witness& w, size_t i) {
  if (w.data) {
    return service::WitnessBytes{std::string(static_cast<const char*>(w.data), w.size), "witness " + std::to_string(i)};
  }
  if (!w.path)
    throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, "witness " + std::to_string(i) + ": neither data nor a path"};
  return service::WitnessFile{w.path};
}

// cuzk_times's field of each phase.
constexpr std::pair<Phase, double cuzk_times::*> kTimesFields[] = {{Phase::queue, &cuzk_times::queue},
                                                                   {Phase::synthesis, &cuzk_times::synthesis},
                                                                   {Phase::prove, &cuzk_times::prove},
                                                                   {Phase::finish, &cuzk_times::finish},
                                                                   {Phase::total, &cuzk_times::total}};
static_assert(std::size(kTimesFields) == kPhaseCount, "a phase without its field");

cuzk_times c_times(const PhaseTimes& t) {
  cuzk_times out{};
  for (const auto& [phase, field] : kTimesFields) out.*field = t[phase];
  return out;
}

std::unique_ptr<cuzk_result> result_of(const service::JobOutcome& outcome) {
  auto r = std::make_unique<cuzk_result>();
  r->proofs.reserve(outcome.partitions.size());
  for (const auto& p : outcome.partitions) {
    service::SnarkjsJson json = p.ok() ? service::snarkjs_json(*p.proved) : service::SnarkjsJson{};
    r->proofs.push_back({status_of(p.error_kind), p.error, std::move(json.proof), std::move(json.publics),
                         c_times(p.times)});
  }
  return r;
}

cuzk_status await_job(cuzk_prover& prover, cuzk_job job, std::optional<std::chrono::milliseconds> timeout,
                      cuzk_result** result) {
  const std::optional<service::JobOutcome> outcome = prover.svc.await(job, timeout);
  if (!outcome)
    throw Refusal{CUZK_ERROR_TIMEOUT, "job " + std::to_string(job) + " is not done after " +
                                          std::to_string(timeout->count()) + " ms"};
  *result = result_of(*outcome).release();
  return CUZK_OK;
}

}  // namespace

extern "C" {

const char* cuzk_version(void) { return service::kVersion; }

const char* cuzk_build_backends(void) { return service::build_backends(); }

const char* cuzk_status_name(cuzk_status status) {
  switch (status) {
    case CUZK_OK: return "ok";
    case CUZK_ERROR_INVALID_ARGUMENT: return "invalid_argument";
    case CUZK_ERROR_NOT_FOUND: return "not_found";
    case CUZK_ERROR_UNSATISFIED: return "unsatisfied";
    case CUZK_ERROR_RESOURCE_EXHAUSTED: return "resource_exhausted";
    case CUZK_ERROR_CANCELLED: return "cancelled";
    case CUZK_ERROR_DEADLINE_EXCEEDED: return "deadline_exceeded";
    case CUZK_ERROR_UNAVAILABLE: return "unavailable";
    case CUZK_ERROR_INTERNAL: return "internal";
    case CUZK_ERROR_SHORT_BUFFER: return "short_buffer";
    case CUZK_ERROR_TIMEOUT: return "timeout";
  }
  return "unknown";
}

const char* cuzk_last_error(void) { return last_error.c_str(); }

void cuzk_options_init(cuzk_options* options) {
  if (!options) return;
  *options = cuzk_options{};
  options->struct_size = sizeof(cuzk_options);
  options->backend = "auto";
}

cuzk_status cuzk_prover_create(const cuzk_options* options, cuzk_prover** prover) {
  return guarded([&] {
    require(prover, "prover");
    *prover = new cuzk_prover{service::Service(service_options(options))};
    return CUZK_OK;
  });
}

void cuzk_prover_destroy(cuzk_prover* prover) {
  delete prover;  // ~Service drains the jobs in flight and does not throw
}

cuzk_status cuzk_prover_describe(const cuzk_prover* prover, char* buf, size_t size, size_t* needed) {
  return guarded([&] {
    require(prover, "prover");
    const std::string placement = service::backend_name(prover->svc.placement().backend);
    const std::string engines = prover->svc.describe();
    return deliver(engines.empty() ? placement : engines, buf, size, needed, "the description");
  });
}

cuzk_status cuzk_key_load_file(cuzk_prover* prover, const char* zkey_path, const char* id, char* id_out) {
  return guarded([&] {
    require(prover, "prover");
    require(zkey_path, "zkey path");
    give_id(prover->svc.load_key(zkey_path, key_id_of(id)), id_out);
    return CUZK_OK;
  });
}

cuzk_status cuzk_key_load_buffer(cuzk_prover* prover, const void* zkey, size_t zkey_size, const char* id,
                                 char* id_out) {
  return guarded([&] {
    require(prover, "prover");
    require(zkey, "zkey buffer");
    const auto* p = static_cast<const uint8_t*>(zkey);
    give_id(prover->svc.load_key_bytes(std::vector<uint8_t>(p, p + zkey_size), "zkey", key_id_of(id)), id_out);
    return CUZK_OK;
  });
}

cuzk_status cuzk_key_evict(cuzk_prover* prover, const char* id) {
  return guarded([&] {
    require(prover, "prover");
    require(id, "key id");
    if (!prover->svc.evict(id)) throw Refusal{CUZK_ERROR_NOT_FOUND, std::string("no key ") + id + " is loaded"};
    return CUZK_OK;
  });
}

cuzk_status cuzk_key_info_get(const cuzk_prover* prover, const char* id, cuzk_key_info* info) {
  return guarded([&] {
    require(prover, "prover");
    require(id, "key id");
    require(info, "key info");
    for (const auto& k : prover->svc.keys()) {
      if (k.id != id) continue;
      *info = cuzk_key_info{};
      std::strncpy(info->curve, ec::curve_name(k.curve), sizeof info->curve - 1);
      info->n_vars = k.n_vars;
      info->n_public = k.n_public;
      info->domain_size = k.domain_size;
      return CUZK_OK;
    }
    throw Refusal{CUZK_ERROR_NOT_FOUND, std::string("no key ") + id + " is loaded"};
  });
}

cuzk_status cuzk_key_export_vk(const cuzk_prover* prover, const char* id, char* buf, size_t size, size_t* needed) {
  return guarded([&] {
    require(prover, "prover");
    require(id, "key id");
    return deliver(io::json_text(prover->svc.verifying_key(id)), buf, size, needed, "the verification key");
  });
}

cuzk_status cuzk_submit(cuzk_prover* prover, const char* key_id, const cuzk_witness* witnesses, size_t n,
                        int priority, uint64_t deadline_ms, cuzk_job* job) {
  return guarded([&] {
    require(prover, "prover");
    require(key_id, "key id");
    require(job, "job");
    if (n > 0) require(witnesses, "witnesses");
    std::vector<service::PartitionInput> inputs;
    inputs.reserve(n);
    for (size_t i = 0; i < n; ++i) inputs.push_back(input_of(witnesses[i], i));
    service::SubmitOptions o;
    o.priority = priority;
    if (deadline_ms) o.deadline = service::Clock::now() + std::chrono::milliseconds(deadline_ms);
    *job = prover->svc.submit(key_id, std::move(inputs), std::move(o));
    return CUZK_OK;
  });
}

cuzk_status cuzk_await(cuzk_prover* prover, cuzk_job job, int64_t timeout_ms, cuzk_result** result) {
  return guarded([&] {
    require(prover, "prover");
    require(result, "result");
    std::optional<std::chrono::milliseconds> timeout;
    if (timeout_ms >= 0) timeout = std::chrono::milliseconds(timeout_ms);
    return await_job(*prover, job, timeout, result);
  });
}

cuzk_status cuzk_cancel(cuzk_prover* prover, cuzk_job job) {
  return guarded([&] {
    require(prover, "prover");
    if (!prover->svc.cancel(job))
      throw Refusal{CUZK_ERROR_NOT_FOUND, "no job " + std::to_string(job) + " is waiting to be awaited"};
    return CUZK_OK;
  });
}

size_t cuzk_result_count(const cuzk_result* result) { return result ? result->proofs.size() : 0; }

cuzk_status cuzk_result_get(const cuzk_result* result, size_t i, cuzk_proof* proof) {
  return guarded([&] {
    require(result, "result");
    require(proof, "proof");
    if (i >= result->proofs.size())
      throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, "proof " + std::to_string(i) + " of a result of " +
                                                     std::to_string(result->proofs.size())};
    const auto& p = result->proofs[i];
    *proof = {p.status, p.error.c_str(), p.proof.c_str(), p.publics.c_str(), p.times};
    return CUZK_OK;
  });
}

void cuzk_result_free(cuzk_result* result) { delete result; }

cuzk_status cuzk_prove(cuzk_prover* prover, const char* key_id, const cuzk_witness* witness, cuzk_result** result) {
  return guarded([&] {
    require(witness, "witness");
    require(result, "result");
    *result = nullptr;
    cuzk_job job = 0;
    const cuzk_status submitted = cuzk_submit(prover, key_id, witness, 1, 0, 0, &job);
    if (submitted != CUZK_OK) return submitted;  // its message is set
    await_job(*prover, job, std::nullopt, result);
    const auto& p = (*result)->proofs.front();
    if (p.status != CUZK_OK) throw Refusal{p.status, p.error};
    return CUZK_OK;
  });
}

cuzk_status cuzk_verify(const char* vk_json, const char* public_json, const char* proof_json, int* valid) {
  return guarded([&] {
    require(vk_json, "verification key JSON");
    require(public_json, "public signals JSON");
    require(proof_json, "proof JSON");
    require(valid, "valid");
    const service::Verdict verdict = service::verify_json(
        {vk_json, "verification key"}, {public_json, "public signals"}, {proof_json, "proof"});
    if (verdict.publics != verdict.expected)
      throw Refusal{CUZK_ERROR_INVALID_ARGUMENT, "public signals: " + std::to_string(verdict.publics) +
                                                     " values, but the key expects " + std::to_string(verdict.expected)};
    *valid = verdict.valid ? 1 : 0;
    return CUZK_OK;
  });
}

}  // extern "C"
