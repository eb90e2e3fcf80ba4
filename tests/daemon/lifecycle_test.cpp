// cuzkd's life: configuration errors refused at start (exit 2, one line),
// the example configuration valid, SIGTERM draining work in flight, SIGHUP
// reloading the key list, a key file replaced under the running daemon, the
// socket file's lifecycle, TCP on loopback.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <random>
#include <regex>
#include <thread>

#include "config.hpp"
#include "daemon_support.hpp"
#include "unix_socket.hpp"

namespace cuzk::test {
namespace {

class Lifecycle : public ::testing::Test {
 protected:
  TempDir dir;

  // cuzkd run to completion with `args`.
  ProcessResult cuzkd(std::vector<std::string> args) {
    args.insert(args.begin(), cuzkd_binary());
    ProcessResult r = run_process(args, std::chrono::seconds(60));
    EXPECT_TRUE(r.exited()) << describe(args, r);
    return r;
  }
  fs::path write_config(const std::string& name, const std::string& text) {
    const fs::path p = dir / name;
    write_bytes(p, Bytes(text.begin(), text.end()));
    return p;
  }
};

// One "error: ..." line, exit status 2, containing `expect`.
void expect_config_error(const ProcessResult& r, const std::string& expect) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(expect), std::string::npos) << "expected \"" << expect << "\" in: " << r.err;
}

// What a [queue] table's error says: the queue's own check where cuzkd has
// the job queue, else that it has none (a build without libpq).
std::string queue_error(const std::string& with_queue) {
#if defined(CUZK_HAVE_QUEUE)
  return with_queue;
#else
  (void)with_queue;
  return "queue.url: this cuzkd was built without the job queue";
#endif
}

TEST_F(Lifecycle, BadConfigurationsExitTwoWithOneLine) {
  const std::string sock = "unix://" + (dir / "s.sock").string();
  struct Case {
    std::string name, toml;
    std::vector<std::string> flags;
    std::string expect;
  };
  const std::vector<Case> cases{
      {"unknown key", "colour = \"blue\"\n", {}, ":1: colour: unknown key"},
      {"unknown key in a table", "[service]\nbackend = \"cpu\"\nthreds = 2\n", {}, ":3: service.threds: unknown key"},
      {"wrong type", "[service]\nthreads = \"many\"\n", {}, "service.threads: expected an integer"},
      {"syntax", "listen = \n", {}, ":1:"},
      {"missing key file", key_entry("k", dir / "missing.zkey"), {}, "missing.zkey: no such file"},
      {"bad listen", "", {"--listen", "tcp://0.0.0.0:1"}, "is not unix:///path"},
      {"socket path too long", "", {"--listen", "unix://" + (dir / std::string(108, 's')).string()},
       "the socket path is longer than 107 bytes"},
      {"bad tcp address", "[tcp]\naddress = \"nohost\"\n", {}, "is not host:port"},
      {"public tcp without tls", "[tcp]\naddress = \"0.0.0.0:50051\"\n", {}, "needs TLS"},
      // before: it served clients without certificates, which cannot be told apart
      {"public tls without client certificates",
       "[tcp]\naddress = \"0.0.0.0:50051\"\ntls_cert = \"c.pem\"\ntls_key = \"k.pem\"\n", {},
       "tcp.address: 0.0.0.0:50051 is not a loopback address, so clients need certificates (tcp.tls_client_ca)"},
      {"unknown auth key", "[auth]\nadmins = [1]\n", {}, ":2: auth.admins: unknown key"},
      {"bad admin uid", "[auth]\nadmin_uids = [-1]\n", {}, "auth.admin_uids: expected an array of user ids"},
      {"bad size", "[service]\nhost_budget = \"lots\"\n", {}, "is not a size"},
      {"bad backend flag", "", {"--backend", "fpga"}, "--backend: 'fpga' is not a backend"},
      {"bad log level", "log_level = \"loud\"\n", {}, "log_level"},
      {"receive bound below two requests", "max_message_bytes = \"64MiB\"\nmax_receive_bytes = \"100MiB\"\n", {},
       "max_receive_bytes: must be 0 or at least twice max_message_bytes (134217728)"},
      {"unknown flag", "", {"--frobnicate"}, "frobnicate"},
      {"unknown queue key", "[queue]\nurll = \"x\"\n", {}, ":2: queue.urll: unknown key"},
      {"queue lease", "[queue]\nurl = \"host=/nowhere\"\nlease_s = 0\n", {},
       queue_error("queue.lease_s: must be from 1 to 86400")},
      // before: it started, and its workers refused every file:// witness they claimed
      {"queue without witness_dirs", "[queue]\nurl = \"host=/nowhere\"\n", {},
       queue_error("a queue worker needs witness_dirs")},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> args{"--config", write_config("bad.toml", c.toml), "--metrics", ""};
    if (std::find(c.flags.begin(), c.flags.end(), "--listen") == c.flags.end()) args.insert(args.end(), {"--listen", sock});
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    expect_config_error(cuzkd(args), c.expect);
  }
  // A missing configuration file.
  expect_config_error(cuzkd({"--config", (dir / "none.toml").string()}), "none.toml");
  // --check accepts a good one and starts nothing.
  std::vector<std::string> args{"--config", write_config("good.toml", key_entry("k", fixture("bn128", "linear", "circuit.zkey"))),
                                "--check", "--listen", sock, "--metrics", ""};
  const auto r = cuzkd(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "ok\n");
  EXPECT_FALSE(fs::exists(dir / "s.sock"));
}

