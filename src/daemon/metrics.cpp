#include "metrics.hpp"

#include "listener.hpp"

#include <CivetServer.h>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <functional>
#include <iterator>
#include <stdexcept>
#include <string_view>

namespace cuzk::daemon {

namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;
using Labels = std::vector<ClientMetric::Label>;

// Latency buckets, seconds: a millisecond proof to a five-minute partition.
const prometheus::Histogram::BucketBoundaries kBuckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                        1,     2.5,    5,     10,   25,    50,   100, 300};

// Families built at scrape time from the service's status and counters.
class Families {
 public:
  MetricFamily& family(const std::string& name, MetricType type, const std::string& help) {
    for (auto& f : out_)
      if (f.name == name) return f;
    out_.push_back({name, help, type, {}});
    return out_.back();
  }
  void gauge(const std::string& name, const std::string& help, double v, Labels labels = {}) {
    ClientMetric m;
    m.label = std::move(labels);
    m.gauge.value = v;
    family(name, MetricType::Gauge, help).metric.push_back(m);
  }
  void counter(const std::string& name, const std::string& help, double v, Labels labels = {}) {
    ClientMetric m;
    m.label = std::move(labels);
    m.counter.value = v;
    family(name, MetricType::Counter, help).metric.push_back(m);
  }
  std::vector<MetricFamily> take() { return std::move(out_); }

 private:
  std::vector<MetricFamily> out_;
};

void add_status(Families& f, const service::Status& s) {
  f.gauge("cuzk_draining", "1 while the daemon drains (no new jobs)", s.draining ? 1 : 0);
  f.gauge("cuzk_queued_partitions", "Partitions admitted and not yet synthesizing", double(s.queued_partitions));
  f.gauge("cuzk_running_partitions", "Partitions synthesizing, proving or finishing", double(s.running_partitions));
  f.gauge("cuzk_pending_bytes", "Witness bytes held by unfinished jobs", double(s.pending_bytes));
  size_t by_state[3] = {0, 0, 0};
  for (const auto& j : s.jobs) ++by_state[size_t(j.state)];
  for (auto st : {service::JobState::queued, service::JobState::running, service::JobState::done})
    f.gauge("cuzk_jobs", "Jobs by state (done: finished, not yet awaited)", double(by_state[size_t(st)]),
            {{"state", service::job_state_name(st)}});
  f.gauge("cuzk_keys_loaded", "Proving keys loaded", double(s.keys.size()));
  f.gauge("cuzk_keys_host_bytes", "Host bytes of the loaded proving keys together", double(s.key_bytes));
  f.gauge("cuzk_keys_host_budget_bytes", "Host bytes the loaded proving keys may hold (0: no limit)",
          double(s.max_key_bytes));
  for (const auto& k : s.keys) {
    const Labels l{{"key", k.id}, {"curve", ec::curve_name(k.curve)}};
    f.gauge("cuzk_key_host_bytes", "A key's bytes held in host memory", double(k.host_bytes), l);
    f.gauge("cuzk_key_jobs", "Unfinished jobs proving with a key", double(k.jobs), l);
  }
  f.gauge("cuzk_host_pool_bytes", "Bytes of pooled host buffers allocated", double(s.host_pool_bytes));
  f.gauge("cuzk_host_pool_budget_bytes", "Budget of pooled host buffers", double(s.host_pool_budget));
  f.counter("cuzk_host_pool_allocations_total", "Host buffers allocated by the pool", double(s.host_pool_allocations));
  f.counter("cuzk_host_pool_waits_total", "Requests that waited for a host buffer", double(s.host_pool_waits));
  for (const auto& g : s.gpus) {
    const Labels l{{"gpu", std::to_string(g.device)}};
    Labels named = l;
    named.push_back({"name", g.name});
    f.gauge("cuzk_gpu_healthy", "1 while a GPU is in rotation, 0 once a fault took it out", g.healthy ? 1 : 0, named);
    // Prometheus names a counter's series "_total".
#define CUZK_GPU_COUNTER_METRIC(name, merge, kind, help) \
  f.kind(std::string("cuzk_gpu_" #name) + (std::string_view(#kind) == "counter" ? "_total" : ""), help, \
         double(g.counters.name), l);
    CUZK_GPU_COUNTERS(CUZK_GPU_COUNTER_METRIC)
#undef CUZK_GPU_COUNTER_METRIC
  }
}

// Every device that proves (-1: the CPU), with the totals recorded so far:
// a device that has recorded nothing yet shows zeros, so that every series
// exists from start.
engine::StageTotals stage_totals(const service::Counters& c, const service::Placement& where) {
  engine::StageTotals all = c.stages;
  if (where.backend == service::BackendKind::cuda)
    for (int gpu : where.gpus) all.try_emplace(gpu);
  else
    all.try_emplace(-1);
  return all;
}

void add_counters(Families& f, const service::Counters& c, const service::Placement& where) {
  f.counter("cuzk_jobs_submitted_total", "Jobs admitted", double(c.jobs_submitted));
  f.counter("cuzk_jobs_rejected_total", "Jobs refused at submission", double(c.jobs_rejected));
  f.counter("cuzk_partitions_proved_total", "Partitions proved and verified", double(c.partitions_proved));
  for (size_t k = 1; k < service::kErrorKindCount; ++k)
    f.counter("cuzk_partitions_failed_total", "Partitions failed, by reason", double(c.partitions_failed[k]),
              {{"reason", service::error_kind_name(service::ErrorKind(k))}});
  for (const auto& [gpu, stages] : stage_totals(c, where)) {
    const std::string where = gpu < 0 ? "cpu" : std::to_string(gpu);
    for (Stage s : kStages) {
      const auto& t = stages[size_t(s)];
      const Labels l{{"gpu", where}, {"stage", stage_name(s)}};
      f.counter("cuzk_stage_seconds_total", "Seconds spent in each pipeline stage, summed over spans",
                t.seconds, l);
      f.counter("cuzk_stage_spans_total", "Spans recorded per pipeline stage", double(t.count), l);
    }
    if (gpu < 0) continue;
    const Labels l{{"gpu", where}};
    // The kernel lock admits one worker at a time: its hold time is the time
    // the GPU's kernels ran.
    f.counter("cuzk_gpu_busy_seconds_total", "Seconds a GPU ran kernels (its kernel lock held)",
              stages[size_t(Stage::lock_held)].seconds, l);
    f.counter("cuzk_gpu_lock_wait_seconds_total", "Seconds workers waited for a GPU's kernel lock",
              stages[size_t(Stage::lock_wait)].seconds, l);
    f.counter("cuzk_gpu_lock_held_seconds_total", "Seconds a GPU's kernel lock was held",
              stages[size_t(Stage::lock_held)].seconds, l);
    for (Stage s : {Stage::upload, Stage::key_upload})
      f.counter("cuzk_h2d_bytes_total", "Bytes copied host to device (witnesses and a/b/c; proving keys)",
                double(stages[size_t(s)].bytes), {{"gpu", where}, {"stage", stage_name(s)}});
  }
}

}  // namespace

