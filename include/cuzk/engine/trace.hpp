// Instrumentation for the proving pipeline (docs/ARCHITECTURE.md, "Instrumentation"):
// every stage of every partition is a span on a track (a GPU worker, its copy
// stream, a synthesis thread, the finalizer). From the spans come
//   - CUZK_TIMING=1 lines on stderr, one per span as it ends;
//   - a Chrome trace-event file (--trace FILE) that opens in Perfetto, with one
//     named thread per track;
//   - the summary every run ends with: per-stage count, median and p95, GPU
//     busy %, upload GB/s, lock wait and hold.
// Recording is one short critical section per span (a few per partition, each
// partition tens of milliseconds or more), far under 1% of proof time;
// CUZK_SPANS=0 turns it off, to measure that claim (bench pipeline). The
// recorder keeps the latest `capacity` spans in a ring and counts the older
// ones it dropped, so a process that proves for ever holds bounded memory
// (none at all with capacity 0).
#pragma once

#include <array>
#include <chrono>
#include <compare>
#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/util/stages.hpp"

namespace cuzk::engine {

struct Track {
  enum class Kind : uint8_t { worker, copy, synthesis, finalizer };
  Kind kind = Kind::worker;
  int gpu = -1;   // the GPU of a worker or copy track; -1 for CPU-side tracks and CPU workers
  int index = 0;  // worker or thread number
  friend auto operator<=>(const Track&, const Track&) = default;
};
// "GPU 0 worker 1", "CPU worker 0", "GPU 0 copy 1", "synthesis 3", "finalizer 0".
std::string track_name(const Track& t);

struct Span {
  Stage stage = Stage::synthesis;
  Track track;
  uint32_t job = 0, partition = 0;
  double start = 0, end = 0;  // seconds since the recorder's epoch
  uint64_t bytes = 0;         // bytes moved, for uploads
};

// One stage's totals since the recorder was made: what cumulative metrics
// (a Prometheus counter of GPU busy seconds, H2D bytes) are made of.
struct StageTotal {
  uint64_t count = 0;
  double seconds = 0;
  uint64_t bytes = 0;
};
// Per GPU (-1: CPU-side tracks and CPU workers), per stage (indexed by Stage).
using StageTotals = std::map<int, std::array<StageTotal, kStageCount>>;

class Recorder {
 public:
  // About 48 MiB of spans: some 70 000 partitions' worth.
  static constexpr size_t kDefaultCapacity = size_t(1) << 20;

  // log_lines: print a CUZK_TIMING line for every span as it is recorded.
  // capacity: the spans kept; 0 keeps none, only the totals (a daemon, whose
  // metrics are made of the totals and which never reads the spans).
  // enabled: false makes record() return at once, so that spans(), totals()
  // (and the metrics and summaries made of them) stay empty and no line is
  // printed; now() still serves the engine's per-partition times.
  // The front ends decide them (CUZK_TIMING, CUZK_SPANS: util/env_flag.hpp).
  explicit Recorder(bool log_lines, size_t capacity = kDefaultCapacity, bool enabled = true);

  // Seconds since the recorder was made: the time base of every span.
  double now() const;
  // A stage outside the pipeline (a key's loading) and its time, as a
  // report_stage line when log_lines.
  void report_stage(const char* stage, double seconds) const;
  // Thread-safe. Throws std::invalid_argument for a span that ends before it
  // starts (when enabled); a span there is no memory for is dropped, never
  // thrown.
  void record(const Span& span);
  // The kept spans, oldest first.
  std::vector<Span> spans() const;
  // Spans recorded but no longer kept (overwritten, or no memory).
  uint64_t dropped() const;
  // Every span recorded, kept or not, summed per GPU and stage.
  StageTotals totals() const;

  // Records [construction, destruction) as one span.
  class Scope {
   public:
    Scope(Recorder& r, Span span) : r_(r), span_(span) { span_.start = r.now(); }
    ~Scope() {
      span_.end = r_.now();
      r_.record(span_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Recorder& r_;
    Span span_;
  };

 private:
  const std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
  const bool log_lines_;
  const size_t capacity_;
  const bool enabled_;
  mutable std::mutex mu_;
  std::vector<Span> ring_;  // grows to capacity_, then wraps
  size_t next_ = 0;         // where the next span goes once ring_ is full
  uint64_t dropped_ = 0;
  StageTotals totals_;
};

// One CUZK_TIMING line on stderr: a stage outside the pipeline (a command's,
// a key's loading) and its time. A heading goes before the first.
void report_stage(const char* stage, double seconds);

// The spans as Chrome trace events: "X" (complete) events in microseconds, one
// thread (tid) per track in track order, each named by a thread_name metadata
// event; job, partition and bytes go in args.
nlohmann::ordered_json chrome_trace(std::span<const Span> spans);

struct StageSummary {
  Stage stage;
  size_t count = 0;
  double median = 0, p95 = 0, total = 0;  // seconds
};

struct Summary {
  std::vector<StageSummary> stages;  // the stages that occurred, in Stage order
  double wall = 0;                   // first start to last end, seconds
  // Per GPU, the share of the wall time during which at least one kernel stage
  // ran on it (overlapping spans count once), averaged over the GPUs seen; 0
  // when no GPU appears.
  double gpu_busy = 0;
  // The same share of each GPU's own steady state, its first kernel's start
  // to its last kernel's end: without the warm-up (first synthesis, key
  // upload) and the drain (last finish).
  double gpu_busy_steady = 0;
  size_t gpus = 0;                      // GPUs on which a kernel stage ran
  double upload_gbps = 0;               // upload bytes over upload time; 0 without uploads
  double lock_wait = 0, lock_held = 0;  // totals, seconds
};

Summary summarize(std::span<const Span> spans);
// A few lines for the end of a run: the stage table, the wall time, then what
// applies to the run: GPU busy % with GPUs, GB/s with uploads, the lock with
// lock spans.
std::string format_summary(const Summary& s);

}  // namespace cuzk::engine
