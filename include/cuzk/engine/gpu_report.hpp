// What a GPU reports for status and metrics: its health, its counters and
// the keys it holds. The engine fills it, the service merges the reports of
// its engines (one a curve), and cuzkd's gRPC status, Prometheus metrics and
// status page each translate the counters by the one list below.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace cuzk::engine {

// Each counter once: its name (the field here, in cuzkd's GpuStatus message,
// in /status.json, and "cuzk_gpu_<name>" in the metrics, "_total" added to a
// counter), how the reports of one GPU by the engines of both curves merge,
// its Prometheus kind and help. The fault counts are the GPU's own, so both
// engines report the same; each curve's key cache is its own, so bytes and
// events add up; the key budget is shared by both caches.
#define CUZK_GPU_COUNTERS(X)                                                                   \
  X(faults, same, counter, "Faults that took a GPU out of rotation")                           \
  X(recoveries, same, counter, "Resets and self-checks that brought a GPU back")               \
  X(key_cache_bytes, sum, gauge, "Device bytes of resident proving keys")                      \
  X(key_budget_bytes, largest, gauge, "Device bytes allowed for resident proving keys")       \
  X(key_uploads, sum, counter, "Proving keys uploaded to a GPU")                               \
  X(key_hits, sum, counter, "Partitions that found their key resident")                        \
  X(key_evictions, sum, counter, "Resident keys evicted from a GPU")

struct GpuCounters {
#define CUZK_GPU_COUNTER_FIELD(name, ...) uint64_t name = 0;
  CUZK_GPU_COUNTERS(CUZK_GPU_COUNTER_FIELD)
#undef CUZK_GPU_COUNTER_FIELD

  // Folds in another engine's report of the same GPU.
  void merge(const GpuCounters& other) {
#define CUZK_GPU_COUNTER_MERGE(name, how, ...) name = how(name, other.name);
    CUZK_GPU_COUNTERS(CUZK_GPU_COUNTER_MERGE)
#undef CUZK_GPU_COUNTER_MERGE
  }

 private:
  static uint64_t same(uint64_t, uint64_t theirs) { return theirs; }
  static uint64_t sum(uint64_t mine, uint64_t theirs) { return mine + theirs; }
  static uint64_t largest(uint64_t mine, uint64_t theirs) { return std::max(mine, theirs); }
};

// A GPU that holds a key: its points resident in device memory, or streamed
// from the key's host memory, proof by proof.
struct KeyOnGpu {
  int device = 0;
  bool streamed = false;
};

// One GPU's state, as one engine sees it.
struct GpuReport {
  int device = 0;
  bool healthy = true;
  std::string fault;     // what took it out of rotation
  GpuCounters counters;  // since the process started
};

}  // namespace cuzk::engine
