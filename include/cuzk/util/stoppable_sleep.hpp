// A sleep that a std::stop_token cuts short, for the threads that wake on a
// period or back off between retries (the service's housekeeping, cuzkd's GPU
// watch and gRPC watchdog, the queue's worker and reconnects): a stop request
// must end the wait at once, so that shutdown never waits out a period or a
// backoff.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace cuzk {

// Sleeps `duration` unless stop is requested first; true when the whole time
// passed, false when a stop ended it (or had been requested already).
template <class Rep, class Period>
bool sleep_unless_stopped(const std::stop_token& stop, std::chrono::duration<Rep, Period> duration) {
  std::mutex m;
  std::condition_variable_any never_notified;
  std::unique_lock lock(m);
  never_notified.wait_for(lock, stop, duration, [] { return false; });
  return !stop.stop_requested();
}

}  // namespace cuzk
