// Stage timings of one command, printed to stderr when CUZK_TIMING=1 (the
// engine's full instrumentation comes with the pipeline).
#pragma once

#include <chrono>

#include "cuzk/engine/trace.hpp"

namespace cuzk::cli {

using engine::report_stage;

// Seconds since construction or the last lap(); lap(name) also prints it.
class Stopwatch {
 public:
  // Seconds since construction.
  double total() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  double lap(const char* stage) {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    report_stage(stage, s);
    return s;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace cuzk::cli
