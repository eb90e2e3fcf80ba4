#include "cuzk/util/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cuzk {

namespace {

std::mutex output_mutex;
ProgressOutput output;  // under output_mutex
// Whether a step holds the display: one is drawn at a time.
std::atomic<bool> display_taken{false};

// 850 points, 1.2 M points, 4.5 MB, 4.5 M (no unit): one decimal once scaled.
std::string amount(double x, std::string_view unit) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T"};
  size_t i = 0;
  while (x >= 999.95 && i + 1 < std::size(prefixes)) x /= 1000, ++i;
  char number[32];
  std::snprintf(number, sizeof number, i ? "%.1f" : "%.0f", x);
  // A short unit joins its prefix (MB); a word stands apart (M points).
  std::string text = number;
  if (i || !unit.empty()) text += ' ';
  text += prefixes[i];
  if (i && unit.size() > 2) text += ' ';
  text += unit;
  return text;
}

// 0:12, 12:05, 1:02:03.
std::string clock_time(double seconds) {
  const auto t = (long long)std::llround(std::max(0.0, seconds));
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lld:%02lld", t / 60, t % 60);
  return buf;
}

double rate(const ProgressState& s) { return s.elapsed > 0 ? (double)s.done / s.elapsed : 0; }

// "45%", "ETA 0:12" (the rest at the rate so far), or nothing for an unknown total.
unsigned percent(const ProgressState& s) {
  return s.total ? (unsigned)(100 * std::min(s.done, s.total) / s.total) : 0;
}
std::string eta(const ProgressState& s) {
  if (s.done == 0) return "ETA -:--";
  return "ETA " + clock_time(s.elapsed * (double)(s.total - std::min(s.done, s.total)) / (double)s.done);
}

}  // namespace

std::string render_bar(const ProgressState& s, unsigned width) {
  const std::string speed = amount(rate(s), s.unit) + "/s";
  if (!s.total) return std::string(s.label) + " " + amount((double)s.done, s.unit) + " " + speed;
  const auto filled = (unsigned)((uint64_t)width * std::min(s.done, s.total) / s.total);
  return std::string(s.label) + " [" + std::string(filled, '#') + std::string(width - filled, ' ') + "] " +
         std::to_string(percent(s)) + "% " + speed + " " + eta(s);
}

std::string render_line(const ProgressState& s) {
  const std::string speed = amount(rate(s), s.unit) + "/s";
  if (!s.total) return std::string(s.label) + ": " + amount((double)s.done, s.unit) + ", " + speed;
  return std::string(s.label) + ": " + std::to_string(percent(s)) + "% (" + amount((double)s.done, "") + " of " +
         amount((double)s.total, s.unit) + "), " + speed + ", " + eta(s);
}

std::string render_end(const ProgressState& s) {
  char took[32];
  if (s.elapsed < 60) std::snprintf(took, sizeof took, "%.1f s", s.elapsed);
  else std::snprintf(took, sizeof took, "%s", clock_time(s.elapsed).c_str());
  const std::string how = s.done < s.total ? "stopped at " + std::to_string(percent(s)) + "%" : std::string("done");
  return std::string(s.label) + ": " + how + ", " + amount((double)s.done, s.unit) + " in " + took + " (" +
         amount(rate(s), s.unit) + "/s)";
}

void set_progress_output(const ProgressOutput& o) {
  std::lock_guard lock(output_mutex);
  output = o;
}

void show_progress_on_stderr() {
  set_progress_output({.out = stderr, .terminal = ::isatty(::fileno(stderr)) == 1});
}

Progress::Progress(std::string label, uint64_t total, std::string unit)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), start_(std::chrono::steady_clock::now()) {
  ProgressOutput o;
  {
    std::lock_guard lock(output_mutex);
    o = output;
  }
  if (o.out && !display_taken.exchange(true)) drawer_ = std::thread([this, o] { draw_loop(o); });
}

ProgressState Progress::state() const {
  return {label_, unit_, done(), total_,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
}

void Progress::draw_loop(ProgressOutput o) {
  using seconds = std::chrono::duration<double>;
  std::unique_lock lock(mutex_);
  // A step that ends within the delay is never shown; with no delay, each is.
  if (o.delay > 0 && wake_.wait_for(lock, seconds(o.delay), [&] { return finished_; })) return;
  for (;;) {
    if (o.terminal) std::fprintf(o.out, "\r%s\033[K", render_bar(state()).c_str());
    else std::fprintf(o.out, "%s\n", render_line(state()).c_str());
    std::fflush(o.out);
    if (wake_.wait_for(lock, seconds(o.terminal ? o.period : o.line_period), [&] { return finished_; })) break;
  }
  std::fprintf(o.out, o.terminal ? "\r%s\033[K\n" : "%s\n", render_end(state()).c_str());
  std::fflush(o.out);
}

void Progress::finish() {
  if (!drawer_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_one();
  drawer_.join();
  display_taken = false;
}

}  // namespace cuzk
