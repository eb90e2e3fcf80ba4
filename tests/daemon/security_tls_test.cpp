// The watchdog on a TLS listener (docs/SECURITY.md, the connection flood on
// TCP): gRPC's own listener, which gRPC 1.51 stops accepting for good after a
// flood past the descriptor limit (CVE-2023-4785). The watchdog probes it with
// a handshake that needs no client certificate; a real cuzkd on 127.0.0.1
// with TLS, its certificate made by openssl at test time.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <regex>
#include <thread>

#include "daemon_support.hpp"
#include "watchdog.hpp"

namespace cuzk::test {
namespace {

// A self-signed certificate and its key in `dir` (server.crt, server.key).
void make_certificate(const fs::path& dir) {
  const ProcessResult made =
      run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                   "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", (dir / "server.key").string(), "-out",
                   (dir / "server.crt").string()},
                  std::chrono::seconds(60));
  ASSERT_EQ(made.exit_code, 0) << made.err;
}

// A cuzkd with TLS on 127.0.0.1 (a port of its own choosing) that requires
// client certificates, beside its Unix socket.
std::vector<std::string> tls_args(const fs::path& dir) {
  const std::string cert = (dir / "server.crt").string();
  return {"--tcp", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", (dir / "server.key").string(),
          "--tls-client-ca", cert};
}

std::string tls_address(const Daemon& d) {
  std::smatch m;
  const std::string log = d.log();
  if (!std::regex_search(log, m, std::regex("127\\.0\\.0\\.1:([0-9]+) \\(TLS\\)"))) return "";
  return "127.0.0.1:" + m[1].str();
}

// A listening socket on 127.0.0.1 that never accepts: the kernel completes
// connections into its backlog, and nobody reads them, as with a listener
// that gRPC no longer accepts on.
struct SilentListener {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int port = 0;
  SilentListener() {
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof at;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0 && ::listen(fd, 16) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &len) == 0)
      port = ntohs(at.sin_port);
  }
  ~SilentListener() { ::close(fd); }
};

// The probe answers for a live cuzkd that requires client certificates (it
// has none), and not for a socket that accepts TCP but never answers TLS,
// nor for a port where nothing listens.
TEST(SecurityTls, TheHandshakeProbeNeedsNoClientCertificate) {
  TempDir dir;
  make_certificate(dir.path());
  Daemon d(dir.path(), "", tls_args(dir.path()));
  const std::string address = tls_address(d);
  ASSERT_FALSE(address.empty()) << d.log();
  EXPECT_TRUE(daemon::tls_answers(address, 2s));

  const SilentListener silent;
  ASSERT_NE(silent.port, 0) << std::strerror(errno);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(daemon::tls_answers("127.0.0.1:" + std::to_string(silent.port), 500ms));
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(waited, 450ms);
  EXPECT_LT(waited, 1500ms) << "the probe outlived its deadline";
  int unused = 0;
  {
    const SilentListener gone;
    unused = gone.port;
  }
  EXPECT_FALSE(daemon::tls_answers("127.0.0.1:" + std::to_string(unused), 500ms));

  // cuzkd's own watchdog has probed it every 2 s meanwhile: healthy.
  std::this_thread::sleep_for(2500ms);
  EXPECT_EQ(http_get(d.metrics_port(), "/healthz").body, "ok\n") << d.log();
  EXPECT_EQ(d.log().find("does not answer"), std::string::npos) << d.log();
}

// A flood past cuzkd's descriptor limit on its TLS listener: gRPC 1.51
// logs 'Failed accept4' and never accepts there again, while the Unix socket
// (cuzkd's own accept loop) serves again once the flood is gone. The watchdog's
// handshake fails, and cuzkd exits with status 3 for a restart (before: it
// probed the Unix socket only and ran on, deaf on TCP).
TEST(SecurityTls, ACuzkdWhoseTlsListenerStopsAcceptingExitsForARestart) {
  TempDir dir;
  make_certificate(dir.path());
  Daemon d(dir.path(), "", tls_args(dir.path()), 256);
  const std::string address = tls_address(d);
  ASSERT_FALSE(address.empty()) << d.log();
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  at.sin_port = htons(uint16_t(std::stoi(address.substr(address.rfind(':') + 1))));
  std::vector<int> connections = flood(at, 400);
  const bool stopped = d.wait_for_log("Failed accept4", 10s);
  close_all(connections);
  if (!stopped) GTEST_SKIP() << "this gRPC kept accepting after the flood (CVE-2023-4785 fixed)";
  // The Unix socket answers again; the TLS listener does not.
  const auto ctx = context(20s);
  ctx->set_wait_for_ready(true);
  v1::ListKeysReply keys;
  EXPECT_TRUE(d.stub().ListKeys(ctx.get(), {}, &keys).ok()) << d.log();
  EXPECT_FALSE(daemon::tls_answers(address, 1s));
  EXPECT_EQ(d.wait_exit(60s), 3) << d.log();
  EXPECT_NE(d.log().find("gRPC does not answer on " + address + ": no TLS handshake"), std::string::npos) << d.log();
}

}  // namespace
}  // namespace cuzk::test
