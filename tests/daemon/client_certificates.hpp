// Clients told apart by certificates: a cuzkd TLS listener on loopback that
// asks for client certificates (tcp.tls_client_ca), and the files it needs,
// made with openssl (CUZK_OPENSSL) in a temporary directory: a test CA, the
// server's certificate (self-signed, for "localhost") and one per client,
// signed by the CA, whose common name is the client's name. cuzkd names such
// a client "cert:NAME" (src/daemon/auth.hpp).
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <vector>

#include "daemon_support.hpp"

namespace cuzk::test {

class ClientCertificates {
 public:
  // Whether openssl was found (the tests that need it skip where not).
  static bool available();

  // Makes the CA's, the server's and each client's; throws with openssl's
  // message when one fails.
  explicit ClientCertificates(const std::vector<std::string>& clients);

  // cuzkd's flags for the listener, on a free loopback port.
  std::vector<std::string> daemon_args() const;
  // A channel to that listener of `daemon`, presenting `client`'s certificate.
  std::shared_ptr<grpc::Channel> channel(const Daemon& daemon, const std::string& client) const;

 private:
  void openssl(std::vector<std::string> args) const;
  // NAME.key and NAME.pem with common name `cn`, signed by the CA or by itself.
  void certificate(const std::string& name, const std::string& cn, bool signed_by_ca) const;
  std::string text(const std::string& file) const;

  TempDir dir_;
};

}  // namespace cuzk::test