// A TCP listener on a free loopback port, held while the object lives.
class TakenPort {
 public:
  TakenPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 1) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("cannot take a loopback port");
    address_ = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  }
  ~TakenPort() { ::close(fd_); }
  TakenPort(const TakenPort&) = delete;
  TakenPort& operator=(const TakenPort&) = delete;
  const std::string& address() const { return address_; }

 private:
  int fd_ = -1;
  std::string address_;
};

// cuzkd --check refuses what the start would, each with one line and exit
// status 2 (before: --check said "ok" to each, and the start then failed,
// for the metrics port after the self-check and with "null context when
// constructing CivetServer").
TEST_F(Lifecycle, CheckFindsWhatStartWouldRefuse) {
  const std::string sock = "unix://" + (dir / "s.sock").string();
  const auto check = [&](std::vector<std::string> args) {
    for (const auto& [flag, value] : {std::pair<std::string, std::string>{"--listen", sock}, {"--metrics", ""}})
      if (std::find(args.begin(), args.end(), flag) == args.end()) args.insert(args.end(), {flag, value});
    args.push_back("--check");
    return cuzkd(args);
  };
  // A socket folder that does not exist.
  expect_config_error(check({"--listen", "unix://" + (dir / "none" / "s.sock").string()}),
                      "listen: " + (dir / "none").string() + ": no such directory");

  // A live cuzkd on the socket (a stale file, by contrast, is replaced: AStaleSocketIsReplacedAndALiveOneRefused).
  {
    TempDir live_dir;
    Daemon live(live_dir.path(), "");
    expect_config_error(check({"--listen", "unix://" + live.socket().string()}), "another process serves on this socket");
  }
  // Something other than a socket at its path.
  write_bytes(dir / "file.sock", Bytes{'x'});
  expect_config_error(check({"--listen", "unix://" + (dir / "file.sock").string()}), "exists and is not a socket");

  // The metrics port in use: found by --check, and by the start before anything else.
  const TakenPort taken;
  const std::string in_use = "metrics: " + taken.address() + " is in use";
  expect_config_error(check({"--metrics", taken.address()}), in_use);
  const ProcessResult started = cuzkd({"--listen", sock, "--metrics", taken.address(), "--backend", "cpu"});
  expect_config_error(started, in_use);
  EXPECT_NE(started.err.find("--metrics"), std::string::npos) << started.err;
  EXPECT_FALSE(fs::exists(dir / "s.sock"));
  // The TCP port in use.
  expect_config_error(check({"--tcp", taken.address()}), "tcp.address: " + taken.address() + " is in use");
}

