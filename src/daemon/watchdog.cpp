#include "watchdog.hpp"

#include <netdb.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <memory>
#include <utility>

#include "cuzk/util/stoppable_sleep.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::daemon {

namespace {

using SteadyClock = std::chrono::steady_clock;

struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// Waits until `fd` is ready for `events`; false once `until` has passed.
bool wait_for(int fd, short events, SteadyClock::time_point until) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - SteadyClock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, int(left));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

// A non-blocking TCP connection to "host:port" made before `until`; -1 when none.
int connect_before(const std::string& address, SteadyClock::time_point until) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) return -1;
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  if (::getaddrinfo(host.c_str(), address.substr(colon + 1).c_str(), &hints, &list) != 0) return -1;
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owned(list, &::freeaddrinfo);
  for (const addrinfo* a = list; a; a = a->ai_next) {
    Descriptor s{::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol)};
    if (s.fd < 0) continue;
    if (::connect(s.fd, a->ai_addr, a->ai_addrlen) != 0) {
      int error = errno;
      socklen_t len = sizeof error;
      if (error != EINPROGRESS || !wait_for(s.fd, POLLOUT, until) ||
          ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0)
        continue;
    }
    return std::exchange(s.fd, -1);
  }
  return -1;
}

// Stops the handshake where the server asks for the client's certificate
// (SSL_ERROR_WANT_X509_LOOKUP): by then its own certificate has come.
int stop_at_certificate_request(SSL*, X509**, EVP_PKEY**) { return -1; }

}  // namespace

bool answered(grpc::StatusCode code) {
  return code != grpc::StatusCode::UNAVAILABLE && code != grpc::StatusCode::DEADLINE_EXCEEDED;
}

// A TLS listener (gRPC's own: cuzkd accepts only its Unix socket itself) is
// the one that stops accepting after a connection flood with gRPC before the
// CVE-2023-4785 fix, and a call to it may need a client certificate the
// process does not have. The handshake needs none as far as the server's
// certificate: the ServerHello and Certificate show that gRPC accepted the
// connection and did its TLS work on it, which a listener that no longer
// accepts (its backlog takes the connection, nobody reads it) never sends.
// Where the server asks for a client certificate, the probe stops there and
// closes: the server sees a client that went away mid-handshake rather than
// one without a certificate (a handshake that fails there, and an error line
// in gRPC's log every round); any ending after the server's certificate is
// an answer. The certificate is not verified: the probe
// learns that the server answers, not whom it trusts.
bool tls_answers(const std::string& address, std::chrono::milliseconds deadline) {
  const auto until = SteadyClock::now() + deadline;
  const Descriptor conn{connect_before(address, until)};
  if (conn.fd < 0) return false;
  const std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free);
  if (!ctx) return false;
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);
  SSL_CTX_set_client_cert_cb(ctx.get(), stop_at_certificate_request);
  static constexpr unsigned char kH2[] = {2, 'h', '2'};  // as a gRPC client offers it
  SSL_CTX_set_alpn_protos(ctx.get(), kH2, sizeof kH2);
  const std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), &SSL_free);
  if (!ssl || SSL_set_fd(ssl.get(), conn.fd) != 1) return false;
  // Until the handshake is done, stopped (the callback), failed, or out of time.
  for (int rc; (rc = SSL_connect(ssl.get())) != 1;) {
    const int error = SSL_get_error(ssl.get(), rc);
    const short events = error == SSL_ERROR_WANT_READ ? POLLIN : error == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
    if (events == 0 || !wait_for(conn.fd, events, until)) break;
  }
  return SSL_get0_peer_certificate(ssl.get()) != nullptr;
}

GrpcWatchdog::GrpcWatchdog(std::vector<ProbeTarget> targets, std::function<void(bool)> report,
                           std::function<void()> lost, WatchdogTiming timing)
    : targets_(std::move(targets)),
      report_(std::move(report)),
      lost_(std::move(lost)),
      timing_(timing),
      streak_(timing.failures) {
  const bool ok = round();
  streak_.record(ok);
  report_(ok);
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

bool GrpcWatchdog::round() const {
  bool all = true;
  for (const auto& [target, tls] : targets_) {
    if (tls) {
      if (tls_answers(target, timing_.deadline)) continue;
      spdlog::warn("gRPC does not answer on {}: no TLS handshake within {} ms", target, timing_.deadline.count());
      all = false;
      continue;
    }
    // A channel of its own each time (no shared subchannel), so that every
    // round makes a new connection: one kept open would not show that the
    // listener still accepts.
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    const auto stub = v1::Prover::NewStub(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timing_.deadline);
    v1::ListKeysReply reply;
    const grpc::Status status = stub->ListKeys(&ctx, v1::ListKeysRequest{}, &reply);
    if (answered(status.error_code())) continue;
    spdlog::warn("gRPC does not answer on {}: {}", target, status.error_message());
    all = false;
  }
  return all;
}

void GrpcWatchdog::run(std::stop_token stop) {
  while (sleep_unless_stopped(stop, timing_.period)) {
    const bool ok = round();
    if (ok && !streak_.answering()) spdlog::info("gRPC answers again");
    report_(ok);
    if (!streak_.record(ok)) continue;
    spdlog::error("gRPC has not answered {} rounds in a row", timing_.failures);
    lost_();
    return;
  }
}

}  // namespace cuzk::daemon
