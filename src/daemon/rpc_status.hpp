// How every RPC of cuzkd answers: with a status, never an exception.
// service::Error kinds become the gRPC codes prover.proto's header lists,
// with the error's one-line message; anything else thrown is classified the
// same way (service::classify), so a bad request never takes the daemon down.
#pragma once

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <string>

#include "cuzk/service/errors.hpp"

namespace cuzk::daemon {

// The gRPC code of an error kind.
inline grpc::StatusCode grpc_code(service::ErrorKind kind) {
  switch (kind) {
    case service::ErrorKind::none: return grpc::StatusCode::OK;
    case service::ErrorKind::invalid_argument: return grpc::StatusCode::INVALID_ARGUMENT;
    case service::ErrorKind::not_found: return grpc::StatusCode::NOT_FOUND;
    case service::ErrorKind::unsatisfied: return grpc::StatusCode::FAILED_PRECONDITION;
    case service::ErrorKind::resource_exhausted: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case service::ErrorKind::cancelled: return grpc::StatusCode::CANCELLED;
    case service::ErrorKind::deadline_exceeded: return grpc::StatusCode::DEADLINE_EXCEEDED;
    case service::ErrorKind::unavailable: return grpc::StatusCode::UNAVAILABLE;
    case service::ErrorKind::internal: return grpc::StatusCode::INTERNAL;
  }
  return grpc::StatusCode::INTERNAL;
}

// Runs one RPC's body and turns whatever it throws into a status: the error
// kind's code and its one-line message. Client mistakes log at warn, the
// service's own failures at error.
template <class Body>
grpc::Status guarded(const char* rpc, grpc::ServerContext* ctx, Body&& body) {
  spdlog::debug("{} from {}", rpc, ctx->peer());
  service::ErrorKind kind = service::ErrorKind::internal;
  std::string message = "unknown error";
  try {
    body();
    return grpc::Status::OK;
  } catch (...) {
    try {
      const auto e = std::current_exception();
      kind = service::classify(e);
      message = service::message_of(e);
    } catch (...) {
      // Classifying failed (no memory): INTERNAL with the fixed message.
    }
  }
  if (kind == service::ErrorKind::internal) spdlog::error("{}: {}", rpc, message);
  else spdlog::warn("{}: {}: {}", rpc, service::error_kind_name(kind), message);
  return grpc::Status(grpc_code(kind), message);
}

}  // namespace cuzk::daemon
