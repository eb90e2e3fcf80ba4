// cuzkd as one worker of a fleet sharing a PostgreSQL job queue (--queue;
// docs/QUEUE.md). Three threads, each with its own connection:
//   - claim: sweeps lapsed leases, then claims as many partitions as the
//     pipeline has room for (keys resident here first), loads keys it lacks
//     (checking their SHA-256 against the queue's record) and submits each
//     partition to the service; it sleeps until a NOTIFY or the poll interval;
//   - results: takes the service's outcomes as the partitions finish (the
//     service tells which) and writes each proof (or the failure) back in
//     one transaction;
//   - leases: renews this host's leases every third of the lease.
// A lost connection is retried with backoff (0.1 s doubling to 5 s); a claim
// that could not be written back lapses and another host proves it. stop()
// (SIGTERM) stops claiming, cancels what the service has not started, writes
// what finished, and gives the rest back to the queue.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cuzk/queue/queue.hpp"
#include "cuzk/service/service.hpp"
#include "config.hpp"
#include "queue_counters.hpp"

namespace cuzk::daemon {

class QueueWorker {
 public:
  QueueWorker(service::Service& service, QueueConfig config);
  ~QueueWorker();
  QueueWorker(const QueueWorker&) = delete;
  QueueWorker& operator=(const QueueWorker&) = delete;

  void start();
  // Stops claiming, cancels what has not started, writes what finished and
  // releases the rest; returns the partitions released.
  size_t stop();

  const QueueConfig& config() const { return config_; }
  const QueueCounters& counters() const { return counters_; }

 private:
  struct Held {
    queue::Claim claim;
    service::JobId job = 0;
  };
  void claim_loop(std::stop_token stop);
  void result_loop(std::stop_token stop);
  void lease_loop(std::stop_token stop);
  void claim_once(queue::Queue& q, std::stop_token stop);
  // The next held partition the service has finished, in the order they
  // finish; none once stop is requested and nothing is held.
  std::optional<Held> next_finished(std::stop_token stop);
  std::string ensure_key(queue::Queue& q, const queue::Claim& c);
  void write_back(queue::Queue& q, const Held& h, const service::PartitionOutcome& o);
  template <class F>
  void with_reconnect(std::unique_ptr<queue::Queue>& q, std::stop_token stop, const char* what, F&& f);

  service::Service& service_;
  QueueConfig config_;
  queue::QueueOptions options_;
  unsigned capacity_ = 2;
  QueueCounters counters_;
  std::mutex mu_;
  std::deque<Held> held_;                   // submitted to the service
  std::deque<service::JobId> finished_;     // jobs the service finished, not yet taken from held_, oldest first
  std::condition_variable_any held_changed_;  // a partition held or finished (results wakes) or taken (claim wakes)
  // Queue key ids loaded (and checked) here, with their content hash: an id
  // the operator re-pointed is loaded again.
  std::map<std::string, std::string> loaded_;
  std::atomic<bool> stopping_{false};
  std::jthread claimer_, results_, leases_;
};

}  // namespace cuzk::daemon
