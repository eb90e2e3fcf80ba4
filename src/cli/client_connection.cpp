#include "client_connection.hpp"

#include "cuzk/service/daemon_socket.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cuzk::cli {

namespace {

const char* code_name(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "an unknown status";
  }
}

// A Unix socket's path must fit sun_path (107 bytes and a NUL): a longer one
// is refused here rather than cut, or met by a connection error that does
// not say why.
std::string unix_target(const std::string& path) {
  if (path.size() > 107)
    throw std::invalid_argument("the socket path " + path + " is " + std::to_string(path.size()) +
                                " bytes, longer than a Unix socket path can be (107)");
  return "unix:" + path;
}

// A socket path (it has a '/' and no URI scheme) becomes a unix: target;
// anything else is a gRPC target already.
std::string grpc_target(const std::string& address) {
  if (address.starts_with("unix://")) return unix_target(address.substr(7));
  if (address.starts_with("unix:")) return unix_target(address.substr(5));
  if (address.find("://") != std::string::npos || address.find('/') == std::string::npos) return address;
  return unix_target(std::filesystem::absolute(address).string());
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw std::invalid_argument("--tls-ca " + path + ": cannot read it");
  return text.str();
}

std::string from_env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos;) text.replace(at, 1, "; ");
  return text;
}

std::string one_line(const grpc::Status& status) {
  if (status.error_message().empty()) return std::string("cuzkd answered ") + code_name(status.error_code());
  return one_line(status.error_message());
}

std::optional<DaemonAddress> daemon_address(const std::string& flag, const std::string& tls_ca_flag) {
  DaemonAddress address{flag.empty() ? from_env("CUZK_DAEMON") : flag,
                        tls_ca_flag.empty() ? from_env("CUZK_DAEMON_TLS_CA") : tls_ca_flag};
  if (address.target.empty()) return std::nullopt;
  return address;
}

DaemonAddress daemon_address_or_default(const std::string& flag, const std::string& tls_ca_flag) {
  if (auto address = daemon_address(flag, tls_ca_flag)) return *address;
  if (const auto sock = service::find_default_socket())
    return {"unix://" + sock->string(), tls_ca_flag.empty() ? from_env("CUZK_DAEMON_TLS_CA") : tls_ca_flag};
  std::string looked;
  for (const auto& sock : service::client_socket_candidates()) looked += (looked.empty() ? "" : " nor ") + sock.string();
  throw std::runtime_error("no cuzkd found: no socket at " + looked +
                           "; start cuzkd, or give --daemon ADDR or set CUZK_DAEMON (e.g. localhost:9090)");
}

Daemon::Daemon(const DaemonAddress& address) : address_(address.target) {
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (address.tls_ca.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = read_text(address.tls_ca);
    credentials = grpc::SslCredentials(tls);
  }
  grpc::ChannelArguments args;
  // Witnesses and keys travel as single messages (up to gRPC's 2 GiB limit).
  args.SetMaxSendMessageSize(-1);
  args.SetMaxReceiveMessageSize(-1);
  channel_ = grpc::CreateCustomChannel(grpc_target(address.target), credentials, args);
  prover_ = v1::Prover::NewStub(channel_);
  queue_ = v1::Queue::NewStub(channel_);
}

void Daemon::fail(const grpc::Status& status) const {
  const std::string message = one_line(status);
  switch (status.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND: throw std::invalid_argument(message);
    case grpc::StatusCode::UNAVAILABLE:
      // A daemon that answered (draining, no healthy GPU) leaves the channel
      // ready; a connection that failed leaves it in another state.
      if (channel_->GetState(false) != GRPC_CHANNEL_READY)
        throw std::runtime_error("no cuzkd at " + address_ + ": " + message);
      throw std::runtime_error(message);
    case grpc::StatusCode::UNIMPLEMENTED:
      // The Queue service is registered only where cuzkd was started with --queue.
      throw std::runtime_error("cuzkd at " + address_ + " does not serve that (" + message +
                               "); for the job queue, start cuzkd with --queue");
    default: throw std::runtime_error(message);
  }
}

}  // namespace cuzk::cli
