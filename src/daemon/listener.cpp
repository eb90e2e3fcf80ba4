#include "listener.hpp"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cuzk/service/daemon_socket.hpp"

namespace cuzk::daemon {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error(p.string() + ": cannot open: " + std::strerror(errno));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Whether a process accepts connections on the socket file.
bool socket_in_use(const fs::path& path) {
  sockaddr_un addr = unix_address(path);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool live = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return live;
}

// Whether a file lies at the socket's path (one no process serves, left by
// a daemon that died, is stale); refuses a live socket and anything that is
// not a socket.
bool existing_socket(const fs::path& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    throw ConfigError(path.string() + ": " + std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) throw ConfigError(path.string() + ": exists and is not a socket");
  if (socket_in_use(path)) throw ConfigError(path.string() + ": another process serves on this socket");
  return true;
}

// The socket's folder: the default one must be makeable and private; one
// given must exist and be writable.
void check_socket_dir(const fs::path& sock) {
  if (sock == service::default_socket()) {
    try {
      service::prepare_default_socket_dir(/*create=*/false);
    } catch (const std::runtime_error& e) {
      throw ConfigError(std::string("listen: ") + e.what());
    }
    return;
  }
  const fs::path dir = sock.parent_path().empty() ? "." : sock.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ConfigError("listen: " + dir.string() + ": no such directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw ConfigError("listen: " + dir.string() + ": cannot make the socket there: " + std::strerror(errno));
}

// Calls `each` with every address "host:port" resolves to, for a listener.
template <class Each>
void each_address(const std::string& address, Each each) {
  const auto colon = address.rfind(':');
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* list = nullptr;
  if (::getaddrinfo(host.c_str(), address.substr(colon + 1).c_str(), &hints, &list) != 0) return;
  for (addrinfo* a = list; a; a = a->ai_next) each(*a);
  ::freeaddrinfo(list);
}

std::shared_ptr<grpc::ServerCredentials> tcp_credentials(const TcpConfig& tcp) {
  if (!tcp.tls()) return grpc::InsecureServerCredentials();
  // A client's certificate, verified against the client CA, is its identity (auth.hpp).
  grpc::SslServerCredentialsOptions ssl(tcp.tls_client_ca.empty()
                                            ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  if (!tcp.tls_client_ca.empty()) ssl.pem_root_certs = read_text(tcp.tls_client_ca);
  ssl.pem_key_cert_pairs.push_back({read_text(tcp.tls_key), read_text(tcp.tls_cert)});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

bool port_in_use(const std::string& address) {
  bool in_use = false;
  each_address(address, [&](const addrinfo& a) {
    const int fd = ::socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC, a.ai_protocol);
    if (fd < 0) return;
    // As the servers bind: a port left in TIME_WAIT is free, a listening one is not.
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, a.ai_addr, a.ai_addrlen) != 0 && errno == EADDRINUSE) in_use = true;
    ::close(fd);
  });
  return in_use;
}

std::string metrics_in_use(const std::string& address) {
  return "metrics: " + address + " is in use (another cuzkd?); choose another with --metrics HOST:PORT, or turn "
         "metrics off with --metrics \"\" (metrics = \"\" in the configuration)";
}

void check_addresses(const Config& config) {
  if (const fs::path sock = unix_socket_path(config.listen); !sock.empty()) {
    check_socket_dir(sock);
    existing_socket(sock);
  }
  if (!config.metrics.empty() && port_in_use(config.metrics)) throw ConfigError(metrics_in_use(config.metrics));
  if (!config.tcp.address.empty() && port_in_use(config.tcp.address))
    throw ConfigError("tcp.address: " + config.tcp.address + " is in use; choose another with --tcp HOST:PORT");
}

void prepare_socket(const Config& config) {
  const fs::path sock = unix_socket_path(config.listen);
  if (sock.empty()) return;
  if (sock == service::default_socket()) service::prepare_default_socket_dir(/*create=*/true);
  check_socket_dir(sock);
  if (existing_socket(sock) && ::unlink(sock.c_str()) != 0)
    throw std::runtime_error(sock.string() + ": cannot remove the stale socket: " + std::strerror(errno));
}

size_t receive_bytes(const Config& config, size_t pending_bytes) {
  return config.max_receive_bytes ? config.max_receive_bytes : std::max(pending_bytes, 2 * config.max_message_bytes);
}

Listener listen(const Config& config, const std::vector<grpc::Service*>& services, UnixPeers& peers,
                size_t pending_bytes) {
  Listener l;
  l.descriptors = raise_descriptor_limit();
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(int(config.max_message_bytes));
  // Bounds on what connections may hold: handler threads (a call past them
  // is answered RESOURCE_EXHAUSTED), the bytes of requests being received on
  // all of them together (gRPC's read buffers and the messages they hold
  // until the handler's request is parsed: past the quota gRPC cancels calls
  // instead of reading more), calls per connection, and the life of a
  // connection with no call (a flood's idle connections go within a minute).
  grpc::ResourceQuota quota("cuzkd");
  quota.SetMaxThreads(kMaxRpcThreads);
  quota.Resize(receive_bytes(config, pending_bytes));
  builder.SetResourceQuota(quota);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, kMaxStreamsPerConnection);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, 60'000);
  for (grpc::Service* service : services) builder.RegisterService(service);
  const fs::path sock = unix_socket_path(config.listen);
  if (!config.tcp.address.empty())
    builder.AddListeningPort(config.tcp.address, tcp_credentials(config.tcp), &l.tcp_port);
  l.server = builder.BuildAndStart();
  if (!l.server)
    throw std::runtime_error(config.tcp.address.empty() ? "cannot start the gRPC server"
                                                        : "cannot listen on " + config.tcp.address);
  if (!sock.empty()) {
    prepare_socket(config);
    // The socket file is created with at most the configured permissions,
    // then given exactly them: no moment when others may connect.
    const mode_t old_mask = ::umask(~config.socket_mode & 0777);
    try {
      l.unix_socket = std::make_unique<UnixAcceptor>(sock, *l.server, l.descriptors.connections, peers);
    } catch (...) {
      ::umask(old_mask);
      throw;
    }
    ::umask(old_mask);
    if (::chmod(sock.c_str(), config.socket_mode) != 0)
      throw std::runtime_error(sock.string() + ": chmod: " + std::strerror(errno));
  }
  return l;
}

}  // namespace cuzk::daemon
