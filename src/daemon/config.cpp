#include "config.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>
#include <netinet/in.h>

#include <spdlog/spdlog.h>

#include <toml.hpp>

#include "cuzk/util/byte_size.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

namespace cuzk::daemon {

namespace fs = std::filesystem;

namespace {

// toml11's messages span several lines (a source excerpt); the first line,
// without its "[error] " tag, is the one cuzkd shows.
std::string first_line(const std::string& what) {
  std::string line = what.substr(0, what.find('\n'));
  for (const char* tag : {"[error] ", "[error]"})
    if (line.rfind(tag, 0) == 0) line.erase(0, std::string(tag).size());
  return line;
}

// Walks one table of the file: each key read is marked, and finish() refuses
// the keys nobody read, so a misspelled key is an error instead of a default.
class Table {
 public:
  Table(const toml::value& v, std::string origin, std::string prefix)
      : v_(v), origin_(std::move(origin)), prefix_(std::move(prefix)) {}

  const toml::value* find(const std::string& key) {
    seen_.insert(key);
    const auto& t = v_.as_table();
    auto it = t.find(key);
    return it == t.end() ? nullptr : &it->second;
  }

  [[noreturn]] void fail(const toml::value& at, const std::string& key, const std::string& what) const {
    throw ConfigError(origin_ + ":" + std::to_string(at.location().line()) + ": " + prefix_ + key + ": " + what);
  }

  void read(const std::string& key, std::string& out) {
    if (auto* v = find(key)) {
      if (!v->is_string()) fail(*v, key, "expected a string");
      out = v->as_string().str;
    }
  }
  void read(const std::string& key, bool& out) {
    if (auto* v = find(key)) {
      if (!v->is_boolean()) fail(*v, key, "expected true or false");
      out = v->as_boolean();
    }
  }
  template <class U>
  void read_uint(const std::string& key, U& out, uint64_t max) {
    if (auto* v = find(key)) {
      if (!v->is_integer() || v->as_integer() < 0 || uint64_t(v->as_integer()) > max)
        fail(*v, key, "expected an integer from 0 to " + std::to_string(max));
      out = U(v->as_integer());
    }
  }
  void read(const std::string& key, double& out) {
    if (auto* v = find(key)) {
      if (v->is_integer()) out = double(v->as_integer());
      else if (v->is_floating()) out = v->as_floating();
      else fail(*v, key, "expected a number");
      if (!(out >= 0) || !std::isfinite(out)) fail(*v, key, "expected a number >= 0");
    }
  }
  // A size: an integer of bytes or a string such as "16GiB".
  void read_size(const std::string& key, size_t& out) {
    if (auto* v = find(key)) {
      if (v->is_integer() && v->as_integer() >= 0) {
        out = size_t(v->as_integer());
      } else if (v->is_string()) {
        try {
          out = parse_size(v->as_string().str);
        } catch (const ConfigError& e) {
          fail(*v, key, e.what());
        }
      } else {
        fail(*v, key, "expected a size: bytes, or a string such as \"16GiB\"");
      }
    }
  }
  // A string turned into a value by `parse` (which throws ConfigError).
  template <class T, class Parse>
  void read_enum(const std::string& key, T& out, Parse parse) {
    if (auto* v = find(key)) {
      if (!v->is_string()) fail(*v, key, "expected a string");
      try {
        out = parse(v->as_string().str);
      } catch (const ConfigError& e) {
        fail(*v, key, e.what());
      }
    }
  }
  template <class T>
  void read(const std::string& key, std::vector<T>& out)
    requires std::is_constructible_v<T, std::string>
  {
    if (auto* v = find(key)) {
      if (!v->is_array()) fail(*v, key, "expected an array of strings");
      out.clear();
      for (const auto& e : v->as_array()) {
        if (!e.is_string()) fail(e, key, "expected an array of strings");
        out.emplace_back(e.as_string().str);
      }
    }
  }
  void read(const std::string& key, std::vector<uid_t>& out) {
    if (auto* v = find(key)) {
      const std::string expected = "expected an array of user ids (integers from 0 to 4294967294)";
      if (!v->is_array()) fail(*v, key, expected);
      out.clear();
      for (const auto& e : v->as_array()) {
        // (uid_t)-1 is no user: chown's "unchanged", never a peer's uid.
        if (!e.is_integer() || e.as_integer() < 0 || e.as_integer() >= int64_t(uid_t(-1))) fail(e, key, expected);
        out.push_back(uid_t(e.as_integer()));
      }
    }
  }
  // A sub-table, or nullptr.
  const toml::value* table(const std::string& key) {
    auto* v = find(key);
    if (v && !v->is_table()) fail(*v, key, "expected a table ([" + prefix_ + key + "])");
    return v;
  }

