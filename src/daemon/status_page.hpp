// cuzkd's status page (docs/DAEMON.md, "The status page"): on the metrics
// address, beside /metrics and behind the same access rules, "/" serves one
// page (HTML, its script and style, and uPlot, all compiled into the binary:
// status_page/ and node_modules/uplot, embedded by cmake/embed_files.cmake)
// that reads /status.json every two seconds and draws it.
//
// /status.json is a snapshot a sampler thread makes once per interval, so
// that a request costs a copy of a string whatever the service holds, and no
// client can make the service take its locks more often than the sampler
// does. The snapshot is made of
//   - Service::status() and counters(): queues, jobs by key and priority,
//     keys, GPUs, the host pool, totals;
//   - the service's latest spans (kSpansKept of them): each stage's median
//     and p95 over the spans of the last kStageWindow seconds;
//   - History and FailureLog (status_history.hpp), fed by the sampler and
//     by Service::on_partition;
//   - in queue mode, this host's queue counters and the fleet.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "cuzk/service/service.hpp"
#include "queue_counters.hpp"
#include "status_history.hpp"

namespace cuzk::daemon {

class Metrics;

class StatusPage {
 public:
  // The spans the service keeps for the stage latencies: about 400 KiB.
  static constexpr size_t kSpansKept = 8192;
  // Spans that ended this long before the latest count in the latencies.
  static constexpr double kStageWindow = 300;
  // The latest failed partitions listed.
  static constexpr size_t kFailuresKept = 50;
  // /status.json's "schema": raised when a field changes meaning or goes.
  static constexpr int kSchema = 1;

  // Samples `service` every `interval`, keeping `intervals` of them (ten
  // minutes at the defaults), and records its failed partitions from now on.
  explicit StatusPage(service::Service& service, std::chrono::milliseconds interval = std::chrono::seconds(1),
                      size_t intervals = 600);
  // Stops the sampler.
  ~StatusPage();
  StatusPage(const StatusPage&) = delete;
  StatusPage& operator=(const StatusPage&) = delete;

  // The fleet as the job queue tells it (JSON, or {"error": ...}), asked
  // for on the sampler thread at most every 5 s.
  using FleetSource = std::function<nlohmann::ordered_json()>;
  // Queue mode: this host's counters (exported under `host`) and the fleet.
  void watch_queue(const QueueCounters* counters, std::string host, FleetSource fleet);

  // Serves "/", "/status.json" and the page's files on `metrics`'s address
  // (before Metrics::serve).
  void route(Metrics& metrics);

  // The latest snapshot: /status.json's body.
  std::string json() const;
  // Takes a sample and makes the snapshot now (the sampler's step).
  void sample();

 private:
  struct Sampler;
  service::Service& service_;
  std::unique_ptr<Sampler> sampler_;
  mutable std::mutex mu_;  // guards what follows
  FailureLog failures_;
  std::string snapshot_;
  std::jthread thread_;
};

}  // namespace cuzk::daemon