class Metrics::Handler : public CivetHandler {
 public:
  explicit Handler(Route respond) : respond_(std::move(respond)) {}

  bool handleGet(CivetServer*, mg_connection* conn) override {
    Reply reply{200, "text/plain; charset=utf-8", "", {}};
    try {
      const mg_request_info* request = mg_get_request_info(conn);
      reply = respond_(request && request->local_uri ? request->local_uri : "");
    } catch (const std::exception& e) {
      reply = {500, "text/plain; charset=utf-8", std::string("error: ") + e.what() + "\n", {}};
    }
    const char* reason = reply.status == 200   ? "OK"
                         : reply.status == 404 ? "Not Found"
                         : reply.status == 503 ? "Service Unavailable"
                                               : "Internal Server Error";
    std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason + "\r\nContent-Type: " + reply.type +
                       "\r\nContent-Length: " + std::to_string(reply.body.size()) + "\r\nConnection: close\r\n";
    for (const auto& [name, value] : reply.headers) head += name + ": " + value + "\r\n";
    head += "\r\n";
    mg_write(conn, head.data(), head.size());
    mg_write(conn, reply.body.data(), reply.body.size());
    return true;
  }

 private:
  Route respond_;
};

Metrics::Metrics(service::Service& service) : service_(service), registry_(std::make_shared<prometheus::Registry>()) {
  stage_seconds_ = &prometheus::BuildHistogram()
                        .Name("cuzk_partition_seconds")
                        .Help("Seconds each partition spent per stage: queue, synthesis, prove, finish, total")
                        .Register(*registry_);
  // Every series of a fixed set exists from start, at 0: a scrape (or a
  // rate() over it) before the first proof finds it.
  for (Phase p : kPhases) stage_seconds_->Add({{"stage", phase_name(p)}}, kBuckets);
  proofs_ = &prometheus::BuildCounter()
                 .Name("cuzk_proofs_total")
                 .Help("Partitions proved and verified, by key")
                 .Register(*registry_);
  failures_ = &prometheus::BuildCounter()
                   .Name("cuzk_partition_failures_total")
                   .Help("Partitions failed, by key and reason")
                   .Register(*registry_);
  service_.on_partition([this](const service::PartitionEvent& e) { observe(e.key, e.curve, e.outcome); });
}

Metrics::~Metrics() {
  // The HTTP threads call into this object: stop them first.
  http_.reset();
}

size_t Metrics::key_label_limit() const {
  const size_t keys = service_.options().max_keys;
  return keys ? 4 * keys : 1024;
}

std::string Metrics::key_label(const std::string& key) {
  std::lock_guard lock(key_labels_mu_);
  if (key_labels_.count(key)) return key;
  if (key_labels_.size() >= key_label_limit()) return "other";
  key_labels_.insert(key);
  return key;
}

