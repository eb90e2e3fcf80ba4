// Shared by the daemon tests: a real cuzkd process (the binary built with
// this tree, CUZKD_BINARY) on a Unix socket in a temporary directory, with
// the CPU backend, its log in a file; a gRPC stub to it; a plain HTTP GET for
// /metrics and /healthz; and the checks a proof must pass.
#pragma once

#include <grpcpp/grpcpp.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../cli/cli_support.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::test {

using namespace std::chrono_literals;

class Daemon {
 public:
  // Writes `toml` to dir/cuzkd.toml and starts
  //   cuzkd --config dir/cuzkd.toml --listen unix://dir/cuzkd.sock
  //         --metrics 127.0.0.1:0 --log-level debug --backend cpu ARGS...
  // leaving out each of these flags that ARGS give (under a descriptor limit,
  // soft and hard, of `descriptor_limit` when it is not 0; with no --listen
  // at all where `default_listen`, for a test that points cuzkd's default
  // socket at socket() through $RUNTIME_DIRECTORY)
  // then waits (up to a minute) for its "ready" line; a process that exits
  // instead fails the test with its log.
  Daemon(const fs::path& dir, const std::string& toml, std::vector<std::string> args = {},
         unsigned descriptor_limit = 0, bool default_listen = false);
  // Kills a process still running (SIGKILL).
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  v1::Prover::Stub& stub() { return *stub_; }
  fs::path socket() const { return dir_ / "cuzkd.sock"; }
  fs::path config() const { return dir_ / "cuzkd.toml"; }
  int metrics_port() const { return metrics_port_; }
  pid_t pid() const { return pid_; }

  std::string log() const;
  // Polls the log until it contains `text`; false after `timeout`.
  bool wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const;
  void signal(int sig) const;
  // Waits for the process to end: its exit status, or 128 + the signal; -1
  // when it still runs after `timeout` (then it is killed).
  int wait_exit(std::chrono::milliseconds timeout);

 private:
  fs::path dir_;
  pid_t pid_ = -1;
  int metrics_port_ = 0;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Prover::Stub> stub_;
};

// The path of the cuzkd binary under test.
std::string cuzkd_binary();

// Polls `condition` every 20 ms until it holds; false after `timeout`.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout);

// A gRPC context with a deadline `timeout` from now.
std::unique_ptr<grpc::ClientContext> context(std::chrono::milliseconds timeout = 120s);

struct HttpReply {
  int status = 0;
  std::string body;
};
// GET http://127.0.0.1:port/path (HTTP/1.0, read to EOF).
HttpReply http_get(int port, const std::string& path);

// A partition carrying a fixture's witness as bytes, named after the file
// (so that messages name it as the CLI's do).
v1::Partition wtns_partition(const std::string& curve, const std::string& circuit);
// A request for key `key` of n partitions, each the fixture's witness (wtns_partition).
v1::SubmitRequest request(const std::string& key, const std::string& curve, const std::string& circuit, int n);

// Checks that a partition result is a proof that verifies against `vk`
// (verification_key.json of the curve, "bn128" or "bls12381").
void expect_verifies(const v1::PartitionResult& r, const std::string& curve, const fs::path& vk);
// ... of the fixture circuit (one with public signals): its public.json is the
// fixture's, byte for byte, and the proof verifies against the fixture's vk.json.
void expect_valid_proof(const v1::PartitionResult& r, const std::string& curve, const std::string& circuit);

// The line `cuzk prove ZKEY WTNS ...` prints after "error: " (the CLI's
// message for the same mistake).
std::string cli_prove_error(const fs::path& zkey, const fs::path& wtns);

// "key = 'id'\npath = '...'" blocks for [[keys]].
std::string key_entry(const std::string& id, const fs::path& path);

// A connection flood: n non-blocking connections to `address`, held open
// until close_all. Each connect succeeds, is under way (EINPROGRESS, TCP) or
// finds a full backlog (EAGAIN, a Unix socket): a connection left waiting
// does not hold the test. Anything else fails it.
std::vector<int> flood(const sockaddr* address, socklen_t size, int n);
template <class Address>
std::vector<int> flood(const Address& address, int n) {
  return flood(reinterpret_cast<const sockaddr*>(&address), sizeof address, n);
}
void close_all(std::vector<int>& fds);

}  // namespace cuzk::test
