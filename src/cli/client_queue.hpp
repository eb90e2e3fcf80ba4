// cuzk client submit|await|status --queue: the fleet's job queue (docs/QUEUE.md)
// through the Queue service of any cuzkd started with --queue, for clients
// that have no access to the database itself (cuzk db is the direct way).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client_connection.hpp"

namespace cuzk::cli {

struct QueueJob {
  std::string key_id;    // the key's id in the queue
  std::string key_path;  // registers key_id as this .zkey (a path every worker reads); empty: registered already
  std::vector<std::string> wtns;
  bool by_path = false;  // every witness as a file:// URL on shared storage, none inline
  int priority = 0;
  uint64_t deadline_ms = 0;
  std::string label;
};

// Queues the job; returns its id in the queue.
uint64_t queue_submit(Daemon& daemon, const QueueJob& job);

// The job once finished (the queue keeps it: it can be awaited again). A
// timeout_ms (0: none) that passes first is an error saying so.
v1::JobResult queue_await(Daemon& daemon, uint64_t job, uint64_t timeout_ms);

// The fleet as cuzk db status prints it.
std::string queue_status(Daemon& daemon);

}  // namespace cuzk::cli
