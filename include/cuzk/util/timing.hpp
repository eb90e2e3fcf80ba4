// Wall-clock timing of stages, for the prover's per-stage figures and the
// commands' tables and CUZK_TIMING lines.
#pragma once

#include <chrono>

namespace cuzk {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs f() and returns how long it took, in seconds.
template <class F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return seconds_since(t0);
}

}  // namespace cuzk
