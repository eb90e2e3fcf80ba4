// The gRPC Queue service (proto/cuzk/v1/prover.proto): the fleet's job queue
// through this cuzkd (--queue), so that a client needs no database access of
// its own. Requests share a few connections (at most kConnections; a request
// beyond them waits for one). One more connection listens for finished jobs
// and wakes the Awaits of those jobs; every Await also reads its job again
// each second, for a server without NOTIFY or a notification lost while the
// listener reconnected. A job is its submitter's: to a caller who is neither
// its owner nor an admin, Await answers as for a job that does not exist.
#pragma once

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "auth.hpp"
#include "cuzk/queue/queue.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::daemon {

class QueueService final : public cuzk::v1::Queue::Service {
 public:
  static constexpr size_t kConnections = 4;

  // `key_dirs`: where a key_path registered through Submit may lie (empty:
  // nowhere), as for a Preload by path; registering one is an admin's right
  // (`auth`, which outlives this), as a Preload is. `host`: this cuzkd's name
  // in the fleet (its queue worker's), which qualifies its callers' names as
  // the owners of the jobs they submit (Caller::in_fleet).
  QueueService(std::string conninfo, queue::QueueOptions options, std::vector<std::filesystem::path> key_dirs,
               const Authorizer& auth, std::string host);
  ~QueueService() override;

  grpc::Status Submit(grpc::ServerContext*, const v1::QueueSubmitRequest*, v1::SubmitReply*) override;
  grpc::Status Await(grpc::ServerContext*, const v1::AwaitRequest*, v1::JobResult*) override;
  grpc::Status Status(grpc::ServerContext*, const v1::QueueStatusRequest*, v1::QueueStatusReply*) override;

 private:
  // Runs f(queue) on a pooled connection. A lost connection is dropped and
  // becomes UNAVAILABLE (the client retries); other database errors INTERNAL.
  template <class F>
  auto with_queue(F&& f) -> decltype(f(std::declval<queue::Queue&>()));
  void listen_loop(std::stop_token stop);
  // Whether job `id` was announced done after the announcement numbered `seen`
  // (true also when so many came since that the record no longer tells).
  bool announced_since(uint64_t seen, int64_t id) const;

  std::string conninfo_;
  queue::QueueOptions options_;
  std::vector<std::filesystem::path> key_dirs_;
  const Authorizer& auth_;
  std::string host_;

  std::mutex pool_mu_;
  std::condition_variable pool_cv_;
  std::vector<std::unique_ptr<queue::Queue>> idle_;
  size_t open_ = 0;

  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::deque<int64_t> done_ids_;  // the last announcements, the newest last
  uint64_t announced_ = 0;        // announcements so far

  std::jthread listener_;
};

}  // namespace cuzk::daemon
