// Where cuzkd listens: a Unix socket (a stale socket file is removed first,
// a live one is refused; the file gets the configured mode), and TCP only
// when configured, with TLS for any address other than loopback.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <vector>

#include "config.hpp"

namespace cuzk::daemon {

struct Listener {
  std::unique_ptr<grpc::Server> server;
  int tcp_port = 0;  // the TCP port bound (for a configured port 0), 0 without TCP
};

// Checks, before any slow start-up work, that the Unix socket can be taken:
// its directory exists and no process serves on it (a stale file is
// removed). std::runtime_error with one line otherwise.
void prepare_socket(const Config& config);

// Builds and starts the server for `services` (prepare_socket() again, then
// listen); std::runtime_error with one line when it cannot listen.
Listener listen(const Config& config, const std::vector<grpc::Service*>& services);

}  // namespace cuzk::daemon
