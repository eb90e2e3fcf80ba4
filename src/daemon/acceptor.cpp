#include "acceptor.hpp"

#include <grpcpp/server_posix.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuzk::daemon {

size_t connection_bound(size_t limit) {
  constexpr size_t kReserve = 128;
  return std::min(limit - std::min(kReserve, limit / 2), kConnectionCeiling);
}

DescriptorBudget raise_descriptor_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) throw std::runtime_error(std::string("getrlimit: ") + std::strerror(errno));
  const rlim_t want = std::min<rlim_t>(r.rlim_max, kDescriptorCeiling);
  if (r.rlim_cur < want) {
    rlimit raised{want, r.rlim_max};
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) r.rlim_cur = want;
    else spdlog::warn("cannot raise the descriptor limit from {} to {}: {}", r.rlim_cur, want, std::strerror(errno));
  }
  DescriptorBudget b;
  b.limit = size_t(std::min<rlim_t>(r.rlim_cur, kDescriptorCeiling));
  b.connections = connection_bound(b.limit);
  return b;
}

sockaddr_un unix_address(const std::filesystem::path& path) {
  sockaddr_un addr{};
  if (path.native().size() >= sizeof addr.sun_path)
    throw std::runtime_error(path.string() + ": longer than a Unix socket path can be (" +
                             std::to_string(sizeof addr.sun_path - 1) + " bytes)");
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.native().size() + 1);
  return addr;
}

UnixAcceptor::UnixAcceptor(const std::filesystem::path& path, grpc::Server& server, size_t bound, UnixPeers& peers)
    : path_(path.string()), server_(server), bound_(bound), peers_(peers) {
  sockaddr_un addr = unix_address(path);
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC);
  if (listen_fd_ < 0 || stop_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, SOMAXCONN) != 0) {
    const std::string error = std::strerror(errno);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    if (stop_fd_ >= 0) ::close(stop_fd_);
    throw std::runtime_error("cannot listen on " + path.string() + ": " + error);
  }
  thread_ = std::jthread([this] { run(); });
}

UnixAcceptor::~UnixAcceptor() {
  const uint64_t one = 1;
  if (::write(stop_fd_, &one, sizeof one) != sizeof one) spdlog::error("{}: cannot wake the accept loop", path_);
  thread_.join();
  ::close(listen_fd_);
  ::close(stop_fd_);
}

bool UnixAcceptor::admit(int fd, pid_t peer) {
  // Descriptors are allocated lowest first: a number at the bound means every
  // one below it is in use.
  if (size_t(fd) < bound_) {
    if (refusing_) spdlog::info("{}: accepting connections again ({} refused so far)", path_, refused_.load());
    refusing_ = false;
    return true;
  }
  // cuzkd's own probe (watchdog.hpp) is always let in: it asks whether gRPC
  // answers, not whether there is room.
  if (peer == ::getpid()) return true;
  ++refused_;
  if (!refusing_)
    spdlog::warn("{}: refusing connections: {} descriptors in use, the bound for connections", path_, bound_);
  refusing_ = true;
  return false;
}

void UnixAcceptor::run() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  for (;;) {
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) spdlog::error("{}: poll: {}", path_, std::strerror(errno));
    if (fds[1].revents) return;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) {
      // The peer's credentials as the kernel recorded them at connect: who
      // the connection's calls come from (auth.hpp). Without them, no calls.
      ucred peer{};
      socklen_t len = sizeof peer;
      if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0) {
        spdlog::warn("{}: a connection without peer credentials refused: {}", path_, std::strerror(errno));
        ::close(fd);
      } else if (admit(fd, peer.pid)) {
        peers_.accepted(fd, peer.uid);
        grpc::AddInsecureChannelFromFd(&server_, fd);
      } else {
        ::close(fd);
      }
      continue;
    }
    if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) continue;
    // Out of descriptors or memory: the connection waits in the backlog and
    // is taken once a pause (cut short by a stop) has let some close.
    if (!refusing_) spdlog::warn("{}: accept: {}; retrying every 100 ms", path_, std::strerror(errno));
    refusing_ = true;
    if (::poll(&fds[1], 1, 100) > 0) return;
  }
}

}  // namespace cuzk::daemon