// A folder cuzkd may not write to, and a key file it may not read: run as
// another user where the test is root (whom permissions do not stop).
TEST_F(Lifecycle, CheckFindsFoldersAndKeysThisUserCannotUse) {
  std::vector<std::string> as_user;
  if (::geteuid() == 0) {
    as_user = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
  }
  const auto check = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {cuzkd_binary(), "--check", "--metrics", ""});
    args.insert(args.begin(), as_user.begin(), as_user.end());
    ProcessResult r = run_process(args, std::chrono::seconds(60));
    EXPECT_TRUE(r.exited()) << describe(args, r);
    return r;
  };
  const fs::path closed = dir / "closed";
  fs::create_directory(closed);
  fs::permissions(closed, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  expect_config_error(check({"--listen", "unix://" + (closed / "s.sock").string()}),
                      "listen: " + closed.string() + ": cannot make the socket there: Permission denied");

  const fs::path open = dir / "open";
  fs::create_directory(open);
  fs::permissions(open, fs::perms::all);
  const fs::path key = dir / "secret.zkey";
  fs::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), key);
  fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write);
  expect_config_error(check({"--listen", "unix://" + (open / "s.sock").string(), "--key", "k=" + key.string()}),
                      "key 'k': " + key.string() + ": cannot read it: Permission denied");
  fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
  const ProcessResult ok = check({"--listen", "unix://" + (open / "s.sock").string(), "--key", "k=" + key.string()});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// Every counter of a fixed set is exported at 0 from start, and a loaded
// key's before its first proof (before: cuzk_proofs_total and the latency
// histogram appeared only once a partition had finished).
TEST_F(Lifecycle, MetricsExportTheirCountersAtZeroFromStart) {
  Daemon d(dir.path(), key_entry("k", fixture("bn128", "multiplier", "circuit.zkey")));
  const std::string body = http_get(d.metrics_port(), "/metrics").body;
  for (const char* line : {"cuzk_proofs_total{curve=\"bn128\",key=\"k\"} 0",
                           "cuzk_partition_failures_total{key=\"k\",reason=\"unsatisfied\"} 0",
                           "cuzk_partition_seconds_count{stage=\"total\"} 0",
                           "cuzk_stage_seconds_total{gpu=\"cpu\",stage=\"synthesis\"} 0",
                           "cuzk_jobs_submitted_total 0"})
    EXPECT_NE(body.find(std::string("\n") + line + "\n"), std::string::npos) << line << " not in:\n" << body;
}

// The "ready:" line of a daemon with no key has no empty part (before: it
// ended in "; ; descriptors", where the engines made would be named).
TEST_F(Lifecycle, TheReadyLineHasNoEmptyPart) {
  Daemon d(dir.path(), "");
  const std::string log = d.log();
  const auto at = log.find(" ready: ");
  ASSERT_NE(at, std::string::npos) << log;
  const std::string line = log.substr(at, log.find('\n', at) - at);
  EXPECT_EQ(line.find("; ;"), std::string::npos) << line;
  EXPECT_NE(line.find("/metrics, status page on http://127.0.0.1:"), std::string::npos) << line;
  EXPECT_NE(line.find("/; descriptors: limit "), std::string::npos) << line;
}

