// Where cuzkd listens: a Unix socket (a stale socket file is removed first,
// a live one is refused; the file gets the configured mode) through cuzkd's
// own accept loop (acceptor.hpp), and TCP only when configured, with TLS for
// any address other than loopback, through gRPC's.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <vector>

#include "acceptor.hpp"
#include "config.hpp"

namespace cuzk::daemon {

// gRPC's handler threads, and calls at once on one connection.
constexpr int kMaxRpcThreads = 512;
constexpr int kMaxStreamsPerConnection = 128;

struct Listener {
  std::unique_ptr<grpc::Server> server;
  // Declared after the server, so that it stops handing it connections first.
  std::unique_ptr<UnixAcceptor> unix_socket;
  int tcp_port = 0;  // the TCP port bound (for a configured port 0), 0 without TCP
  DescriptorBudget descriptors;
};

// Checks, before any slow start-up work, that the Unix socket can be taken:
// its directory exists and no process serves on it (a stale file is
// removed). std::runtime_error with one line otherwise.
void prepare_socket(const Config& config);

// Raises the descriptor limit, builds and starts the server for `services`
// (prepare_socket() again, then listen); std::runtime_error with one line
// when it cannot listen.
Listener listen(const Config& config, const std::vector<grpc::Service*>& services);

}  // namespace cuzk::daemon
