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

// What start would refuse about the addresses, found without taking them
// (cuzkd --check, and start before anything else): the socket's folder
// missing or not writable (the default one: one that cannot be made or is
// not private, cuzk/service/daemon_socket.hpp), a process serving on the
// socket, something other than a socket at its path, the metrics or TCP
// port in use. ConfigError with one line.
void check_addresses(const Config& config);

// Takes the Unix socket's path, before any slow start-up work: makes the
// default socket's folder where it is missing, and removes a stale socket
// file. std::runtime_error with one line when it cannot.
void prepare_socket(const Config& config);

// Whether something listens on TCP "host:port" (a port taken by another
// program), tried by binding it as the servers do.
bool port_in_use(const std::string& address);
// The line cuzkd prints when the metrics address is taken.
std::string metrics_in_use(const std::string& address);

// Raises the descriptor limit, builds and starts the server for `services`
// (prepare_socket() again, then listen), recording the Unix socket's
// connections in `peers`, gRPC's memory for requests being received bounded
// by receive_bytes(); std::runtime_error with one line when it cannot listen.
Listener listen(const Config& config, const std::vector<grpc::Service*>& services, UnixPeers& peers,
                size_t pending_bytes);

// Config::max_receive_bytes, or where it is 0 the service's bound on the
// witness bytes it admits (`pending_bytes`: requests being received are
// witnesses on their way there), with room for two of the largest requests.
size_t receive_bytes(const Config& config, size_t pending_bytes);

}  // namespace cuzk::daemon
