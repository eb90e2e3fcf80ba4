// A connection to cuzkd (proto/cuzk/v1/prover.proto), for `cuzk client` and
// for prove and prove-batch with --daemon. Every call either returns the
// daemon's reply or throws, so that main.cpp prints one "error: ..." line:
//   INVALID_ARGUMENT, NOT_FOUND    std::invalid_argument (exit 2), the daemon's message
//   UNAVAILABLE with no daemon     std::runtime_error "no cuzkd at ADDR: ..." (exit 1)
//   UNIMPLEMENTED                  std::runtime_error: the daemon does not serve it (the queue without --queue)
//   any other code                 std::runtime_error (exit 1), the daemon's message
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::cli {

// Where cuzkd listens, as the user wrote it: a gRPC target
// (unix:///run/cuzk/cuzkd.sock, localhost:9090, dns:///host:9090) or a socket
// path (/run/cuzk/cuzkd.sock, ./cuzkd.sock), and how to reach it.
struct DaemonAddress {
  std::string target;
  std::string tls_ca;  // PEM file of the CA that signed the daemon's certificate: TLS; empty: plaintext
};

// The address from the flags, else from the environment (CUZK_DAEMON,
// CUZK_DAEMON_TLS_CA); nullopt when neither names a daemon.
std::optional<DaemonAddress> daemon_address(const std::string& flag, const std::string& tls_ca_flag);

// daemon_address(), else the socket cuzkd listens on by default: the user's
// own, else the system's (cuzk/service/daemon_socket.hpp). std::runtime_error
// (exit 1, as for no cuzkd at an address) naming where it looked when
// neither exists.
DaemonAddress daemon_address_or_default(const std::string& flag, const std::string& tls_ca_flag);

class Daemon {
 public:
  // Makes the channel (it connects on the first call); an unreadable --tls-ca
  // file is an std::invalid_argument.
  explicit Daemon(const DaemonAddress& address);

  const std::string& address() const { return address_; }

  // An RPC of either service: &v1::Prover::Stub::Submit, &v1::Queue::Stub::Await, ...
  template <class Stub, class Request, class Reply>
  using Rpc = grpc::Status (Stub::*)(grpc::ClientContext*, const Request&, Reply*);

  // Calls `rpc`; a non-OK status is thrown as the header says. `timeout`
  // bounds the call (DEADLINE_EXCEEDED after it); none: as long as it takes.
  template <class Stub, class Request, class Reply>
  Reply call(Rpc<Stub, Request, Reply> rpc, const Request& request,
             std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    Reply reply;
    const grpc::Status status = call_status(rpc, request, reply, timeout);
    if (!status.ok()) fail(status);
    return reply;
  }

  // The same, returning a non-OK status instead of throwing it, for callers
  // that handle some codes themselves (fail() throws the rest).
  template <class Stub, class Request, class Reply>
  grpc::Status call_status(Rpc<Stub, Request, Reply> rpc, const Request& request, Reply& reply,
                           std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    grpc::ClientContext context;
    if (timeout) context.set_deadline(std::chrono::system_clock::now() + *timeout);
    if constexpr (std::is_same_v<Stub, v1::Queue::Stub>)
      return (queue_.get()->*rpc)(&context, request, &reply);
    else
      return (prover_.get()->*rpc)(&context, request, &reply);
  }

  // Throws `status` as the header says.
  [[noreturn]] void fail(const grpc::Status& status) const;

 private:
  std::string address_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Prover::Stub> prover_;
  std::unique_ptr<v1::Queue::Stub> queue_;
};

// `text` on one line: newlines become "; ".
std::string one_line(std::string text);
// A status's message on one line, or the code's name when the daemon sent none.
std::string one_line(const grpc::Status& status);

}  // namespace cuzk::cli
