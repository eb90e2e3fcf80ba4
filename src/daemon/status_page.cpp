#include "status_page.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "cuzk/util/stoppable_sleep.hpp"
#include "metrics.hpp"
#include "status_page_assets.hpp"  // made at build time (src/daemon/CMakeLists.txt)

namespace cuzk::daemon {

namespace {

using J = nlohmann::ordered_json;

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A device's busy seconds so far: a GPU's kernel lock held (one worker at a
// time runs kernels; cuzk_gpu_busy_seconds_total), or the CPU workers'
// proving stages summed over the workers.
double busy_seconds(const engine::StageTotals& totals, int device) {
  const auto it = totals.find(device);
  if (it == totals.end()) return 0;
  if (device >= 0) return it->second[size_t(Stage::lock_held)].seconds;
  double s = 0;
  for (size_t i = 0; i < kStageCount; ++i)
    if (is_kernel_stage(Stage(i))) s += it->second[i].seconds;
  return s;
}

uint64_t failed_total(const service::Counters& c) {
  uint64_t n = 0;
  for (uint64_t f : c.partitions_failed) n += f;
  return n;
}

J totals_json(const service::Counters& c) {
  J failed = J::object();
  for (size_t k = 1; k < service::kErrorKindCount; ++k)
    failed[service::error_kind_name(service::ErrorKind(k))] = c.partitions_failed[k];
  return {{"jobs_submitted", c.jobs_submitted},
          {"jobs_rejected", c.jobs_rejected},
          {"partitions_proved", c.partitions_proved},
          {"partitions_failed", failed_total(c)},
          {"partitions_failed_by_reason", std::move(failed)}};
}

// Unfinished jobs grouped by key and priority, highest priority first.
J queue_json(const service::Status& s) {
  struct Group {
    uint64_t jobs_queued = 0, jobs_running = 0, partitions_left = 0;
  };
  std::map<std::tuple<int, std::string>, Group> groups;  // (-priority, key)
  for (const auto& j : s.jobs) {
    if (j.state == service::JobState::done) continue;
    Group& g = groups[{-j.priority, j.key}];
    ++(j.state == service::JobState::queued ? g.jobs_queued : g.jobs_running);
    g.partitions_left += j.partitions - std::min(j.partitions, j.done);
  }
  J by_key = J::array();
  for (const auto& [at, g] : groups)
    by_key.push_back({{"key", std::get<1>(at)},
                      {"priority", -std::get<0>(at)},
                      {"jobs_queued", g.jobs_queued},
                      {"jobs_running", g.jobs_running},
                      {"partitions_left", g.partitions_left}});
  return {{"queued_partitions", s.queued_partitions},
          {"running_partitions", s.running_partitions},
          {"pending_bytes", s.pending_bytes},
          {"by_key", std::move(by_key)}};
}

J keys_json(const service::Status& s) {
  J keys = J::array();
  for (const auto& k : s.keys) {
    J gpus = J::array();
    for (const engine::KeyOnGpu& g : k.gpus) gpus.push_back({{"device", g.device}, {"streamed", g.streamed}});
    keys.push_back({{"id", k.id},
                    {"curve", ec::curve_name(k.curve)},
                    {"domain_size", k.domain_size},
                    {"host_bytes", k.host_bytes},
                    {"jobs", k.jobs},
                    {"gpus", std::move(gpus)}});
  }
  return keys;
}

J gpus_json(const service::Status& s) {
  J gpus = J::array();
  for (const auto& g : s.gpus) {
    J gpu = {{"device", g.device},
             {"name", g.name},
             {"healthy", g.healthy},
             {"fault", g.fault},
             {"recovery_error", g.recovery_error}};
#define CUZK_GPU_COUNTER_JSON(name, ...) gpu[#name] = g.counters.name;
    CUZK_GPU_COUNTERS(CUZK_GPU_COUNTER_JSON)
#undef CUZK_GPU_COUNTER_JSON
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

// Each stage's median and p95 over the spans that ended within the window
// before the latest one.
J stages_json(std::vector<engine::Span> spans) {
  double latest = 0;
  for (const auto& s : spans) latest = std::max(latest, s.end);
  std::erase_if(spans, [&](const engine::Span& s) { return s.end < latest - StatusPage::kStageWindow; });
  J stages = J::array();
  for (const auto& st : engine::summarize(spans).stages)
    stages.push_back({{"stage", stage_name(st.stage)},
                      {"count", st.count},
                      {"median_s", st.median},
                      {"p95_s", st.p95}});
  return {{"window_s", StatusPage::kStageWindow}, {"spans", spans.size()}, {"stages", std::move(stages)}};
}

J queue_counters_json(const QueueCounters& q) {
  return {{"claims", q.claims.load()},
          {"reclaims", q.reclaims.load()},
          {"affinity_claims", q.affinity_hits.load()},
          {"proofs_written", q.written.load()},
          {"duplicates", q.duplicates.load()},
          {"failures", q.failed.load()},
          {"released", q.released.load()},
          {"lease_expiries", q.lease_expiries.load()},
          {"reconnects", q.reconnects.load()},
          {"depth", q.depth.load()}};
}

}  // namespace

struct StatusPage::Sampler {
  Sampler(const service::Service& service, std::chrono::milliseconds interval, size_t intervals)
      : interval(interval), history(device_names(service), intervals) {
    const auto& p = service.placement();
    if (p.backend == service::BackendKind::cuda) {
      devices = p.gpus;
      lanes.assign(devices.size(), 1);
    } else {
      devices = {-1};
      lanes = {std::max(1u, service.options().cpu_workers)};
    }
    last_busy.assign(devices.size(), 0);
  }
  static std::vector<std::string> device_names(const service::Service& service) {
    const auto& p = service.placement();
    if (p.backend != service::BackendKind::cuda) return {"cpu"};
    std::vector<std::string> names;
    for (int g : p.gpus) names.push_back(std::to_string(g));
    return names;
  }

  std::mutex mu;  // sample() and watch_queue()
  const std::chrono::milliseconds interval;
  const double started = unix_now();
  History history;
  std::vector<int> devices;  // -1: the CPU
  std::vector<unsigned> lanes;
  std::vector<double> last_busy;
  uint64_t last_proved = 0, last_failed = 0;
  std::chrono::steady_clock::time_point last{};  // none yet
  const QueueCounters* queue = nullptr;
  std::string host;
  FleetSource fleet;
  J fleet_json;
  std::chrono::steady_clock::time_point fleet_at{};
};

StatusPage::StatusPage(service::Service& service, std::chrono::milliseconds interval, size_t intervals)
    : service_(service), sampler_(std::make_unique<Sampler>(service, interval, intervals)), failures_(kFailuresKept) {
  service_.on_partition([this](const service::PartitionEvent& e) {
    if (e.outcome.ok()) return;
    Failure f{unix_now(), e.job, e.partition, e.key, ec::curve_name(e.curve),
              service::error_kind_name(e.outcome.error_kind), e.outcome.error};
    std::lock_guard lock(mu_);
    failures_.add(std::move(f));
  });
  sample();
  thread_ = std::jthread([this](std::stop_token stop) {
    while (sleep_unless_stopped(stop, sampler_->interval)) sample();
  });
}

StatusPage::~StatusPage() = default;

void StatusPage::watch_queue(const QueueCounters* counters, std::string host, FleetSource fleet) {
  std::lock_guard lock(sampler_->mu);
  sampler_->queue = counters;
  sampler_->host = std::move(host);
  sampler_->fleet = std::move(fleet);
}

void StatusPage::sample() {
  Sampler& s = *sampler_;
  std::lock_guard sampling(s.mu);
  const auto now = std::chrono::steady_clock::now();
  const service::Status status = service_.status();
  const service::Counters counters = service_.counters();
  std::vector<double> busy(s.devices.size());
  for (size_t d = 0; d < s.devices.size(); ++d) {
    const double total = busy_seconds(counters.stages, s.devices[d]);
    busy[d] = total - s.last_busy[d];
    s.last_busy[d] = total;
  }
  const uint64_t failed = failed_total(counters);
  if (s.last != std::chrono::steady_clock::time_point{}) {
    History::Interval v;
    v.end = unix_now();
    v.seconds = std::chrono::duration<double>(now - s.last).count();
    v.proved = counters.partitions_proved - s.last_proved;
    v.failed = failed - s.last_failed;
    v.queued = status.queued_partitions;
    v.running = status.running_partitions;
    s.history.add(v, busy, s.lanes);
  }
  s.last = now;
  s.last_proved = counters.partitions_proved;
  s.last_failed = failed;
  if (s.fleet && (s.fleet_at == std::chrono::steady_clock::time_point{} || now - s.fleet_at >= std::chrono::seconds(5))) {
    s.fleet_json = s.fleet();
    s.fleet_at = now;
  }

  J j;
  j["schema"] = kSchema;
  j["version"] = service::kVersion;
  j["time"] = unix_now();
  j["started"] = s.started;
  j["backend"] = status.backend;
  j["draining"] = status.draining;
  j["interval_s"] = std::chrono::duration<double>(s.interval).count();
  j["proofs_per_second"] = s.history.proved_per_second(60);
  j["totals"] = totals_json(counters);
  j["queue"] = queue_json(status);
  j["stages"] = stages_json(service_.spans());
  j["keys"] = keys_json(status);
  j["gpus"] = gpus_json(status);
  j["host_pool"] = {{"bytes", status.host_pool_bytes},
                    {"budget_bytes", status.host_pool_budget},
                    {"allocations", status.host_pool_allocations},
                    {"waits", status.host_pool_waits}};
  j["history"] = s.history.to_json();
  if (s.queue)
    j["fleet"] = {{"host", s.host}, {"this_host", queue_counters_json(*s.queue)}, {"fleet", s.fleet_json}};
  else
    j["fleet"] = nullptr;
  std::lock_guard lock(mu_);
  j["failures"] = failures_.to_json();
  // A message is what a stage threw: its bytes need not be UTF-8.
  snapshot_ = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string StatusPage::json() const {
  std::lock_guard lock(mu_);
  return snapshot_;
}

void StatusPage::route(Metrics& metrics) {
  metrics.route("/status.json", [this](const std::string&) {
    return Metrics::Reply{200, "application/json", json(), {{"Cache-Control", "no-store"}}};
  });
  for (const auto& asset : status_page_assets::kAssets) {
    // The page's own files only: no script, style or frame from elsewhere,
    // and nothing of it inside another site's frame.
    Metrics::Headers headers{{"Cache-Control", "no-cache"}};
    if (asset.path == "/")
      headers.push_back({"Content-Security-Policy",
                         "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                         "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"});
    metrics.route(std::string(asset.path), [asset, headers](const std::string& path) {
      if (path != asset.path) return Metrics::Reply{404, "text/plain; charset=utf-8", "not found\n", {}};
      return Metrics::Reply{200, std::string(asset.type) + "; charset=utf-8", std::string(asset.bytes), headers};
    });
  }
}

}  // namespace cuzk::daemon