  void finish() const {
    for (const auto& [k, v] : v_.as_table())
      if (!seen_.count(k)) fail(v, k, "unknown key");
  }

 private:
  const toml::value& v_;
  std::string origin_, prefix_;
  std::set<std::string> seen_;
};

void read_service(Table& t, Config& c) {
  service::ServiceOptions& s = c.service;
  t.read_enum("backend", s.placement.backend, parse_backend);
  t.read("gpus", s.placement.gpus);
  t.read_size("gpu_memory", s.placement.gpu_memory);
  t.read_uint("threads", s.threads, 4096);
  t.read_uint("synthesis_threads", s.synthesis_threads, 1024);
  t.read_uint("cpu_workers", s.cpu_workers, 1024);
  t.read_uint("workers_per_gpu", s.workers_per_gpu, 64);
  t.read_uint("finalizer_threads", s.finalizer_threads, 1024);
  t.read_enum("abc", s.abc, parse_abc);
  t.read("pageable", s.pageable);
  t.read_size("host_budget", s.host_budget);
  t.read_size("key_budget", s.key_budget);
  t.read_enum("key_storage", s.key_storage, parse_key_storage);
  t.read_uint("max_pending_partitions", s.max_pending_partitions, uint64_t(1) << 40);
  t.read_size("max_pending_bytes", s.max_pending_bytes);
  t.read_uint("max_unawaited_jobs", s.max_unawaited_jobs, uint64_t(1) << 40);
  t.read("record_timing_lines", s.record_timing_lines);
  t.read("native_circuits", c.native_circuits);
  t.read_uint("max_keys", s.max_keys, uint64_t(1) << 20);
  t.read_size("max_key_bytes", s.max_key_bytes);
  double recovery = s.gpu_recovery_interval.count() / 1e3;
  t.read("gpu_recovery_interval", recovery);
  s.gpu_recovery_interval = std::chrono::milliseconds(std::llround(recovery * 1e3));
  t.finish();
}

void read_keys(const toml::value& v, Table& top, std::vector<KeySpec>& keys) {
  if (!v.is_array()) top.fail(v, "keys", "expected an array of tables ([[keys]])");
  keys.clear();
  for (const auto& e : v.as_array()) {
    if (!e.is_table()) top.fail(e, "keys", "expected an array of tables ([[keys]])");
    Table k(e, "", "");
    KeySpec spec;
    std::string path;
    k.read("id", spec.id);
    k.read("path", path);
    spec.path = path;
    try {
      k.finish();
    } catch (const ConfigError& err) {
      top.fail(e, "keys", std::string(err.what()).substr(std::string(err.what()).find(": ") + 2));
    }
    if (path.empty()) top.fail(e, "keys", "each [[keys]] needs a path");
    if (spec.id.empty()) spec.id = spec.path.stem().string();
    for (const auto& other : keys)
      if (other.id == spec.id) top.fail(e, "keys", "the id '" + spec.id + "' appears twice");
    keys.push_back(spec);
  }
}

Config parse_value(const toml::value& root, const std::string& origin) {
  Config c;
  Table top(root, origin, "");
  top.read("listen", c.listen);
  if (auto* v = top.find("socket_mode")) {
    // TOML's own octal (0o660) or a string ("0660").
    if (v->is_integer() && v->as_integer() >= 0 && v->as_integer() <= 07777) {
      c.socket_mode = mode_t(v->as_integer());
    } else if (v->is_string()) {
      try {
        c.socket_mode = parse_mode(v->as_string().str);
      } catch (const ConfigError& e) {
        top.fail(*v, "socket_mode", e.what());
      }
    } else {
      top.fail(*v, "socket_mode", "expected a file mode such as 0o660 or \"0660\"");
    }
  }
  top.read("metrics", c.metrics);
  top.read("log_level", c.log_level);
  top.read_size("max_message_bytes", c.max_message_bytes);
  top.read_size("max_receive_bytes", c.max_receive_bytes);
  top.read("shutdown_grace_s", c.shutdown_grace_s);
  top.read("selfcheck", c.selfcheck);
  top.read("exit_when_gpus_lost", c.exit_when_gpus_lost);
  top.read("witness_dirs", c.service.witness_dirs);
  top.read("key_dirs", c.service.key_dirs);
  if (auto* v = top.find("keys")) read_keys(*v, top, c.keys);
  if (auto* v = top.table("tcp")) {
    Table t(*v, origin, "tcp.");
    t.read("address", c.tcp.address);
    std::string cert, key, ca;
    t.read("tls_cert", cert);
    t.read("tls_key", key);
    t.read("tls_client_ca", ca);
    t.read("allow_anonymous_clients", c.tcp.allow_anonymous_clients);
    c.tcp.tls_cert = cert, c.tcp.tls_key = key, c.tcp.tls_client_ca = ca;
    t.finish();
  }
  if (auto* v = top.table("auth")) {
    Table t(*v, origin, "auth.");
    t.read("admin_uids", c.auth.admin_uids);
    t.read("admin_names", c.auth.admin_names);
    t.read("default_admins", c.auth.default_admins);
    t.finish();
  }
  if (auto* v = top.table("queue")) {
    Table t(*v, origin, "queue.");
    t.read("url", c.queue.url);
    t.read("host", c.queue.host);
    t.read("lease_s", c.queue.lease_s);
    t.read_uint("in_flight", c.queue.in_flight, 65536);
    unsigned attempts = (unsigned)c.queue.max_attempts;
    t.read_uint("max_attempts", attempts, 100);
    c.queue.max_attempts = (int)attempts;
    t.read("migrate", c.queue.migrate);
    t.finish();
  }
  if (auto* v = top.table("service")) {
    Table t(*v, origin, "service.");
    read_service(t, c);
  }
  top.finish();
  return c;
}

}  // namespace

Config parse_config_text(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  toml::value root;
  try {
    root = toml::parse(in, origin);
  } catch (const toml::exception& e) {
    throw ConfigError(origin + ":" + std::to_string(e.location().line()) + ": " + first_line(e.what()));
  } catch (const std::exception& e) {
    throw ConfigError(origin + ": " + first_line(e.what()));
  }
  return parse_value(root, origin);
}

Config parse_config_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot open: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  return parse_config_text(text.str(), file.string());
}

