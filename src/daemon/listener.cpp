#include "listener.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

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

// Removes a socket file no process serves (left by a daemon that died);
// refuses a live one and anything that is not a socket.
void clear_socket(const fs::path& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw std::runtime_error(path.string() + ": " + std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(path.string() + ": exists and is not a socket");
  if (socket_in_use(path)) throw std::runtime_error(path.string() + ": another process serves on this socket");
  if (::unlink(path.c_str()) != 0)
    throw std::runtime_error(path.string() + ": cannot remove the stale socket: " + std::strerror(errno));
}

std::shared_ptr<grpc::ServerCredentials> tcp_credentials(const TcpConfig& tcp) {
  if (!tcp.tls()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl(tcp.tls_client_ca.empty()
                                            ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  if (!tcp.tls_client_ca.empty()) ssl.pem_root_certs = read_text(tcp.tls_client_ca);
  ssl.pem_key_cert_pairs.push_back({read_text(tcp.tls_key), read_text(tcp.tls_cert)});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

void prepare_socket(const Config& config) {
  const fs::path sock = unix_socket_path(config.listen);
  if (sock.empty()) return;
  if (!fs::is_directory(sock.parent_path().empty() ? "." : sock.parent_path()))
    throw std::runtime_error(sock.string() + ": the directory does not exist");
  clear_socket(sock);
}

Listener listen(const Config& config, const std::vector<grpc::Service*>& services) {
  Listener l;
  l.descriptors = raise_descriptor_limit();
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(int(config.max_message_bytes));
  // Bounds on what connections may hold: handler threads (a call past them
  // is answered RESOURCE_EXHAUSTED), calls per connection, and the life of a
  // connection with no call (a flood's idle connections go within a minute).
  grpc::ResourceQuota quota("cuzkd");
  quota.SetMaxThreads(kMaxRpcThreads);
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
      l.unix_socket = std::make_unique<UnixAcceptor>(sock, *l.server, l.descriptors.connections);
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