TEST_F(Lifecycle, TheExampleConfigurationParsesAndStatesTheDefaults) {
  const fs::path example = fs::path(CUZK_SOURCE_DIR) / "packaging" / "cuzkd.toml";
  const daemon::Config c = daemon::parse_config_file(example);
  const daemon::Config d;
  EXPECT_EQ(c.listen, d.listen);
  EXPECT_EQ(c.socket_mode, d.socket_mode);
  EXPECT_EQ(c.metrics, d.metrics);
  EXPECT_EQ(c.log_level, d.log_level);
  EXPECT_EQ(c.max_message_bytes, d.max_message_bytes);
  EXPECT_EQ(c.max_receive_bytes, d.max_receive_bytes);
  EXPECT_EQ(c.shutdown_grace_s, d.shutdown_grace_s);
  EXPECT_EQ(c.tcp.address, d.tcp.address);
  EXPECT_TRUE(c.keys.empty());
  const auto &s = c.service, &t = d.service;
  EXPECT_EQ(s.placement.backend, t.placement.backend);
  EXPECT_EQ(s.placement.gpus, t.placement.gpus);
  EXPECT_EQ(s.threads, t.threads);
  EXPECT_EQ(s.synthesis_threads, t.synthesis_threads);
  EXPECT_EQ(s.cpu_workers, t.cpu_workers);
  EXPECT_EQ(s.workers_per_gpu, t.workers_per_gpu);
  EXPECT_EQ(s.finalizer_threads, t.finalizer_threads);
  EXPECT_EQ(s.abc, t.abc);
  EXPECT_EQ(s.pageable, t.pageable);
  EXPECT_EQ(s.host_budget, t.host_budget);
  EXPECT_EQ(s.key_budget, t.key_budget);
  EXPECT_EQ(s.key_storage, t.key_storage);
  EXPECT_EQ(s.max_pending_partitions, t.max_pending_partitions);
  EXPECT_EQ(s.max_pending_bytes, t.max_pending_bytes);
  EXPECT_EQ(s.record_timing_lines, t.record_timing_lines);
  EXPECT_EQ(s.max_unawaited_jobs, t.max_unawaited_jobs);
  EXPECT_EQ(s.max_keys, t.max_keys);
  EXPECT_EQ(s.max_key_bytes, t.max_key_bytes);
  EXPECT_EQ(c.selfcheck, d.selfcheck);
  EXPECT_EQ(c.exit_when_gpus_lost, d.exit_when_gpus_lost);
  EXPECT_EQ(c.queue.url, d.queue.url);
  EXPECT_EQ(c.queue.host, d.queue.host);
  EXPECT_EQ(c.queue.lease_s, d.queue.lease_s);
  EXPECT_EQ(c.queue.in_flight, d.queue.in_flight);
  EXPECT_EQ(c.queue.max_attempts, d.queue.max_attempts);
  EXPECT_EQ(c.queue.migrate, d.queue.migrate);
  EXPECT_EQ(s.witness_dirs, t.witness_dirs);
  EXPECT_EQ(s.key_dirs, t.key_dirs);
  EXPECT_EQ(s.gpu_recovery_interval, t.gpu_recovery_interval);
  // And the daemon accepts it, with the socket moved somewhere writable and
  // the metrics to a free port: the default, 9464, may be another test's
  // cuzkd's (readme_snippets runs one beside this under ctest -j).
  const auto r = cuzkd({"--config", example.string(), "--listen", "unix://" + (dir / "s.sock").string(), "--metrics",
                        "127.0.0.1:0", "--check"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(Lifecycle, ConfigurationValuesAndFlagsOverrideTheFile) {
  const daemon::Config c = daemon::parse_config_text(
      "socket_mode = 0o600\nmax_message_bytes = \"64MiB\"\nwitness_dirs = [\"/a\", \"/b\"]\n"
      "[[keys]]\npath = \"/k/porep.zkey\"\n[[keys]]\nid = \"x\"\npath = \"/k/y.zkey\"\n"
      "[tcp]\naddress = \"127.0.0.1:5\"\n"
      "[service]\nbackend = \"cpu\"\nhost_budget = \"1.5GiB\"\nkey_storage = \"map\"\nabc = \"host\"\n"
      "max_pending_partitions = 7\n",
      "t.toml");
  EXPECT_EQ(c.socket_mode, 0600u);
  EXPECT_EQ(c.max_message_bytes, size_t(64) << 20);
  EXPECT_EQ(c.service.witness_dirs, (std::vector<fs::path>{"/a", "/b"}));
  ASSERT_EQ(c.keys.size(), 2u);
  EXPECT_EQ(c.keys[0], (daemon::KeySpec{"porep", "/k/porep.zkey"}));
  EXPECT_EQ(c.keys[1], (daemon::KeySpec{"x", "/k/y.zkey"}));
  EXPECT_EQ(c.tcp.address, "127.0.0.1:5");
  EXPECT_EQ(c.service.placement.backend, service::BackendKind::cpu);
  EXPECT_EQ(c.service.host_budget, size_t(1536) << 20);
  EXPECT_EQ(c.service.key_storage, service::KeyStorage::map);
  EXPECT_EQ(c.service.abc, service::AbcPlace::host);
  EXPECT_EQ(c.service.max_pending_partitions, 7u);
  EXPECT_THROW(daemon::parse_config_text("[[keys]]\nid = \"a\"\npath = \"/a\"\n[[keys]]\nid = \"a\"\npath = \"/b\"\n", "t"),
               daemon::ConfigError);
  EXPECT_TRUE(daemon::is_loopback("127.0.0.1:1"));
  EXPECT_TRUE(daemon::is_loopback("[::1]:1"));
  EXPECT_TRUE(daemon::is_loopback("localhost:1"));
  EXPECT_FALSE(daemon::is_loopback("0.0.0.0:1"));
  EXPECT_FALSE(daemon::is_loopback("10.0.0.1:1"));

  // A flag wins over the file: the file says 0600, the flag 0640.
  Daemon d(dir.path(), "socket_mode = \"0600\"\n", {"--socket-mode", "0640"});
  struct stat st{};
  ASSERT_EQ(::stat(d.socket().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

// SIGTERM while a job runs: its Await (already waiting) gets every proof,
// a new Submit is refused as UNAVAILABLE, /healthz turns 503, and the process
// exits 0 once the job is done, removing its socket.
TEST_F(Lifecycle, SigtermDrainsTheJobInFlightThenExitsZero) {
  Daemon d(dir.path(), key_entry("mult", fixture("bls12381", "multiplier", "circuit.zkey")));
  constexpr int kPartitions = 150;
  v1::SubmitReply submitted;
  ASSERT_TRUE(d.stub().Submit(context().get(), request("mult", "bls12381", "multiplier", kPartitions), &submitted).ok());
  auto awaited = std::async(std::launch::async, [&] {
    v1::AwaitRequest await;
    await.set_job_id(submitted.job_id());
    v1::JobResult result;
    const auto status = d.stub().Await(context().get(), await, &result);
    return std::make_pair(status, result);
  });
  // The Await is under way once the daemon logged it.
  ASSERT_TRUE(d.wait_for_log("Await from", 30s)) << d.log();
  d.signal(SIGTERM);
  ASSERT_TRUE(eventually([&] { return http_get(d.metrics_port(), "/healthz").status == 503; }, 30s)) << d.log();
  v1::SubmitReply refused;
  const auto late = d.stub().Submit(context().get(), request("mult", "bls12381", "multiplier", 1), &refused);
  EXPECT_EQ(late.error_code(), grpc::StatusCode::UNAVAILABLE) << late.error_message();

  const auto [status, result] = awaited.get();
  ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << d.log();
  ASSERT_EQ(result.partitions_size(), kPartitions);
  for (const auto& p : result.partitions()) ASSERT_TRUE(p.ok()) << p.error();
  expect_valid_proof(result.partitions(kPartitions - 1), "bls12381", "multiplier");
  EXPECT_EQ(d.wait_exit(60s), 0) << d.log();
  EXPECT_NE(d.log().find("drained"), std::string::npos) << d.log();
  EXPECT_FALSE(fs::exists(d.socket()));
}

// A job submitted before SIGTERM and awaited only after the drain: its
// results wait for the grace period, and once collected the process exits
// at once rather than at the period's end.
TEST_F(Lifecycle, ResultsOfADrainedJobCanStillBeAwaited) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")), {"--shutdown-grace", "60"});
  v1::SubmitReply submitted;
  ASSERT_TRUE(d.stub().Submit(context().get(), request("mult", "bn128", "multiplier", 20), &submitted).ok());
  d.signal(SIGTERM);
  ASSERT_TRUE(d.wait_for_log("drained; 1 finished jobs not yet awaited", 60s)) << d.log();
  v1::AwaitRequest await;
  await.set_job_id(submitted.job_id());
  v1::JobResult result;
  const auto status = d.stub().Await(context().get(), await, &result);
  ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << d.log();
  ASSERT_EQ(result.partitions_size(), 20);
  for (const auto& p : result.partitions()) expect_valid_proof(p, "bn128", "multiplier");
  EXPECT_EQ(d.wait_exit(30s), 0) << d.log();
  EXPECT_NE(d.log().find("(0 jobs never awaited)"), std::string::npos) << d.log();
}

TEST_F(Lifecycle, SighupLoadsNewKeysAndEvictsRemovedOnes) {
  // Preload by path needs a key directory: cuzkd reads no client's path without one.
  Daemon d(dir.path(), key_entry("a", fixture("bn128", "multiplier", "circuit.zkey")),
           {"--key-dir", fs::path(fixture("bn128", "linear", "circuit.zkey")).parent_path().string()});
  const auto key_ids = [&] {
    v1::ListKeysReply keys;
    EXPECT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
    std::vector<std::string> ids;
    for (const auto& k : keys.keys()) ids.push_back(k.id());
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  ASSERT_EQ(key_ids(), std::vector<std::string>{"a"});
  // A key loaded through Preload is not the configuration's to evict.
  v1::PreloadRequest preload;
  preload.set_path(fixture("bn128", "linear", "circuit.zkey"));
  preload.set_id("p");
  v1::KeyInfo info;
  ASSERT_TRUE(d.stub().Preload(context().get(), preload, &info).ok());

  write_bytes(d.config(), [&] {
    const std::string t = key_entry("b", fixture("bls12381", "multiplier", "circuit.zkey"));
    return Bytes(t.begin(), t.end());
  }());
  d.signal(SIGHUP);
  ASSERT_TRUE(eventually([&] { return key_ids() == std::vector<std::string>{"b", "p"}; }, 30s)) << d.log();
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("b", "bls12381", "multiplier", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bls12381", "multiplier");

  // A configuration that no longer parses changes nothing, and the daemon
  // stays up.
  write_bytes(d.config(), Bytes{'x', '=', '\n'});
  d.signal(SIGHUP);
  ASSERT_TRUE(d.wait_for_log("keys unchanged", 30s)) << d.log();
  EXPECT_EQ(key_ids(), (std::vector<std::string>{"b", "p"}));
}

// Keys are held in memory the daemon owns (key_storage = copy): truncating
// the file and writing other bytes into it does not disturb proving; a
// SIGHUP that then finds the file unreadable keeps the key it has.
TEST_F(Lifecycle, AKeyFileReplacedUnderTheDaemonDoesNotDisturbIt) {
  const fs::path key = dir / "key.zkey";
  fs::copy_file(fixture("bn128", "multiplier", "circuit.zkey"), key);
  Daemon d(dir.path(), key_entry("k", key));
  v1::JobResult result;
  ASSERT_TRUE(d.stub().Prove(context().get(), request("k", "bn128", "multiplier", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");

  const auto size = fs::file_size(key);
  fs::resize_file(key, 0);
  std::mt19937_64 rng(3);
  Bytes other(size / 3);
  for (auto& x : other) x = uint8_t(rng());
  write_bytes(key, other);

  ASSERT_TRUE(d.stub().Prove(context().get(), request("k", "bn128", "multiplier", 2), &result).ok());
  for (const auto& p : result.partitions()) expect_valid_proof(p, "bn128", "multiplier");

  d.signal(SIGHUP);
  ASSERT_TRUE(d.wait_for_log("reload done", 30s)) << d.log();
  EXPECT_NE(d.log().find("reload: key k:"), std::string::npos) << d.log();
  ASSERT_TRUE(d.stub().Prove(context().get(), request("k", "bn128", "multiplier", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");
}

TEST_F(Lifecycle, AStaleSocketIsReplacedAndALiveOneRefused) {
  // A socket file no process serves, as a daemon killed with SIGKILL leaves.
  const fs::path sock = dir / "cuzkd.sock";
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un addr = unix_address(sock);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    ::close(fd);
  }
  ASSERT_TRUE(fs::exists(sock));
  Daemon d(dir.path(), "");
  v1::ListKeysReply keys;
  EXPECT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
  // A second daemon on the same socket refuses to start.
  expect_config_error(cuzkd({"--listen", "unix://" + sock.string(), "--metrics", "", "--backend", "cpu"}),
                      "another process serves on this socket");
  EXPECT_TRUE(d.stub().ListKeys(context().get(), {}, &keys).ok());
}

TEST_F(Lifecycle, TcpOnLoopbackServesWithoutTls) {
  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")),
           {"--tcp", "127.0.0.1:0", "--listen", ""});
  std::smatch m;
  const std::string log = d.log();
  ASSERT_TRUE(std::regex_search(log, m, std::regex("ready: 127\\.0\\.0\\.1:([0-9]+)"))) << log;
  auto stub = v1::Prover::NewStub(grpc::CreateChannel("127.0.0.1:" + m[1].str(), grpc::InsecureChannelCredentials()));
  v1::JobResult result;
  ASSERT_TRUE(stub->Prove(context().get(), request("mult", "bn128", "multiplier", 1), &result).ok());
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");
  EXPECT_FALSE(fs::exists(d.socket()));
}

// TLS from configured files: a client that trusts the certificate proves, a
// plaintext one is refused; with TLS and clients without certificates
// allowed explicitly, a public address passes the check.
TEST_F(Lifecycle, TcpWithTlsServesClientsThatTrustTheCertificate) {
  const fs::path cert = dir / "server.crt", key = dir / "server.key";
  const ProcessResult made = run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                          "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                                          "-keyout", key.string(), "-out", cert.string()},
                                         std::chrono::seconds(60));
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto r = cuzkd({"--listen", "", "--metrics", "", "--tcp", "0.0.0.0:50051", "--tls-cert", cert.string(),
                        "--tls-key", key.string(), "--allow-anonymous-clients", "--check"});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  Daemon d(dir.path(), key_entry("mult", fixture("bn128", "multiplier", "circuit.zkey")),
           {"--listen", "", "--tcp", "127.0.0.1:0", "--tls-cert", cert.string(), "--tls-key", key.string()});
  std::smatch m;
  const std::string log = d.log();
  ASSERT_TRUE(std::regex_search(log, m, std::regex("ready: 127\\.0\\.0\\.1:([0-9]+) \\(TLS\\)"))) << log;
  const std::string port = m[1].str();
  grpc::SslCredentialsOptions trust;
  const Bytes pem = read_bytes(cert);
  trust.pem_root_certs.assign(pem.begin(), pem.end());
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  auto tls = v1::Prover::NewStub(grpc::CreateCustomChannel("127.0.0.1:" + port, grpc::SslCredentials(trust), args));
  v1::JobResult result;
  const auto status = tls->Prove(context().get(), request("mult", "bn128", "multiplier", 1), &result);
  ASSERT_TRUE(status.ok()) << status.error_message();
  expect_valid_proof(result.partitions(0), "bn128", "multiplier");

  auto plain = v1::Prover::NewStub(grpc::CreateChannel("127.0.0.1:" + port, grpc::InsecureChannelCredentials()));
  v1::ListKeysReply keys;
  EXPECT_FALSE(plain->ListKeys(context(5s).get(), {}, &keys).ok());
}

}  // namespace
}  // namespace cuzk::test
