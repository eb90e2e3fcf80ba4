#include "flags.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "cuzk/service/placement.hpp"

namespace cuzk::daemon {

namespace {

// A flag's value, kept alive with the applier that copies it into a Config
// when the flag was given.
template <class T>
std::shared_ptr<T> value() {
  return std::make_shared<T>();
}

}  // namespace

Flags::Flags() : app_("cuzkd: the cuzk proving service (gRPC on a Unix socket or TCP+TLS, Prometheus /metrics)") {
  app_.set_version_flag("--version", std::string("cuzkd ") + service::kVersion + " (backends: " +
                                         service::build_backends() + ")");
  app_.add_option("-c,--config", config_file, "TOML configuration file (packaging/cuzkd.toml is an example)")
      ->check(CLI::ExistingFile);
  app_.add_flag("--check", check_only, "Check the configuration (syntax, addresses, files) and exit");

  // Adds a flag of type T whose value `set` writes into a Config.
  auto add = [this]<class T>(const std::string& name, const std::string& help, auto set, T*) {
    auto v = value<T>();
    CLI::Option* opt = app_.add_option(name, *v, help);
    apply_.push_back([opt, v, set, name](Config& c) {
      if (!opt->count()) return;
      try {
        set(c, *v);
      } catch (const ConfigError& e) {
        throw ConfigError(name + ": " + e.what());
      }
    });
    return opt;
  };
  using S = std::string;
  add("--listen", "Unix socket, unix:///path (\"\": none) [listen]", [](Config& c, const S& v) { c.listen = v; },
      (S*)nullptr);
  add("--socket-mode", "Mode of the socket file, octal [socket_mode]",
      [](Config& c, const S& v) { c.socket_mode = parse_mode(v); }, (S*)nullptr);
  add("--tcp", "TCP host:port (TLS required unless loopback) [tcp.address]",
      [](Config& c, const S& v) { c.tcp.address = v; }, (S*)nullptr);
  add("--tls-cert", "Server certificate, PEM [tcp.tls_cert]", [](Config& c, const S& v) { c.tcp.tls_cert = v; },
      (S*)nullptr);
  add("--tls-key", "Server private key, PEM [tcp.tls_key]", [](Config& c, const S& v) { c.tcp.tls_key = v; },
      (S*)nullptr);
  add("--tls-client-ca", "Require client certificates signed by this CA [tcp.tls_client_ca]",
      [](Config& c, const S& v) { c.tcp.tls_client_ca = v; }, (S*)nullptr);
  {
    auto v = std::make_shared<bool>(false);
    CLI::Option* opt = app_.add_flag("--allow-anonymous-clients", *v,
                                     "TLS off loopback without tcp.tls_client_ca: any client, as one identity "
                                     "[tcp.allow_anonymous_clients]");
    apply_.push_back([opt, v](Config& c) {
      if (opt->count()) c.tcp.allow_anonymous_clients = *v;
    });
  }
  add("--admin-uid", "A Unix user who is an admin (keys, every job); repeatable, replaces [auth] admin_uids",
      [](Config& c, const std::vector<uid_t>& v) { c.auth.admin_uids = v; }, (std::vector<uid_t>*)nullptr);
  add("--admin-name", "A client certificate's name that is an admin; repeatable, replaces [auth] admin_names",
      [](Config& c, const std::vector<S>& v) { c.auth.admin_names = v; }, (std::vector<S>*)nullptr);
  {
    auto v = value<std::vector<S>>();
    CLI::Option* opt = app_.add_option("--key", *v, "A key to load, ID=PATH or PATH (id: the file's stem); "
                                                    "repeatable, added to [[keys]]");
    apply_.push_back([opt, v](Config& c) {
      if (!opt->count()) return;
      for (const auto& s : *v) {
        const auto eq = s.find('=');
        KeySpec k{eq == S::npos ? "" : s.substr(0, eq), eq == S::npos ? s : s.substr(eq + 1)};
        if (k.path.empty()) throw ConfigError("--key " + s + ": no path");
        if (k.id.empty()) k.id = k.path.stem().string();
        for (const auto& other : c.keys)
          if (other.id == k.id) throw ConfigError("--key " + s + ": the id '" + k.id + "' is configured already");
        c.keys.push_back(k);
      }
    });
  }
  add("--key-dir", "Directory under which keys may be loaded by path; repeatable, replaces [key_dirs]",
      [](Config& c, const std::vector<S>& v) { c.service.key_dirs.assign(v.begin(), v.end()); },
      (std::vector<S>*)nullptr);
  add("--witness-dir", "Directory under which wtns_path witnesses may lie; repeatable, replaces [witness_dirs]",
      [](Config& c, const std::vector<S>& v) { c.service.witness_dirs.assign(v.begin(), v.end()); },
      (std::vector<S>*)nullptr);
  add("--metrics", "HTTP host:port of /metrics and /healthz (\"\": none) [metrics]",
      [](Config& c, const S& v) { c.metrics = v; }, (S*)nullptr);
  add("--log-level", "trace, debug, info, warn, error, critical or off [log_level]",
      [](Config& c, const S& v) { c.log_level = v; }, (S*)nullptr);
  add("--max-message-bytes", "Largest request, e.g. 1GiB [max_message_bytes]",
      [](Config& c, const S& v) { c.max_message_bytes = parse_size(v); }, (S*)nullptr);
  add("--max-receive-bytes", "Bytes of requests gRPC may hold at once; 0: max_pending_bytes [max_receive_bytes]",
      [](Config& c, const S& v) { c.max_receive_bytes = parse_size(v); }, (S*)nullptr);
  add("--selfcheck", "Run the arithmetic self-check before serving: true or false [selfcheck]",
      [](Config& c, bool v) { c.selfcheck = v; }, (bool*)nullptr);
  add("--exit-when-gpus-lost",
      "Exit with status 3 once every GPU has faulted and no reset brought one back: true or false "
      "[exit_when_gpus_lost]",
      [](Config& c, bool v) { c.exit_when_gpus_lost = v; }, (bool*)nullptr);
  add("--shutdown-grace", "Seconds RPCs under way get after a drain [shutdown_grace_s]",
      [](Config& c, double v) { c.shutdown_grace_s = v; }, (double*)nullptr)
      ->check(CLI::NonNegativeNumber);

  // [queue]
  add("--queue", "Claim work from this PostgreSQL job queue, postgres://... [queue.url]",
      [](Config& c, const S& v) { c.queue.url = v; }, (S*)nullptr);
  add("--queue-host", "This worker's name in the queue (default hostname:pid) [queue.host]",
      [](Config& c, const S& v) { c.queue.host = v; }, (S*)nullptr);
  add("--queue-lease", "Seconds a claim lasts without renewal [queue.lease_s]",
      [](Config& c, double v) { c.queue.lease_s = v; }, (double*)nullptr);
  add("--queue-in-flight", "Partitions held at once, 0: 2 per proving worker [queue.in_flight]",
      [](Config& c, unsigned v) { c.queue.in_flight = v; }, (unsigned*)nullptr);

  // [service]
  add("--backend", "auto, cpu or cuda [service.backend]",
      [](Config& c, const S& v) { c.service.placement.backend = parse_backend(v); }, (S*)nullptr);
  add("--gpus", "all, or device numbers such as 0,2 [service.gpus]",
      [](Config& c, const S& v) { c.service.placement.gpus = v; }, (S*)nullptr);
  add("--threads", "CPU threads of one CPU proof or a/b/c evaluation, 0: all [service.threads]",
      [](Config& c, unsigned v) { c.service.threads = v; }, (unsigned*)nullptr)
      ->check(CLI::Range(0u, 4096u));
  add("--synthesis-threads", "Threads preparing partitions [service.synthesis_threads]",
      [](Config& c, unsigned v) { c.service.synthesis_threads = v; }, (unsigned*)nullptr)
      ->check(CLI::Range(1u, 1024u));
  add("--cpu-workers", "cpu backend: partitions proved at once [service.cpu_workers]",
      [](Config& c, unsigned v) { c.service.cpu_workers = v; }, (unsigned*)nullptr)
      ->check(CLI::Range(1u, 1024u));
  add("--workers-per-gpu", "cuda backend: workers per GPU [service.workers_per_gpu]",
      [](Config& c, unsigned v) { c.service.workers_per_gpu = v; }, (unsigned*)nullptr)
      ->check(CLI::Range(1u, 64u));
  add("--finalizer-threads", "Threads assembling and verifying proofs [service.finalizer_threads]",
      [](Config& c, unsigned v) { c.service.finalizer_threads = v; }, (unsigned*)nullptr)
      ->check(CLI::Range(1u, 1024u));
  add("--abc", "Where a, b, c are computed: auto, host or gpu [service.abc]",
      [](Config& c, const S& v) { c.service.abc = parse_abc(v); }, (S*)nullptr);
  {
    auto v = std::make_shared<bool>(false);
    CLI::Option* opt = app_.add_flag("--pageable", *v, "Heap buffers instead of pinned ones (cuda) [service.pageable]");
    apply_.push_back([opt, v](Config& c) {
      if (opt->count()) c.service.pageable = *v;
    });
  }
  add("--host-budget", "Bytes of pooled host buffers, e.g. 64GiB; 0: sized from the keys [service.host_budget]",
      [](Config& c, const S& v) { c.service.host_budget = parse_size(v); }, (S*)nullptr);
  add("--gpu-memory", "cuda: device bytes cuzkd may use on each GPU, planned as if the GPU had that much; 0: what "
      "is free [service.gpu_memory]",
      [](Config& c, const S& v) { c.service.placement.gpu_memory = parse_size(v); }, (S*)nullptr);
  add("--key-budget", "cuda: device bytes per GPU for resident keys; 0: 70% of free [service.key_budget]",
      [](Config& c, const S& v) { c.service.key_budget = parse_size(v); }, (S*)nullptr);
  add("--max-key-bytes", "Host bytes of loaded keys together, e.g. 64GiB; 0: no limit [service.max_key_bytes]",
      [](Config& c, const S& v) { c.service.max_key_bytes = parse_size(v); }, (S*)nullptr);
  add("--key-storage", "copy (safe against the file changing) or map [service.key_storage]",
      [](Config& c, const S& v) { c.service.key_storage = parse_key_storage(v); }, (S*)nullptr);
  add("--max-pending-partitions", "Admission bound: partitions queued or running [service.max_pending_partitions]",
      [](Config& c, size_t v) { c.service.max_pending_partitions = v; }, (size_t*)nullptr);
  add("--max-unawaited-jobs", "Finished jobs kept for Await; beyond it the oldest go [service.max_unawaited_jobs]",
      [](Config& c, size_t v) { c.service.max_unawaited_jobs = v; }, (size_t*)nullptr);
  add("--gpu-recovery-interval",
      "Seconds after a GPU fault before it is reset and self-checked; 0: never [service.gpu_recovery_interval]",
      [](Config& c, double v) { c.service.gpu_recovery_interval = std::chrono::milliseconds(std::llround(v * 1e3)); },
      (double*)nullptr)
      ->check(CLI::Range(0.0, 86400.0));
  add("--max-pending-bytes", "Admission bound: witness bytes held; 0: a quarter of memory [service.max_pending_bytes]",
      [](Config& c, const S& v) { c.service.max_pending_bytes = parse_size(v); }, (S*)nullptr);
  {
    auto v = std::make_shared<bool>(false);
    CLI::Option* opt =
        app_.add_flag("--timing", *v, "CUZK_TIMING lines on stderr for every span [service.record_timing_lines]");
    apply_.push_back([opt, v](Config& c) {
      if (opt->count()) c.service.record_timing_lines = *v;
    });
  }
}

std::optional<int> Flags::parse(int argc, char** argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app_.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app_.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return std::nullopt;
}

Config Flags::load() const {
  Config c = config_file.empty() ? Config{} : parse_config_file(config_file);
  for (const auto& apply : apply_) {
    try {
      apply(c);
    } catch (const ConfigError&) {
      throw;
    } catch (const std::exception& e) {
      throw ConfigError(e.what());
    }
  }
  return c;
}

}  // namespace cuzk::daemon