size_t parse_size(const std::string& text) {
  try {
    return parse_byte_size(text);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

mode_t parse_mode(const std::string& text) {
  if (text.empty() || text.size() > 5 || text.find_first_not_of("01234567") != std::string::npos)
    throw ConfigError("'" + text + "' is not an octal file mode such as 0660");
  return mode_t(std::strtoul(text.c_str(), nullptr, 8));
}

service::BackendKind parse_backend(const std::string& name) {
  if (const auto kind = service::backend_named(name)) return *kind;
  throw ConfigError("'" + name + "' is not a backend (auto, cpu or cuda)");
}

service::AbcPlace parse_abc(const std::string& name) {
  if (const auto place = service::abc_place_named(name)) return *place;
  throw ConfigError("'" + name + "' is not a place for a, b, c (auto, host or gpu)");
}

service::KeyStorage parse_key_storage(const std::string& name) {
  if (name == "copy") return service::KeyStorage::copy;
  if (name == "map") return service::KeyStorage::map;
  throw ConfigError("'" + name + "' is not a key storage (copy or map)");
}

fs::path unix_socket_path(const std::string& listen) {
  if (listen.empty()) return {};
  if (listen.rfind("unix:", 0) != 0)
    throw ConfigError("listen: '" + listen + "' is not unix:///path (a TCP address goes in [tcp] address)");
  std::string p = listen.substr(5);
  if (p.rfind("//", 0) == 0) p.erase(0, 2);
  if (p.empty()) throw ConfigError("listen: '" + listen + "' names no socket file");
  return p;
}

namespace {

// "host:port" or "[v6]:port" split; ConfigError when it does not parse.
std::pair<std::string, std::string> split_host_port(const std::string& address, const std::string& what) {
  const std::string bad = what + ": '" + address + "' is not host:port";
  std::string host, port;
  if (!address.empty() && address.front() == '[') {
    const auto close = address.find(']');
    if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') throw ConfigError(bad);
    host = address.substr(1, close - 1);
    port = address.substr(close + 2);
  } else {
    const auto colon = address.rfind(':');
    if (colon == std::string::npos || address.find(':') != colon) throw ConfigError(bad);
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
  }
  if (host.empty() || port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535)
    throw ConfigError(bad);
  return {host, port};
}

// A file cuzkd reads at start, opened as start opens it: by the same user
// (under systemd, ExecStartPre's sandbox is the service's).
void check_file(const fs::path& p, const std::string& what) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) throw ConfigError(what + ": " + p.string() + ": no such file");
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ConfigError(what + ": " + p.string() + ": cannot read it: " + std::strerror(errno));
  ::close(fd);
}

}  // namespace

