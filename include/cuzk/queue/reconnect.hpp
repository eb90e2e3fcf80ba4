// A thread's own queue connection, made again when it is lost: cuzkd's queue
// worker (claims, results, leases) and the Queue service's listener for
// finished jobs keep one each for their lives.
#pragma once

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <stop_token>
#include <string>

#include "cuzk/queue/queue.hpp"
#include "cuzk/util/stoppable_sleep.hpp"

namespace cuzk::queue {

// Runs f(*q), first connecting to `conninfo` where q is null, until f returns.
// When f (or the connection) throws and retry(e, connected, pause) says so,
// the connection is dropped and f runs again on a new one after `pause`:
// 0.1 s, doubling to at most 5 s, cut short by a stop request. `connected`
// tells whether a connection had been made (a failed connect has none to
// lose). What retry declines, and any failure once stop is requested, is
// thrown to the caller, so that a database down at shutdown cannot hold it up.
template <class F, class Retry>
void with_reconnect(std::unique_ptr<Queue>& q, const std::string& conninfo, const QueueOptions& options,
                    const std::stop_token& stop, F&& f, Retry&& retry) {
  using namespace std::chrono_literals;
  for (std::chrono::milliseconds pause = 100ms;; pause = std::min<std::chrono::milliseconds>(pause * 2, 5s)) {
    try {
      if (!q) q = std::make_unique<Queue>(conninfo, options);
      f(*q);
      return;
    } catch (const std::exception& e) {
      if (stop.stop_requested() || !retry(e, q != nullptr, pause)) throw;
      q.reset();
      sleep_unless_stopped(stop, pause);
    }
  }
}

}  // namespace cuzk::queue
