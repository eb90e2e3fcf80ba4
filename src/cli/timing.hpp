// Stage timings of one command, printed to stderr when CUZK_TIMING=1 (the
// engine's full instrumentation comes with the pipeline).
#pragma once

#include <chrono>

#include "cuzk/engine/trace.hpp"
#include "cuzk/util/env_flag.hpp"

namespace cuzk::cli {

// The switches cuzk --help documents: CUZK_TIMING=1 prints every stage's time
// (the service's spans, and the command's own stages below), CUZK_SPANS=0
// records no spans.
inline bool timing_lines() { return env_flag("CUZK_TIMING", false); }
inline bool spans_recorded() { return env_flag("CUZK_SPANS", true); }

// Seconds since this process started, from /proc/self/stat's start time,
// which Linux keeps in clock ticks (10 ms at the usual USER_HZ of 100); a
// negative value where that cannot be read. With CUZK_TIMING, a command's
// age where its clock starts and where it ends tells the process's start
// (loader, libraries, static constructors) and its exit from its stages.
double process_age_s();
// "cuzk timing: process age at WHERE" when CUZK_TIMING is set.
void report_process_age(const char* where);

// Seconds since construction or the last lap(); lap(name) also prints it.
class Stopwatch {
 public:
  // Seconds since construction.
  double total() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  double lap(const char* stage) {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (timing_lines()) engine::report_stage(stage, s);
    return s;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace cuzk::cli
