#include "daemon_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <regex>
#include <thread>

#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "unix_socket.hpp"

extern char** environ;

namespace cuzk::test {

std::string cuzkd_binary() { return CUZKD_BINARY; }

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(20ms);
  }
}

std::unique_ptr<grpc::ClientContext> context(std::chrono::milliseconds timeout) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + timeout);
  return ctx;
}

Daemon::Daemon(const fs::path& dir, const std::string& toml, std::vector<std::string> args, unsigned descriptor_limit,
               bool default_listen)
    : dir_(dir) {
  require_socket_path_fits(socket());
  write_bytes(config(), Bytes(toml.begin(), toml.end()));
  std::vector<std::string> argv{cuzkd_binary(), "--config", config().string()};
  const std::pair<std::string, std::string> defaults[] = {{"--listen", "unix://" + socket().string()},
                                                          {"--metrics", "127.0.0.1:0"},
                                                          {"--log-level", "debug"},
                                                          {"--backend", "cpu"}};
  for (const auto& [flag, value] : defaults)
    if (std::find(args.begin(), args.end(), flag) == args.end() && !(default_listen && flag == "--listen"))
      argv.insert(argv.end(), {flag, value});
  argv.insert(argv.end(), args.begin(), args.end());
  if (descriptor_limit)  // the shell execs cuzkd in its place: the pid stays cuzkd's
    argv.insert(argv.begin(), {"/bin/sh", "-c", "ulimit -n " + std::to_string(descriptor_limit) + " && exec \"$@\"", "sh"});
  const fs::path log_file = dir_ / "cuzkd.log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> cargs;
  for (auto& a : argv) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, cargs[0], &actions, nullptr, cargs.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));

  bool exited = false;
  const bool ready = eventually(
      [&] {
        if (log().find(" ready: ") != std::string::npos) return true;
        int status;
        exited = ::waitpid(pid_, &status, WNOHANG) == pid_;
        if (exited) pid_ = -1;
        return exited;
      },
      60s);
  if (!ready || exited) throw std::runtime_error("cuzkd did not become ready; its log:\n" + log());
  std::smatch m;
  const std::string text = log();
  if (std::regex_search(text, m, std::regex("metrics on http://127\\.0\\.0\\.1:([0-9]+)/metrics")))
    metrics_port_ = std::stoi(m[1]);
  channel_ = grpc::CreateChannel("unix:" + socket().string(), grpc::InsecureChannelCredentials());
  stub_ = v1::Prover::NewStub(channel_);
}

Daemon::~Daemon() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status;
    ::waitpid(pid_, &status, 0);
  }
}

std::string Daemon::log() const {
  try {
    const Bytes b = read_bytes(dir_ / "cuzkd.log");
    return std::string(b.begin(), b.end());
  } catch (const std::exception&) {
    return "";
  }
}

bool Daemon::wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const {
  return eventually([&] { return log().find(text) != std::string::npos; }, timeout);
}

void Daemon::signal(int sig) const {
  if (pid_ > 0) ::kill(pid_, sig);
}

int Daemon::wait_exit(std::chrono::milliseconds timeout) {
  int result = -1;
  eventually(
      [&] {
        int status;
        if (pid_ <= 0 || ::waitpid(pid_, &status, WNOHANG) != pid_) return false;
        result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        pid_ = -1;
        return true;
      },
      timeout);
  return result;
}

HttpReply http_get(int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != ssize_t(request.size())) {
    ::close(fd);
    throw std::runtime_error("send failed");
  }
  std::string response;
  char buf[65536];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) response.append(buf, size_t(n));
  ::close(fd);
  HttpReply r;
  std::smatch m;
  if (!std::regex_search(response, m, std::regex("^HTTP/1\\.[01] ([0-9]{3})")))
    throw std::runtime_error("not an HTTP response: " + response.substr(0, 100));
  r.status = std::stoi(m[1]);
  const auto body = response.find("\r\n\r\n");
  if (body != std::string::npos) r.body = response.substr(body + 4);
  return r;
}

