// cuzkd: the proving service over gRPC. Start-up checks everything it can
// before serving (a bad configuration, a missing key file, an address it
// cannot listen on: one "error: ..." line and exit 2); then it serves until
// SIGTERM or SIGINT, which drain (stop admitting, finish the jobs admitted,
// give their results the grace period to be awaited, then close the server)
// and exit 0. SIGHUP re-reads the configuration's key list.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "config.hpp"
#include "configured_keys.hpp"
#include "cuzk/service/environment.hpp"
#include "cuzk/service/example_circuits.hpp"
#include "cuzk/service/selfcheck.hpp"
#include "cuzk/util/stoppable_sleep.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif
#include "flags.hpp"
#include "listener.hpp"
#include "metrics.hpp"
#include "server.hpp"
#include "signals.hpp"
#include "status_page.hpp"
#include "watchdog.hpp"
#if defined(CUZK_HAVE_QUEUE)
#include "fleet_status.hpp"
#include "queue_service.hpp"
#include "queue_worker.hpp"
#endif

namespace {

using namespace cuzk::daemon;

int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

void set_up_logging(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("cuzkd");
  logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::flush_on(spdlog::level::trace);
}

std::string where(const Config& config, const Listener& l, const Metrics* metrics) {
  std::string s;
  if (!config.listen.empty()) s += config.listen;
  if (!config.tcp.address.empty()) {
    const auto colon = config.tcp.address.rfind(':');
    s += (s.empty() ? "" : " and ") + config.tcp.address.substr(0, colon) + ":" + std::to_string(l.tcp_port) +
         (config.tcp.tls() ? " (TLS)" : "");
  }
  if (metrics) {
    const auto colon = config.metrics.rfind(':');
    const std::string http = "http://" + config.metrics.substr(0, colon) + ":" + std::to_string(metrics->port());
    s += ", metrics on " + http + "/metrics, status page on " + http + "/";
  }
  return s;
}

// What the "ready:" line says: where it serves; the engines, which exist
// once a key of their curve is loaded (none before); the descriptor limits.
std::string ready_line(const Config& config, const Listener& l, const Metrics& metrics,
                       const cuzk::service::Service& service) {
  std::string line = where(config, l, config.metrics.empty() ? nullptr : &metrics);
  if (const std::string engines = service.describe(); !engines.empty()) line += "; " + engines;
  return line + "; descriptors: limit " + std::to_string(l.descriptors.limit) + ", connections refused from " +
         std::to_string(l.descriptors.connections);
}

// A machine that computes wrongly must not prove: the arithmetic self-check
// (host; and the GPU against the host on the cuda backend) runs before
// serving, on inputs from a fresh seed that the log records for a replay
// (cuzk selfcheck --seed).
void self_check(const cuzk::service::Service& service) {
  const uint64_t seed = cuzk::service::fresh_seed();
  size_t total = 0;
  std::string failed;
  const auto report = [&](const std::string& name, bool ok) {
    ++total;
    if (!ok) failed += (failed.empty() ? "" : ", ") + name;
  };
  cuzk::service::selfcheck_host(seed, report);
#if defined(CUZK_HAVE_CUDA)
  if (service.placement().backend == cuzk::service::BackendKind::cuda)
    for (int d : service.placement().gpus) {
      cuzk::cuda::DeviceScope on(d);
      cuzk::service::selfcheck_device(seed, size_t(1) << 16, [&](const std::string& name, bool ok) {
        report("GPU " + std::to_string(d) + " " + name, ok);
      });
    }
#else
  (void)service;
#endif
  if (!failed.empty()) throw std::runtime_error("self-check failed (seed " + std::to_string(seed) + "): " + failed);
  spdlog::info("self-check passed: {} checks (seed {})", total, seed);
}

// Exit status for a restart by the service manager: every GPU was lost
// (Config::exit_when_gpus_lost), or gRPC stopped answering (watchdog.hpp).
constexpr int kExitRestart = 3;

// Once every GPU is out of rotation and none came back from a reset (or
// resets are off), the process itself is what has to go: a fault such as an
// illegal address can leave a GPU unusable to it until it exits. Sets
// `lost` and sends this process SIGTERM, so that the main loop drains and
// exits with kExitRestart for the service manager to start it again.
void watch_gpus(const cuzk::service::Service& service, std::stop_token stop, std::atomic<bool>& lost) {
  const bool resets = service.options().gpu_recovery_interval.count() > 0;
  while (cuzk::sleep_unless_stopped(stop, std::chrono::seconds(1))) {
    const auto s = service.status();
    const bool all_lost = !s.gpus.empty() && std::all_of(s.gpus.begin(), s.gpus.end(), [&](const auto& g) {
      return !g.healthy && (!resets || !g.recovery_error.empty());
    });
    if (!all_lost) continue;
    for (const auto& g : s.gpus)
      spdlog::error("GPU {} is out of rotation: {}{}", g.device, g.fault,
                    g.recovery_error.empty() ? "" : "; the reset did not bring it back: " + g.recovery_error);
    spdlog::error("every GPU has faulted: draining, then exiting with status {} for a restart", kExitRestart);
    lost = true;
    ::kill(::getpid(), SIGTERM);
    return;
  }
}

// The listeners the watchdog probes: the Unix socket, and the TCP listener
// (a handshake where it has TLS).
std::vector<ProbeTarget> own_targets(const Config& config, const Listener& l) {
  std::vector<ProbeTarget> targets;
  if (const auto sock = unix_socket_path(config.listen); !sock.empty()) targets.push_back({"unix:" + sock.string()});
  if (!config.tcp.address.empty())
    targets.push_back({config.tcp.address.substr(0, config.tcp.address.rfind(':')) + ":" + std::to_string(l.tcp_port),
                       config.tcp.tls()});
  return targets;
}

// SIGHUP: the key list of the configuration read again (with the flags
// applied again); a configuration that no longer parses changes nothing.
void reload(const Flags& flags, ConfiguredKeys& keys) {
  spdlog::info("SIGHUP: reloading the key list");
  try {
    const Config fresh = flags.load();
    const size_t failed = keys.reload(fresh.keys);
    spdlog::info("reload done: {} configured keys, {} failed", fresh.keys.size(), failed);
  } catch (const std::exception& e) {
    spdlog::error("reload: {}; keys unchanged", e.what());
  }
}

int serve(const Config& config, const Flags& flags) {
  std::unique_ptr<cuzk::service::Service> service;
  try {
    prepare_socket(config);
    cuzk::service::ServiceOptions options = config.service;
    // Preload answers a key that is loaded already, configured ones included.
    options.hash_loaded_keys = true;
    // Its metrics are made of the recorder's totals; only the status page
    // reads spans, a few thousand of the latest (the default ring held up to
    // 48 MiB in a long-running worker).
    options.spans_kept = config.metrics.empty() ? 0 : StatusPage::kSpansKept;
    if (config.native_circuits) options.native_circuits = cuzk::service::example_circuits();
    // Test-only: partitions named "fault:..." fail as the tests ask (service.hpp).
    const char* faults = std::getenv("CUZK_TEST_FAULTS");
    options.test_faults = faults && std::string(faults) == "1";
    service = std::make_unique<cuzk::service::Service>(options);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  // Declared after the service so that they go first; the service has no
  // jobs left (drained) by then, so no partition reaches the metrics late.
  // The page before the metrics, whose HTTP threads call it: they stop first.
  std::unique_ptr<StatusPage> page;
  Metrics metrics(*service);
  if (!config.metrics.empty()) {
    page = std::make_unique<StatusPage>(*service);
    page->route(metrics);
  }
  ConfiguredKeys keys(*service);
  UnixPeers peers;
  const Authorizer auth(config, peers);
  ProverService rpc(*service, auth);
  Listener listener;
  std::vector<grpc::Service*> services{&rpc};
  std::atomic<bool> gpus_lost{false}, grpc_lost{false};
  std::unique_ptr<GrpcWatchdog> grpc_watch;
#if defined(CUZK_HAVE_QUEUE)
  std::unique_ptr<QueueWorker> worker;
  std::unique_ptr<QueueService> queue_rpc;
#endif
  try {
    if (config.selfcheck) self_check(*service);
    keys.load_all(config.keys);
#if defined(CUZK_HAVE_QUEUE)
    if (!config.queue.url.empty()) {
      worker = std::make_unique<QueueWorker>(*service, config.queue);
      metrics.watch_queue(&worker->counters(), worker->config().host);
      if (page) page->watch_queue(&worker->counters(), worker->config().host, fleet_source(config.queue.url));
      queue_rpc = std::make_unique<QueueService>(config.queue.url, cuzk::queue::QueueOptions{},
                                                 config.service.key_dirs, auth, worker->config().host);
      services.push_back(queue_rpc.get());
    }
#endif
    if (!config.metrics.empty()) metrics.serve(config.metrics);
    listener = listen(config, services, peers, service->options().max_pending_bytes);
    grpc_watch = std::make_unique<GrpcWatchdog>(
        own_targets(config, listener), [&](bool answering) { metrics.set_grpc_answering(answering); },
        [&] {
          spdlog::error("gRPC no longer answers: draining, then exiting with status {} for a restart", kExitRestart);
          grpc_lost = true;
          ::kill(::getpid(), SIGTERM);
        });
#if defined(CUZK_HAVE_QUEUE)
    if (worker) worker->start();
#endif
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  spdlog::info("cuzkd {} ready: {}", cuzk::service::kVersion, ready_line(config, listener, metrics, *service));

  std::jthread gpu_watch;
  if (config.exit_when_gpus_lost && service->placement().backend == cuzk::service::BackendKind::cuda)
    gpu_watch = std::jthread([&](std::stop_token stop) { watch_gpus(*service, stop, gpus_lost); });
  for (;;) {
    const int sig = wait_signal();
    if (sig == SIGHUP) {
      reload(flags, keys);
      continue;
    }
    const auto s = service->status();
    spdlog::info("{}: draining (no new jobs; the {} partitions admitted finish)",
                 gpus_lost   ? "every GPU lost"
                 : grpc_lost ? "gRPC not answering"
                 : sig == SIGINT ? "SIGINT"
                                 : "SIGTERM",
                 s.queued_partitions + s.running_partitions);
    break;
  }
  gpu_watch = {};
  grpc_watch.reset();
  metrics.set_draining();
#if defined(CUZK_HAVE_QUEUE)
  if (worker) worker->stop();  // no new claims; what has not started goes back to the queue
#endif
  service->drain();
  // Results not yet collected get the grace period to be awaited, and RPCs
  // under way until its end to finish; then the server closes.
  const auto grace = std::chrono::milliseconds(int64_t(config.shutdown_grace_s * 1000));
  const auto until = std::chrono::steady_clock::now() + grace;
  spdlog::info("drained; {} finished jobs not yet awaited", service->status().jobs.size());
  const size_t unawaited = service->wait_until_collected(until);
  spdlog::info("closing the server ({} jobs never awaited)", unawaited);
  listener.unix_socket.reset();
  listener.server->Shutdown(std::chrono::system_clock::now() +
                            std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                std::max(until - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration{})));
  listener.server->Wait();
  std::error_code ignored;
  if (const auto sock = unix_socket_path(config.listen); !sock.empty()) std::filesystem::remove(sock, ignored);
  spdlog::info("stopped");
  return gpus_lost || grpc_lost ? kExitRestart : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (auto status = flags.parse(argc, argv)) return *status;
  Config config;
  try {
    config = flags.load();
    check_config(config);
    check_addresses(config);
    cuzk::service::apply_environment_switches();
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  if (flags.check_only) {
    std::printf("ok\n");
    return 0;
  }
  try {
    set_up_logging(config.log_level);
    block_signals();
    return serve(config, flags);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
