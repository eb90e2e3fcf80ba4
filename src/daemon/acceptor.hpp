// cuzkd's own accept loop for the Unix socket. gRPC up to 1.53.1 (Debian 12
// ships 1.51.1: CVE-2023-4785) stops accepting on a listener for good once
// accept4 fails with EMFILE; here the socket is accepted by cuzkd, which
// hands each connection to gRPC (AddInsecureChannelFromFd), never stops on
// an error (it retries after a pause), and refuses connections beyond a
// descriptor bound, so that the reserve above it stays free for key and
// witness files, the metrics server, the log and gRPC itself.
#pragma once

#include <grpcpp/grpcpp.h>
#include <sys/un.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <thread>

#include "auth.hpp"

namespace cuzk::daemon {

// The descriptor limit cuzkd runs under: the soft RLIMIT_NOFILE raised to the
// hard one (at most kDescriptorCeiling), and what connections may take of it.
struct DescriptorBudget {
  size_t limit = 0;       // the soft limit in force
  size_t connections = 0;  // accepted connections are refused at descriptors >= this
};
// Enough for many clients; beyond it each idle connection is memory a flood could hold.
constexpr size_t kDescriptorCeiling = 65536;
constexpr size_t kConnectionCeiling = 4096;
// Raises the soft limit (logs the result) and sizes the bound: the limit less
// a reserve of 128 descriptors (half of a limit under 256), at most
// kConnectionCeiling.
DescriptorBudget raise_descriptor_limit();
// The bound for a limit of `limit` descriptors.
size_t connection_bound(size_t limit);

// The address of a Unix socket file; std::runtime_error for a path that does
// not fit sun_path (it is refused, not cut; check_config refuses it first).
sockaddr_un unix_address(const std::filesystem::path& path);

class UnixAcceptor {
 public:
  // Listens on `path` (created with at most the process umask's permissions;
  // the caller sets them) and hands connections to `server` until stopped,
  // each recorded in `peers` (which outlives this) with its peer's uid first.
  // std::runtime_error with one line when it cannot listen.
  UnixAcceptor(const std::filesystem::path& path, grpc::Server& server, size_t bound, UnixPeers& peers);
  // Stops accepting and closes the socket.
  ~UnixAcceptor();
  UnixAcceptor(const UnixAcceptor&) = delete;
  UnixAcceptor& operator=(const UnixAcceptor&) = delete;

  // Connections refused at the bound so far.
  size_t refused() const { return refused_; }

 private:
  void run();
  // Whether the connection on `fd`, from process `peer`, may go to gRPC.
  bool admit(int fd, pid_t peer);

  const std::string path_;
  grpc::Server& server_;
  const size_t bound_;
  UnixPeers& peers_;
  int listen_fd_ = -1;
  int stop_fd_ = -1;  // an eventfd that wakes the loop to end
  std::atomic<size_t> refused_{0};
  bool refusing_ = false;  // in a run of refusals or failed accepts (logged once per run)
  std::jthread thread_;
};

}  // namespace cuzk::daemon