v1::Partition wtns_partition(const std::string& curve, const std::string& circuit) {
  const fs::path p = fixture(curve, circuit, "witness.wtns");
  const Bytes b = read_bytes(p);
  v1::Partition part;
  part.set_wtns(std::string(b.begin(), b.end()));
  part.set_name(p.string());
  return part;
}

v1::SubmitRequest request(const std::string& key, const std::string& curve, const std::string& circuit, int n) {
  v1::SubmitRequest req;
  req.set_key_id(key);
  for (int i = 0; i < n; ++i) *req.add_partitions() = wtns_partition(curve, circuit);
  return req;
}

namespace {

template <class E>
bool verifies(const fs::path& vk, const fs::path& pub, const fs::path& proof) {
  const auto publics = io::read_public_json<E>(pub);
  return groth16::verify(io::read_vk_json<E>(vk), std::span<const typename E::Fr>(publics),
                         io::read_proof_json<E>(proof));
}

}  // namespace

void expect_valid_proof(const v1::PartitionResult& r, const std::string& curve, const std::string& circuit) {
  ASSERT_TRUE(r.ok()) << r.error_code() << ": " << r.error();
  // The bytes `cuzk prove` writes, which for signals are the bytes snarkjs wrote.
  const Bytes pub = read_bytes(fixture(curve, circuit, "public.json"));
  EXPECT_EQ(r.public_json(), std::string(pub.begin(), pub.end()));
  expect_verifies(r, curve, fixture(curve, circuit, "vk.json"));
}

void expect_verifies(const v1::PartitionResult& r, const std::string& curve, const fs::path& vk) {
  ASSERT_TRUE(r.ok()) << r.error_code() << ": " << r.error();
  TempDir tmp;
  write_bytes(tmp / "proof.json", Bytes(r.proof_json().begin(), r.proof_json().end()));
  write_bytes(tmp / "public.json", Bytes(r.public_json().begin(), r.public_json().end()));
  const bool ok = curve == "bn128" ? verifies<ec::Bn254>(vk, tmp / "public.json", tmp / "proof.json")
                                   : verifies<ec::Bls12_381>(vk, tmp / "public.json", tmp / "proof.json");
  EXPECT_TRUE(ok) << "the proof does not verify: " << r.proof_json();
  EXPECT_GT(r.times().total_s(), 0.0);
}

std::string cli_prove_error(const fs::path& zkey, const fs::path& wtns) {
  TempDir out;
  const ProcessResult r = cuzk({"prove", zkey, wtns, out / "proof.json", out / "public.json"});
  const std::string prefix = "error: ";
  if (r.exit_code == 0 || r.err.rfind(prefix, 0) != 0) {
    ADD_FAILURE() << "cuzk prove did not fail with one error line: " << r.err;
    return "";
  }
  std::string line = r.err.substr(prefix.size());
  return line.substr(0, line.find('\n'));
}

std::string key_entry(const std::string& id, const fs::path& path) {
  return "[[keys]]\nid = \"" + id + "\"\npath = \"" + path.string() + "\"\n";
}

std::vector<int> flood(const sockaddr* address, socklen_t size, int n) {
  std::vector<int> fds;
  for (int i = 0; i < n; ++i) {
    const int fd = ::socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
      ADD_FAILURE() << "socket: " << std::strerror(errno);
      break;
    }
    fds.push_back(fd);
    if (::connect(fd, address, size) != 0 && errno != EINPROGRESS && errno != EAGAIN) {
      ADD_FAILURE() << "connect: " << std::strerror(errno);
      break;
    }
  }
  return fds;
}

void close_all(std::vector<int>& fds) {
  for (int fd : fds) ::close(fd);
  fds.clear();
}

}  // namespace cuzk::test
