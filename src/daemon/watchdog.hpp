// Whether cuzkd's gRPC server still accepts and answers: a round trip over a
// fresh connection, with a short deadline, to each of its own listeners, at
// start and then periodically: ListKeys where it needs no client certificate,
// a TLS handshake as far as the server's certificate on a TLS listener
// (tls_answers). /healthz reports the last round; after a run of failed
// rounds the watchdog gives up on the process (main.cpp drains and exits with
// status 3 for the service manager to start a fresh one), as a server that
// stopped accepting does not come back by itself.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::daemon {

// Whether a round trip that ended with `code` reached a server that answered:
// any status it sends (RESOURCE_EXHAUSTED when its threads are all busy
// included), but not a connection refused or a deadline passed.
bool answered(grpc::StatusCode code);

// Whether the TLS server at "host:port" ("[v6]:port" too) accepts a
// connection and answers a handshake with its certificate within `deadline`.
bool tls_answers(const std::string& address, std::chrono::milliseconds deadline);

// One of the process's own listeners.
struct ProbeTarget {
  std::string address;  // gRPC's: "unix:/path" or "host:port"
  bool tls = false;     // probed by tls_answers instead of a call
};

// Failed rounds in a row, and the verdict.
class ProbeStreak {
 public:
  explicit ProbeStreak(unsigned limit) : limit_(limit) {}
  // Records a round; true on the round that makes `limit` failures in a row.
  bool record(bool ok) {
    failures_ = ok ? 0 : failures_ + 1;
    return failures_ == limit_;
  }
  bool answering() const { return failures_ == 0; }

 private:
  unsigned limit_;
  unsigned failures_ = 0;
};

struct WatchdogTiming {
  std::chrono::milliseconds period{2000};    // between rounds
  std::chrono::milliseconds deadline{2000};  // of each round trip
  unsigned failures = 3;                     // failed rounds in a row before giving up
};

class GrpcWatchdog {
 public:
  // `targets`: this process's listeners. Makes the first round before returning; each round's
  // result goes to `report`, and `lost` is called once when it gives up
  // (both from the watchdog's thread after the first round).
  GrpcWatchdog(std::vector<ProbeTarget> targets, std::function<void(bool)> report, std::function<void()> lost,
               WatchdogTiming timing = {});
  GrpcWatchdog(const GrpcWatchdog&) = delete;
  GrpcWatchdog& operator=(const GrpcWatchdog&) = delete;

 private:
  // One round: true when every target answered (each failure is logged).
  bool round() const;
  void run(std::stop_token stop);

  const std::vector<ProbeTarget> targets_;
  const std::function<void(bool)> report_;
  const std::function<void()> lost_;
  const WatchdogTiming timing_;
  ProbeStreak streak_;
  std::jthread thread_;
};

}  // namespace cuzk::daemon
