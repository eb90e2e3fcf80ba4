// Progress of long steps (a development setup, a key's validation, a
// benchmark's key): one Progress per step, counted from any number of worker
// threads. Where progress is shown is one process-wide choice, off until a
// front end turns it on (a library draws nothing unasked):
//   - on a terminal, a bar redrawn in place about 10 times a second,
//     "setup [#######        ] 45% 1.2 M points/s ETA 0:12";
//   - elsewhere (a log), a plain line every 5 s;
//   - a step that ends within 1 s shows nothing at all; one that was shown
//     ends with a line saying how it went.
// One step is drawn at a time: a step that starts while another is drawn
// counts but stays silent. The rendering is pure (state and time in, text
// out) so that tests fix the time.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace cuzk {

// A step at one moment.
struct ProgressState {
  std::string_view label, unit;  // "setup", "points"
  uint64_t done = 0, total = 0;  // total 0: unknown (no bar, no ETA)
  double elapsed = 0;            // seconds since the step began
};

// "setup [#######        ] 45% 1.2 M points/s ETA 0:12", the bar `width` wide.
std::string render_bar(const ProgressState& s, unsigned width = 30);
// "setup: 45% (4.5 M of 10 M points), 1.2 M points/s, ETA 0:12", for logs.
std::string render_line(const ProgressState& s);
// "setup: done, 10 M points in 8.3 s (1.2 M points/s)", or "stopped at 45%"
// when the step ended early (an error).
std::string render_end(const ProgressState& s);

// Where progress goes, for the whole process.
struct ProgressOutput {
  std::FILE* out = nullptr;  // nullptr: progress is off
  bool terminal = false;     // redraw a bar in place, else plain lines
  double delay = 1.0;        // seconds a step runs before it is shown (0: every step, at once)
  double period = 0.1;       // seconds between redraws (terminal)
  double line_period = 5.0;  // seconds between lines (not a terminal)
};
void set_progress_output(const ProgressOutput& o);
// On stderr, as a bar when it is a terminal.
void show_progress_on_stderr();

class Progress {
 public:
  Progress(std::string label, uint64_t total, std::string unit);
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Cheap enough for every chunk of a parallel loop: one relaxed atomic add.
  void add(uint64_t n) noexcept { done_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t done() const noexcept { return done_.load(std::memory_order_relaxed); }
  // Stops drawing; a step that was shown gets its final line. Idempotent.
  void finish();

 private:
  ProgressState state() const;
  void draw_loop(ProgressOutput o);

  std::string label_, unit_;
  uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread drawer_;  // only while progress is on and this step holds the display
};

}  // namespace cuzk
