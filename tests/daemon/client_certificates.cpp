#include "client_certificates.hpp"

#include <regex>
#include <stdexcept>

namespace cuzk::test {

bool ClientCertificates::available() { return !std::string(CUZK_OPENSSL).empty(); }

ClientCertificates::ClientCertificates(const std::vector<std::string>& clients) {
  certificate("ca", "cuzk test CA", false);
  certificate("server", "localhost", false);
  for (const std::string& name : clients) certificate(name, name, true);
}

void ClientCertificates::openssl(std::vector<std::string> args) const {
  args.insert(args.begin(), CUZK_OPENSSL);
  const ProcessResult r = run_process(args, std::chrono::seconds(60));
  if (r.exit_code != 0) throw std::runtime_error(describe(args, r));
}

void ClientCertificates::certificate(const std::string& name, const std::string& cn, bool signed_by_ca) const {
  const std::string key = (dir_ / (name + ".key")).string(), pem = (dir_ / (name + ".pem")).string();
  std::vector<std::string> req{"req",   "-newkey", "ec",  "-pkeyopt", "ec_paramgen_curve:prime256v1",
                               "-nodes", "-keyout", key,  "-subj",    "/CN=" + cn};
  if (!signed_by_ca) {
    req.insert(req.end(), {"-x509", "-days", "1", "-out", pem});
    openssl(req);
    return;
  }
  const std::string csr = (dir_ / (name + ".csr")).string();
  req.insert(req.end(), {"-new", "-out", csr});
  openssl(req);
  openssl({"x509", "-req", "-in", csr, "-CA", (dir_ / "ca.pem").string(), "-CAkey", (dir_ / "ca.key").string(),
           "-CAcreateserial", "-days", "1", "-out", pem});
}

std::vector<std::string> ClientCertificates::daemon_args() const {
  return {"--tcp",     "127.0.0.1:0", "--tls-cert",      (dir_ / "server.pem").string(),
          "--tls-key", (dir_ / "server.key").string(), "--tls-client-ca", (dir_ / "ca.pem").string()};
}

std::string ClientCertificates::text(const std::string& file) const {
  const Bytes b = read_bytes(dir_ / file);
  return std::string(b.begin(), b.end());
}

std::shared_ptr<grpc::Channel> ClientCertificates::channel(const Daemon& daemon, const std::string& client) const {
  std::smatch m;
  const std::string log = daemon.log();
  if (!std::regex_search(log, m, std::regex("127\\.0\\.0\\.1:([0-9]+) \\(TLS\\)")))
    throw std::runtime_error("cuzkd logged no TLS listener:\n" + log);
  grpc::SslCredentialsOptions tls;
  tls.pem_root_certs = text("server.pem");
  tls.pem_private_key = text(client + ".key");
  tls.pem_cert_chain = text(client + ".pem");
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  return grpc::CreateCustomChannel("127.0.0.1:" + m[1].str(), grpc::SslCredentials(tls), args);
}

}  // namespace cuzk::test
