#include "cuzk/engine/trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <new>
#include <stdexcept>

namespace cuzk::engine {

namespace {

// Nearest rank: the smallest value with at least q of the values at or below it.
double quantile(std::vector<double>& sorted, double q) {
  const size_t rank = (size_t)std::ceil(q * (double)sorted.size());
  return sorted[std::max<size_t>(rank, 1) - 1];
}

// Total length of the union of intervals.
double union_length(std::vector<std::pair<double, double>> iv) {
  std::sort(iv.begin(), iv.end());
  double total = 0, cur_start = 0, cur_end = 0;
  bool open = false;
  for (const auto& [s, e] : iv) {
    if (open && s <= cur_end) {
      cur_end = std::max(cur_end, e);
      continue;
    }
    if (open) total += cur_end - cur_start;
    cur_start = s, cur_end = e, open = true;
  }
  if (open) total += cur_end - cur_start;
  return total;
}

}  // namespace

std::string track_name(const Track& t) {
  const std::string gpu = t.gpu < 0 ? "CPU " : "GPU " + std::to_string(t.gpu) + " ";
  switch (t.kind) {
    case Track::Kind::worker: return gpu + "worker " + std::to_string(t.index);
    case Track::Kind::copy: return gpu + "copy " + std::to_string(t.index);
    case Track::Kind::synthesis: return "synthesis " + std::to_string(t.index);
    case Track::Kind::finalizer: return "finalizer " + std::to_string(t.index);
  }
  return "track";
}

Recorder::Recorder(bool log_lines, size_t capacity, bool enabled)
    : log_lines_(log_lines), capacity_(capacity), enabled_(enabled) {
}

void report_stage(const char* stage, double seconds) {
  static const bool headed = std::fputs("cuzk timing: stage                       time (CUZK_TIMING=1)\n", stderr) >= 0;
  (void)headed;
  std::fprintf(stderr, "cuzk timing: %-20s %10.3f ms\n", stage, 1e3 * seconds);
}

void Recorder::report_stage(const char* stage, double seconds) const {
  if (log_lines_) engine::report_stage(stage, seconds);
}

double Recorder::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

void Recorder::record(const Span& span) {
  if (!enabled_) return;
  if (!(span.end >= span.start)) throw std::invalid_argument("a span may not end before it starts");
  {
    std::lock_guard lock(mu_);
    try {
      StageTotal& t = totals_[span.track.gpu][(size_t)span.stage];
      ++t.count;
      t.seconds += span.end - span.start;
      t.bytes += span.bytes;
    } catch (const std::bad_alloc&) {
      // No memory for a GPU's first totals: the span is still kept below.
    }
    if (capacity_ == 0) {
      ++dropped_;
    } else if (ring_.size() < capacity_) {
      try {
        ring_.push_back(span);
      } catch (const std::bad_alloc&) {
        ++dropped_;
      }
    } else {
      ring_[next_] = span;
      next_ = (next_ + 1) % capacity_;
      ++dropped_;
    }
  }
  if (log_lines_)
    std::fprintf(stderr, "cuzk timing: %-10s job %u partition %u %-16s %10.3f ms\n", stage_name(span.stage), span.job,
                 span.partition, track_name(span.track).c_str(), 1e3 * (span.end - span.start));
}

std::vector<Span> Recorder::spans() const {
  std::lock_guard lock(mu_);
  std::vector<Span> out(ring_.begin() + (std::ptrdiff_t)next_, ring_.end());
  out.insert(out.end(), ring_.begin(), ring_.begin() + (std::ptrdiff_t)next_);
  return out;
}

StageTotals Recorder::totals() const {
  std::lock_guard lock(mu_);
  return totals_;
}

uint64_t Recorder::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

nlohmann::ordered_json chrome_trace(std::span<const Span> spans) {
  std::map<Track, int> tids;
  for (const Span& s : spans) tids.emplace(s.track, 0);
  int next = 1;
  for (auto& [track, tid] : tids) tid = next++;

  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const auto& [track, tid] : tids)
    events.push_back({{"ph", "M"}, {"pid", 1}, {"tid", tid}, {"name", "thread_name"},
                      {"args", {{"name", track_name(track)}}}});
  for (const Span& s : spans) {
    nlohmann::ordered_json args = {{"job", s.job}, {"partition", s.partition}};
    if (s.bytes) args["bytes"] = s.bytes;
    events.push_back({{"ph", "X"},
                      {"pid", 1},
                      {"tid", tids.at(s.track)},
                      {"name", stage_name(s.stage)},
                      {"ts", 1e6 * s.start},
                      {"dur", 1e6 * (s.end - s.start)},
                      {"args", std::move(args)}});
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

Summary summarize(std::span<const Span> spans) {
  Summary out;
  if (spans.empty()) return out;
  std::vector<double> durations[kStageCount];
  std::map<int, std::vector<std::pair<double, double>>> kernels;  // per GPU
  double first = spans[0].start, last = spans[0].end, upload_s = 0;
  uint64_t upload_bytes = 0;
  for (const Span& s : spans) {
    first = std::min(first, s.start);
    last = std::max(last, s.end);
    const double d = s.end - s.start;
    durations[(size_t)s.stage].push_back(d);
    if (is_kernel_stage(s.stage) && s.track.gpu >= 0) kernels[s.track.gpu].emplace_back(s.start, s.end);
    if (s.stage == Stage::upload) upload_s += d, upload_bytes += s.bytes;
    if (s.stage == Stage::lock_wait) out.lock_wait += d;
    if (s.stage == Stage::lock_held) out.lock_held += d;
  }
  out.wall = last - first;
  for (Stage stage : kStages) {
    auto& v = durations[size_t(stage)];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    StageSummary st{stage, v.size(), quantile(v, 0.5), quantile(v, 0.95), 0};
    for (double d : v) st.total += d;
    out.stages.push_back(st);
  }
  if (!kernels.empty() && out.wall > 0) {
    double busy = 0, steady = 0;
    for (auto& [gpu, iv] : kernels) {
      double lo = iv[0].first, hi = iv[0].second;
      for (const auto& [s, e] : iv) lo = std::min(lo, s), hi = std::max(hi, e);
      const double on = union_length(std::move(iv));
      busy += on / out.wall;
      steady += hi > lo ? on / (hi - lo) : 1.0;
    }
    out.gpus = kernels.size();
    out.gpu_busy = busy / (double)kernels.size();
    out.gpu_busy_steady = steady / (double)kernels.size();
  }
  if (upload_s > 0) out.upload_gbps = (double)upload_bytes / upload_s / 1e9;
  return out;
}

std::string format_summary(const Summary& s) {
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "  %-10s %7s %12s %12s %12s\n", "stage", "count", "median ms", "p95 ms", "total ms");
  out += line;
  for (const StageSummary& st : s.stages) {
    std::snprintf(line, sizeof line, "  %-10s %7zu %12.3f %12.3f %12.1f\n", stage_name(st.stage), st.count,
                  1e3 * st.median, 1e3 * st.p95, 1e3 * st.total);
    out += line;
  }
  std::snprintf(line, sizeof line, "  wall %.3f s", s.wall);
  out += line;
  if (s.gpus) {
    std::snprintf(line, sizeof line, ", GPU busy %.1f%% (steady state %.1f%%)", 100 * s.gpu_busy,
                  100 * s.gpu_busy_steady);
    out += line;
  }
  if (s.upload_gbps > 0) {
    std::snprintf(line, sizeof line, ", upload %.1f GB/s", s.upload_gbps);
    out += line;
  }
  if (s.lock_wait > 0 || s.lock_held > 0) {
    std::snprintf(line, sizeof line, ", lock wait %.1f ms, held %.1f ms", 1e3 * s.lock_wait, 1e3 * s.lock_held);
    out += line;
  }
  out += "\n";
  return out;
}

}  // namespace cuzk::engine
