#include "client_queue.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "file_bytes.hpp"
#include "queue_view.hpp"

namespace cuzk::cli {

uint64_t queue_submit(Daemon& daemon, const QueueJob& job) {
  v1::QueueSubmitRequest request;
  request.set_key_id(job.key_id);
  // The path as the workers see it: this directory's files on shared storage.
  if (!job.key_path.empty())
    request.set_key_path(std::filesystem::absolute(job.key_path).lexically_normal().string());
  for (const std::string& w : job.wtns) {
    v1::QueuePartition* p = request.add_partitions();
    if (std::optional<std::string> url = queued_witness_url(w, job.by_path)) p->set_wtns_url(*url);
    else p->set_wtns(read_bytes(w, "the witness"));
  }
  request.set_priority(job.priority);
  request.set_deadline_ms(job.deadline_ms);
  request.set_label(job.label);
  if (const char* user = std::getenv("USER")) request.set_requester(user);
  return daemon.call(&v1::Queue::Stub::Submit, request).job_id();
}

v1::JobResult queue_await(Daemon& daemon, uint64_t job, uint64_t timeout_ms) {
  v1::AwaitRequest request;
  request.set_job_id(job);
  request.set_timeout_ms(timeout_ms);
  return daemon.call(&v1::Queue::Stub::Await, request);
}

std::string queue_status(Daemon& daemon) {
  const v1::QueueStatusReply reply = daemon.call(&v1::Queue::Stub::Status, v1::QueueStatusRequest{});
  queue::FleetStatus fleet;
  for (const auto& [state, n] : reply.partitions()) fleet.partitions.emplace_back(state, (int64_t)n);
  std::sort(fleet.partitions.begin(), fleet.partitions.end());  // a proto map has no order
  for (const v1::QueueHostStatus& h : reply.hosts())
    fleet.hosts.push_back({h.host(), (int64_t)h.claimed(), (int64_t)h.proofs_last_minute(), (int64_t)h.proofs()});
  fleet.partitions_with_failed_attempts = (int64_t)reply.partitions_with_failed_attempts();
  fleet.failed_attempts = (int64_t)reply.failed_attempts();
  return fleet_table(fleet);
}

}  // namespace cuzk::cli