bool is_loopback(const std::string& address) {
  // The host parsed as an address, not matched as text: "127.evil.example"
  // is a name that may resolve anywhere.
  const auto [host, port] = split_host_port(address, "address");
  if (host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1)
    return IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127);
  return false;
}

void check_config(const Config& c) {
  if (c.listen.empty() && c.tcp.address.empty())
    throw ConfigError("nothing to listen on: set listen (a Unix socket) or [tcp] address");
  const fs::path sock = unix_socket_path(c.listen);
  if (sock.string().size() > 107) throw ConfigError("listen: the socket path is longer than 107 bytes: " + sock.string());
  if (c.socket_mode > 07777) throw ConfigError("socket_mode: not a file mode");
  if (!c.tcp.address.empty()) {
    split_host_port(c.tcp.address, "tcp.address");
    if (c.tcp.tls_cert.empty() != c.tcp.tls_key.empty())
      throw ConfigError("tcp: tls_cert and tls_key go together");
    if (!c.tcp.tls() && !is_loopback(c.tcp.address))
      throw ConfigError("tcp.address: " + c.tcp.address +
                        " is not a loopback address, so it needs TLS (tcp.tls_cert and tcp.tls_key)");
    if (c.tcp.tls() && c.tcp.tls_client_ca.empty() && !c.tcp.allow_anonymous_clients && !is_loopback(c.tcp.address))
      throw ConfigError("tcp.address: " + c.tcp.address +
                        " is not a loopback address, so clients need certificates (tcp.tls_client_ca); "
                        "tcp.allow_anonymous_clients = true serves any client as one identity");
    if (c.tcp.tls()) {
      check_file(c.tcp.tls_cert, "tcp.tls_cert");
      check_file(c.tcp.tls_key, "tcp.tls_key");
    }
    if (!c.tcp.tls_client_ca.empty()) {
      if (!c.tcp.tls()) throw ConfigError("tcp.tls_client_ca needs tcp.tls_cert and tcp.tls_key");
      check_file(c.tcp.tls_client_ca, "tcp.tls_client_ca");
    }
  } else if (c.tcp.tls() || !c.tcp.tls_client_ca.empty()) {
    throw ConfigError("tcp: TLS files are set but tcp.address is not");
  }
  if (!c.metrics.empty()) split_host_port(c.metrics, "metrics");
  if (!c.queue.url.empty()) {
#if !defined(CUZK_HAVE_QUEUE)
    throw ConfigError("queue.url: this cuzkd was built without the job queue (libpq-dev, CUZK_QUEUE)");
#endif
    if (!(c.queue.lease_s >= 1 && c.queue.lease_s <= 86400)) throw ConfigError("queue.lease_s: must be from 1 to 86400");
    if (c.queue.max_attempts < 1) throw ConfigError("queue.max_attempts: must be at least 1");
    // A queue's jobs may name their witnesses by file:// URL, which the
    // workers read only beneath witness_dirs: without them every such job
    // would fail later, on every host that claims it.
    if (c.service.witness_dirs.empty())
      throw ConfigError("queue.url: a queue worker needs witness_dirs, beneath which it reads file:// witnesses");
  }
  if (spdlog::level::from_str(c.log_level) == spdlog::level::off && c.log_level != "off")
    throw ConfigError("log_level: '" + c.log_level + "' is not one of trace, debug, info, warn, error, critical, off");
  if (c.max_message_bytes < 1024 || c.max_message_bytes > size_t(INT32_MAX))
    throw ConfigError("max_message_bytes: must be from 1KiB to 2GiB - 1");
  if (c.max_receive_bytes != 0 && c.max_receive_bytes < 2 * c.max_message_bytes)
    throw ConfigError("max_receive_bytes: must be 0 or at least twice max_message_bytes (" +
                      std::to_string(2 * c.max_message_bytes) + ")");
  for (const auto& k : c.keys) check_file(k.path, "key '" + k.id + "'");
  for (const auto& [name, dirs] : {std::pair{"witness_dirs", &c.service.witness_dirs}, {"key_dirs", &c.service.key_dirs}})
    for (const auto& d : *dirs) {
      std::error_code ec;
      if (!fs::is_directory(d, ec)) throw ConfigError(std::string(name) + ": " + d.string() + ": no such directory");
    }
}

}  // namespace cuzk::daemon
