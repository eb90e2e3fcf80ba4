// What a queue worker (queue_worker.hpp) counts, for /metrics: plain atomics,
// so that the metrics need not know the queue (cuzkd builds without libpq too).
#pragma once

#include <atomic>
#include <cstdint>

namespace cuzk::daemon {

struct QueueCounters {
  std::atomic<uint64_t> claims{0}, reclaims{0}, affinity_hits{0}, written{0}, duplicates{0}, failed{0},
      released{0}, lease_expiries{0}, reconnects{0};
  std::atomic<uint64_t> claim_micros{0}, claim_calls{0};  // claim latency: total and count
  std::atomic<int64_t> depth{-1};                        // queued partitions at the last sweep
};

}  // namespace cuzk::daemon
