// Signals as events: SIGTERM, SIGINT and SIGHUP are blocked in every thread
// (block_signals() runs before any thread starts, and threads inherit the
// mask) and taken one at a time by the main thread with sigwait, so no work
// runs inside a signal handler.
#pragma once

namespace cuzk::daemon {

void block_signals();
// The next of SIGTERM, SIGINT or SIGHUP.
int wait_signal();

}  // namespace cuzk::daemon