void Metrics::observe(const std::string& key_id, ec::Curve curve, const service::PartitionOutcome& o) {
  const std::string key = key_label(key_id);
  if (o.ok()) {
    for (Phase p : kPhases) stage_seconds_->Add({{"stage", phase_name(p)}}, kBuckets).Observe(o.times[p]);
    proofs_->Add({{"key", key}, {"curve", ec::curve_name(curve)}}).Increment();
  } else {
    failures_->Add({{"key", key}, {"reason", service::error_kind_name(o.error_kind)}}).Increment();
  }
}

namespace {

// The queue worker's view: what it claimed and wrote, and the fleet's queue
// depth at its last sweep. Summed over hosts, they give the fleet's figures.
void add_queue(Families& f, const QueueCounters& q, const std::string& host) {
  const Labels l{{"host", host}};
  const auto count = [&](const char* name, const char* help, const std::atomic<uint64_t>& v) {
    f.counter(name, help, double(v.load()), l);
  };
  count("cuzk_queue_claims_total", "Partitions claimed from the queue", q.claims);
  count("cuzk_queue_reclaims_total", "Claims of partitions whose earlier lease had lapsed", q.reclaims);
  count("cuzk_queue_affinity_claims_total", "Claims of partitions whose key this host held", q.affinity_hits);
  count("cuzk_queue_proofs_written_total", "Proofs written back (this host's throughput)", q.written);
  count("cuzk_queue_duplicates_total", "Proofs discarded: another host had written the partition first", q.duplicates);
  count("cuzk_queue_failures_total", "Partitions failed or put back for another attempt", q.failed);
  count("cuzk_queue_released_total", "Claims given back at shutdown", q.released);
  count("cuzk_queue_lease_expiries_total", "Lapsed leases this host's sweeps put back", q.lease_expiries);
  count("cuzk_queue_reconnects_total", "Connections to the database made again after a loss", q.reconnects);
  f.counter("cuzk_queue_claim_seconds_total", "Time spent in claim statements", double(q.claim_micros.load()) / 1e6, l);
  count("cuzk_queue_claim_calls_total", "Claim statements run", q.claim_calls);
  if (q.depth >= 0) f.gauge("cuzk_queue_depth", "Partitions queued in the database (every key)", double(q.depth.load()), l);
}

}  // namespace

void Metrics::watch_queue(const QueueCounters* counters, std::string host) {
  queue_host_ = std::move(host);
  queue_ = counters;
}

void Metrics::add_key_series(const std::string& key_id, ec::Curve curve) {
  const std::string key = key_label(key_id);
  proofs_->Add({{"key", key}, {"curve", ec::curve_name(curve)}});
  for (size_t k = 1; k < service::kErrorKindCount; ++k)
    failures_->Add({{"key", key}, {"reason", service::error_kind_name(service::ErrorKind(k))}});
}

std::string Metrics::scrape() {
  Families live;
  const service::Status status = service_.status();
  // A loaded key's series exist at 0 before its first partition.
  for (const auto& k : status.keys) add_key_series(k.id, k.curve);
  add_status(live, status);
  add_counters(live, service_.counters(), service_.placement());
  if (queue_) add_queue(live, *queue_, queue_host_);
  std::vector<MetricFamily> all = registry_->Collect();
  for (auto& f : live.take()) all.push_back(std::move(f));
  return prometheus::TextSerializer().Serialize(all);
}

void Metrics::set_draining() { draining_ = true; }

void Metrics::set_grpc_answering(bool answering) { grpc_answering_ = answering; }

void Metrics::route(std::string path, Route respond) {
  handlers_.emplace_back(std::move(path), std::make_unique<Handler>(std::move(respond)));
}

void Metrics::serve(const std::string& address) {
  route("/metrics", [this](const std::string&) {
    return Reply{200, "text/plain; version=0.0.4; charset=utf-8", scrape(), {}};
  });
  route("/healthz", [this](const std::string&) {
    const bool answering = grpc_answering_;
    return Reply{draining_ || !answering ? 503 : 200, "text/plain; charset=utf-8",
                 draining_ ? "draining\n" : answering ? "ok\n" : "grpc not answering\n", {}};
  });
  try {
    // A connection that never finishes its request holds a thread only for
    // request_timeout_ms, and a few of them leave threads for /healthz.
    http_ = std::make_unique<CivetServer>(std::vector<std::string>{
        "listening_ports", address, "num_threads", "16", "request_timeout_ms", "5000"});
  } catch (const std::exception&) {
    // CivetServer says only "null context when constructing CivetServer":
    // the cause is found again (check_addresses found it free at start).
    throw std::runtime_error(port_in_use(address) ? metrics_in_use(address) : "metrics: cannot listen on " + address);
  }
  for (const auto& [path, handler] : handlers_) http_->addHandler(path, handler.get());
}

int Metrics::port() const {
  if (!http_) return 0;
  const auto ports = http_->getListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace cuzk::daemon
