// How every RPC of cuzkd answers: with a status, never an exception.
// service::Error kinds become the gRPC codes prover.proto's header lists,
// with the error's one-line message; anything else thrown is classified the
// same way (service::classify), so a bad request never takes the daemon down.
#pragma once

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "auth.hpp"
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

// Text a client chose (an id, a label, a name, a message that quotes them)
// as it goes into the log: control characters (a newline that would start a
// forged line, a terminal escape) and backslashes written as C escapes.
inline std::string loggable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = (unsigned char)ch;
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    else out += ch;
  }
  return out;
}

// `ms` from now on clock C (0: never), saturated: a time a client sends too
// far to represent is never, not one that wrapped into the past.
template <class C>
typename C::time_point after_ms(uint64_t ms) {
  const auto now = C::now();
  const auto horizon = std::chrono::duration_cast<std::chrono::milliseconds>(C::time_point::max() - now);
  return ms && ms < (uint64_t)horizon.count() ? now + std::chrono::milliseconds(ms) : C::time_point::max();
}

// Runs one RPC's body and turns whatever it throws into a status: the error
// kind's code and its one-line message (PERMISSION_DENIED for a
// PermissionDenied). Client mistakes log at warn, the service's own failures
// at error.
template <class Body>
grpc::Status guarded(const char* rpc, grpc::ServerContext* ctx, Body&& body) {
  spdlog::debug("{} from {}", rpc, ctx->peer());
  service::ErrorKind kind = service::ErrorKind::internal;
  std::string message = "unknown error";
  try {
    body();
    return grpc::Status::OK;
  } catch (const PermissionDenied& e) {
    spdlog::warn("{}: permission_denied: {}", rpc, loggable(e.what()));
    return grpc::Status(grpc::StatusCode::PERMISSION_DENIED, e.what());
  } catch (...) {
    try {
      const auto e = std::current_exception();
      kind = service::classify(e);
      message = service::message_of(e);
    } catch (...) {
      // Classifying failed (no memory): INTERNAL with the fixed message.
    }
  }
  if (kind == service::ErrorKind::internal) spdlog::error("{}: {}", rpc, loggable(message));
  else spdlog::warn("{}: {}: {}", rpc, service::error_kind_name(kind), loggable(message));
  return grpc::Status(grpc_code(kind), message);
}

}  // namespace cuzk::daemon
