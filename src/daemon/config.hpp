// cuzkd's configuration: a TOML file (packaging/cuzkd.toml is the commented
// example) and command-line flags, which override the file. Every error is a
// ConfigError with one line naming the file or flag and the key; cuzkd prints
// it after "error: " and exits 2.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/service/daemon_socket.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::daemon {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A key loaded at start and on every SIGHUP.
struct KeySpec {
  std::string id;
  std::filesystem::path path;
  friend bool operator==(const KeySpec&, const KeySpec&) = default;
};

struct TcpConfig {
  std::string address;  // "host:port"; empty: no TCP listener
  // Required for any host other than loopback (127.0.0.0/8, ::1, localhost).
  std::filesystem::path tls_cert, tls_key;
  // When set, clients must present a certificate signed by this CA; its
  // name is the client's identity (auth.hpp). Required off loopback unless
  // allow_anonymous_clients: a client without a certificate cannot be told
  // from any other, so all of them would share one identity and its jobs.
  std::filesystem::path tls_client_ca;
  bool allow_anonymous_clients = false;
  bool tls() const { return !tls_cert.empty(); }
};

// [auth]: who is an admin (auth.hpp: admins manage keys and see every job).
struct AuthConfig {
  std::vector<uid_t> admin_uids;         // callers on the Unix socket
  std::vector<std::string> admin_names;  // client certificates' names (tcp.tls_client_ca)
  // Root and the uid cuzkd runs as are admins too: the single-user case
  // needs no [auth] at all, and both can read cuzkd's memory anyway.
  bool default_admins = true;
};

// [queue]: cuzkd as a worker of a PostgreSQL job queue (queue_worker.hpp).
struct QueueConfig {
  std::string url;         // postgres://... or "host=... dbname=..."; empty: no queue
  std::string host;        // this worker's name in claimed_by (empty: hostname:pid)
  double lease_s = 30;     // a claim lapses this long after its last renewal
  unsigned in_flight = 0;  // partitions held at once (0: 2 per proving worker, at least 2)
  int max_attempts = 3;    // claims of a partition before it fails with its reasons
  bool migrate = true;     // apply the schema's missing migrations at start
};

struct Config {
  // "unix:///path/to/socket"; empty: no Unix socket (then TCP must be set).
  // The default is the rule the clients share (cuzk/service/daemon_socket.hpp).
  std::string listen = "unix://" + service::default_socket().string();
  mode_t socket_mode = 0660;
  TcpConfig tcp;
  AuthConfig auth;
  std::vector<KeySpec> keys;
  // "host:port" of the HTTP server for /metrics and /healthz; empty: none.
  std::string metrics = "127.0.0.1:9464";
  std::string log_level = "info";  // trace, debug, info, warn, error, critical, off
  // The largest request accepted (a key or witnesses sent as bytes).
  size_t max_message_bytes = size_t(1) << 30;
  // Bytes gRPC may hold for requests it is receiving, on all connections
  // together (its resource quota's memory): past it gRPC cancels calls under
  // way (RESOURCE_EXHAUSTED) instead of buffering more. At least twice
  // max_message_bytes, as a request needs a little more than its size there;
  // 0: the service's max_pending_bytes, or twice max_message_bytes where
  // that is more (receive_bytes, listener.hpp).
  size_t max_receive_bytes = 0;
  // Seconds that results not yet awaited, and RPCs under way, get after a
  // drain before the server closes.
  double shutdown_grace_s = 10;
  // The arithmetic self-check (host, and device with the cuda backend) runs
  // before serving; a failure stops the start.
  bool selfcheck = true;
  // cuda: exit with status 3 (kExitGpusLost), after a drain, once every GPU
  // has faulted and no reset brought one back, so that the service manager
  // starts a fresh process (whose self-check decides whether the GPUs serve).
  bool exit_when_gpus_lost = true;
  QueueConfig queue;
  // ServiceOptions::witness_dirs and key_dirs come from the top-level
  // witness_dirs and key_dirs. A client is a stranger: without those, no
  // server-side path is read; at most max_keys keys are loaded, holding at
  // most max_key_bytes together: three quarters of the host's memory, so that
  // a Filecoin 2^27 partition key (77 GB of points) loads on a 128 GiB host.
  service::ServiceOptions service = [] {
    service::ServiceOptions s;
    s.any_path_without_dirs = false;
    s.max_keys = 64;
    s.max_key_bytes = service::physical_memory() / 4 * 3;
    return s;
  }();
  // [service] native_circuits: the example circuits are registered for
  // NativeWitness partitions (off: a client is a stranger, and a native
  // partition's synthesis is work it chooses).
  bool native_circuits = false;
};

// Reads and checks the shape of a TOML file: unknown keys, wrong types and
// bad values are errors; files named in it are not opened here.
Config parse_config_file(const std::filesystem::path& file);
// The same from text (`origin` names it in messages).
Config parse_config_text(const std::string& text, const std::string& origin);

// What must hold before serving: a listener is configured, addresses parse,
// a non-loopback TCP address has TLS, TLS files and key files can be read,
// witness directories are directories. (The addresses themselves are tried
// by check_addresses, listener.hpp.)
void check_config(const Config& c);

// The Unix socket's path from Config::listen ("unix:///a/b" or "unix:/a/b"
// or "unix:a/b"), or empty when listen is empty.
std::filesystem::path unix_socket_path(const std::string& listen);
// Whether a "host:port" names a loopback address.
bool is_loopback(const std::string& address);

// "123", "512MiB", "16GiB", "1.5GiB", "64KiB", "2GB" (decimal) to bytes.
size_t parse_size(const std::string& text);
// "0660" or "660" to a mode.
mode_t parse_mode(const std::string& text);

service::BackendKind parse_backend(const std::string& name);
service::AbcPlace parse_abc(const std::string& name);
service::KeyStorage parse_key_storage(const std::string& name);

}  // namespace cuzk::daemon
