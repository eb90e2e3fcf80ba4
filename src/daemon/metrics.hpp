// cuzkd's HTTP side: Prometheus text on /metrics and liveness on /healthz
// (200 "ok" while serving and gRPC answers; 503 "draining" once a drain
// began, "grpc not answering" while the watchdog's last round failed), on
// their own address, with whatever else route() adds there (the status
// page, status_page.hpp). Metrics come from two places:
//   - each finished partition (Service::on_partition): per-stage latency
//     histograms, proofs and failures by key and reason;
//   - Service::status() and Service::counters(), read at each scrape: queue
//     depths, jobs, keys, host pool, GPU health and key caches, and per GPU
//     the busy (kernel lock held), lock wait and H2D byte totals.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/service/service.hpp"
#include "queue_counters.hpp"

class CivetServer;

namespace prometheus {
class Registry;
template <class T>
class Family;
class Histogram;
class Counter;
}  // namespace prometheus

namespace cuzk::daemon {

class Metrics {
 public:
  // Records the service's partitions from now on; serve() starts HTTP.
  explicit Metrics(service::Service& service);
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  using Headers = std::vector<std::pair<std::string, std::string>>;
  struct Reply {
    int status = 200;
    std::string type, body;
    Headers headers;  // beyond the content type and length
  };
  // Answers GET of `path` (and, civetweb's rule, of paths beneath it; "/":
  // of every path no other route takes), given the path asked for. On the
  // metrics address, so behind the same access rules as /metrics. Before
  // serve().
  using Route = std::function<Reply(const std::string& path)>;
  void route(std::string path, Route respond);

  // Listens on "host:port" (port 0: any free port); std::runtime_error with
  // one line when it cannot.
  void serve(const std::string& address);
  // The port served on (after serve()).
  int port() const;

  // /healthz answers 503 from now on.
  void set_draining();
  // Whether gRPC answered the watchdog's last round (watchdog.hpp): /healthz
  // answers 503 while it did not.
  void set_grpc_answering(bool answering);

  // The body of /metrics.
  std::string scrape();

  // The queue worker's counters, exported from now on under host=`host`.
  void watch_queue(const QueueCounters* counters, std::string host);

  // One finished partition (called from an engine thread).
  void observe(const std::string& key, ec::Curve curve, const service::PartitionOutcome& outcome);

  // Distinct key ids that get their own series in the per-key counters: four
  // times max_keys (1024 without it); the ids beyond them count under "other",
  // so that loading and evicting new ids cannot grow the series without bound.
  size_t key_label_limit() const;

 private:
  class Handler;
  service::Service& service_;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Histogram>* stage_seconds_;
  prometheus::Family<prometheus::Counter>* proofs_;
  prometheus::Family<prometheus::Counter>* failures_;
  std::string key_label(const std::string& key);
  // A key's proof and failure series (every reason), at 0 where new.
  void add_key_series(const std::string& key_id, ec::Curve curve);
  std::mutex key_labels_mu_;
  std::set<std::string> key_labels_;
  std::atomic<bool> draining_{false};
  std::atomic<bool> grpc_answering_{true};
  const QueueCounters* queue_ = nullptr;
  std::string queue_host_;
  std::vector<std::pair<std::string, std::unique_ptr<Handler>>> handlers_;  // by path
  std::unique_ptr<CivetServer> http_;
};

}  // namespace cuzk::daemon
