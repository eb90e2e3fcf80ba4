// The gRPC Prover service (proto/cuzk/v1/prover.proto) over one
// service::Service. Every handler answers with a status (rpc_status.hpp) and
// acts for its caller (auth.hpp): Preload and Evict are admins' rights; a job
// is its submitter's, and to any other caller but an admin it does not exist
// (Await answers NOT_FOUND as for an unknown id, Cancel false, Status leaves
// it out).
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

#include "auth.hpp"
#include "cuzk/service/service.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::daemon {

class ProverService final : public cuzk::v1::Prover::Service {
 public:
  // `auth` outlives this.
  ProverService(service::Service& service, const Authorizer& auth) : service_(service), auth_(auth) {}

  grpc::Status Preload(grpc::ServerContext*, const v1::PreloadRequest*, v1::KeyInfo*) override;
  grpc::Status Evict(grpc::ServerContext*, const v1::EvictRequest*, v1::EvictReply*) override;
  grpc::Status ListKeys(grpc::ServerContext*, const v1::ListKeysRequest*, v1::ListKeysReply*) override;
  grpc::Status Submit(grpc::ServerContext*, const v1::SubmitRequest*, v1::SubmitReply*) override;
  grpc::Status Await(grpc::ServerContext*, const v1::AwaitRequest*, v1::JobResult*) override;
  grpc::Status Prove(grpc::ServerContext*, const v1::SubmitRequest*, v1::JobResult*) override;
  grpc::Status Cancel(grpc::ServerContext*, const v1::CancelRequest*, v1::CancelReply*) override;
  grpc::Status Status(grpc::ServerContext*, const v1::StatusRequest*, v1::StatusReply*) override;

 private:
  service::JobId submit(grpc::ServerContext* ctx, const Caller& caller, const v1::SubmitRequest& req, bool prove);
  // Whether `caller` may see job `id`: false for another's job, true for an
  // unknown id (which the service then answers as unknown).
  bool may_see(const Caller& caller, service::JobId id) const;
  // Waits for the job while the caller is connected, until `timeout_ms`
  // (0: none) passes; false when it is not done by then.
  bool await(grpc::ServerContext* ctx, service::JobId id, uint64_t timeout_ms, v1::JobResult* out);

  service::Service& service_;
  const Authorizer& auth_;
};

}  // namespace cuzk::daemon
