// cuzk client <verb>: one verb per RPC of cuzkd (proto/cuzk/v1/prover.proto),
// and the --daemon hooks of prove and prove-batch (client.hpp).
#include "client.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "client_jobs.hpp"
#include "client_queue.hpp"
#include "client_status.hpp"
#include "cuzk/service/example_circuits.hpp"
#include "cuzk/util/plural.hpp"
#include "cuzk/v1/phase_times.hpp"
#include "output.hpp"
#include "parse_errors.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

using Stub = v1::Prover::Stub;

struct ConnectionFlags {
  std::string daemon, tls_ca;
};

// What the verbs' options are parsed into; it outlives parsing, as CLI11 needs.
struct ClientFlags {
  ConnectionFlags connection;
  bool quiet = false, json = false, bytes = false;
  std::string key, id, out, proof, pub, label;
  std::string witness;             // prove's
  std::vector<std::string> wtns;   // submit's
  // submit's native partitions: `partitions` of `circuit`, seeds seed, seed + 1, ...
  std::string circuit;
  uint64_t constraints = 0, seed = 1;
  unsigned partitions = 1;
  uint64_t job = 0, deadline_ms = 0, timeout_ms = 0;
  int priority = 0;
  // --queue: the fleet's job queue through cuzkd (client_queue.hpp)
  bool queue = false, by_path = false;
  std::string key_path;
};

// --daemon and --tls-ca of prove and prove-batch, and the options there that
// only a local run uses (daemon_for refuses them with a daemon).
struct Delegation {
  ConnectionFlags connection;
  std::vector<const CLI::Option*> local_only;
};

ClientFlags& flags() {
  static ClientFlags f;
  return f;
}

std::map<std::string, Delegation>& delegations() {
  static std::map<std::string, Delegation> d;
  return d;
}

constexpr const char* kAddressHelp =
    "cuzkd's address: unix:///path/cuzkd.sock, a socket path, or host:port (default: $CUZK_DAEMON, else the socket "
    "cuzkd makes by default: yours, then /run/cuzk/cuzkd.sock)";
constexpr const char* kTlsHelp =
    "PEM file of the CA that signed cuzkd's certificate: connect with TLS (default: $CUZK_DAEMON_TLS_CA)";

void add_connection_options(CLI::App* cmd, ConnectionFlags& c) {
  cmd->add_option("--daemon", c.daemon, kAddressHelp);
  cmd->add_option("--tls-ca", c.tls_ca, kTlsHelp);
}

// The verb's connection. It is never closed when the verb succeeds: leave()
// ends the process first, because closing the last channel shuts gRPC down
// and joins its threads, milliseconds that a small request would wait for.
Daemon& connect(const ConnectionFlags& c) {
  static std::optional<Daemon> daemon;
  return daemon.emplace(daemon_address_or_default(c.daemon, c.tls_ca));
}

// Ends a verb that ran to its end, with its exit status: its files are
// written and closed, so only stdio is left to flush; no destructor runs.
[[noreturn]] void leave(int status) {
  std::fflush(nullptr);
  std::_Exit(status);
}

v1::SubmitRequest job_request(const ClientFlags& f, const std::vector<std::string>& witnesses) {
  v1::SubmitRequest request;
  request.set_key_id(f.key);
  for (const std::string& path : witnesses) {
    if (!f.by_path) {
      *request.add_partitions() = wtns_partition(path);
      continue;
    }
    // Read where it lies, by cuzkd (under one of its witness_dirs where those are set).
    v1::Partition* p = request.add_partitions();
    p->set_wtns_path(std::filesystem::absolute(path).lexically_normal().string());
    p->set_name(path);
  }
  request.set_priority(f.priority);
  request.set_deadline_ms(f.deadline_ms);
  request.set_label(f.label);
  return request;
}

void check_partition_count(const v1::JobResult& result, size_t submitted) {
  if ((size_t)result.partitions_size() != submitted)
    throw std::runtime_error("cuzkd answered job " + std::to_string(result.job_id()) + " with " +
                             std::to_string(result.partitions_size()) + " results for " + count(submitted, "partition"));
}

int client_prove(const ClientFlags& f) {
  // An earlier proof goes only once cuzkd has taken the job: a usage error,
  // an unreachable cuzkd or a key id it does not hold leaves it in place,
  // while a partition that failed leaves no output at all.
  check_output(f.proof, FileKind::proof, /*force=*/true);
  check_output(f.pub, FileKind::public_signals, /*force=*/true);
  const v1::SubmitRequest request = job_request(f, {f.witness});
  Daemon& daemon = connect(f.connection);
  Stopwatch clock;
  const v1::JobResult result = daemon.call(&Stub::Prove, request);
  remove_earlier_output(f.proof, FileKind::proof);
  remove_earlier_output(f.pub, FileKind::public_signals);
  check_partition_count(result, 1);
  const v1::PartitionResult& p = result.partitions(0);
  if (!p.ok()) throw_partition_error(p, f.witness);
  write_partition(p, f.proof, f.pub);
  if (!f.quiet)
    std::printf("cuzk client prove: wrote %s and %s (%s proof, verified) with key %s on cuzkd at %s in %.3f s (%s)\n",
                f.proof.c_str(), f.pub.c_str(), curve_name(result.curve()), f.key.c_str(), daemon.address().c_str(),
                clock.total(), stage_line(p.times()).c_str());
  return 0;
}

int client_submit(const ClientFlags& f) {
  if (f.queue) {
    if (!f.circuit.empty()) throw std::invalid_argument("--circuit is cuzkd's own: the queue takes witnesses");
    if (f.wtns.empty()) throw std::invalid_argument("cuzk client submit --queue: give witnesses");
    const uint64_t id = queue_submit(connect(f.connection), {f.key, f.key_path, f.wtns, f.by_path, f.priority,
                                                             f.deadline_ms, f.label});
    std::printf("%llu\n", (unsigned long long)id);
    return 0;
  }
  if (!f.key_path.empty()) throw std::invalid_argument("--key-path goes with --queue");
  if (f.wtns.empty() && f.circuit.empty())
    throw std::invalid_argument("cuzk client submit: give witnesses, or --circuit for native partitions");
  v1::SubmitRequest request = job_request(f, f.wtns);
  if (!f.circuit.empty()) {
    if (f.constraints == 0) throw std::invalid_argument("--circuit needs --constraints, the size of the key");
    for (unsigned p = 0; p < f.partitions; ++p) {
      v1::NativeWitness& native = *request.add_partitions()->mutable_native();
      native.set_circuit(f.circuit);
      native.set_constraints(f.constraints);
      native.set_seed(f.seed + p);
    }
  }
  Daemon& daemon = connect(f.connection);
  const v1::SubmitReply reply = daemon.call(&Stub::Submit, request);
  std::printf("%llu\n", (unsigned long long)reply.job_id());
  return 0;
}

// The files await --out writes for partition i: DIR/partition-<i>.proof.json
// and .public.json, i counted from 0 in the order the witnesses were submitted.
std::pair<std::filesystem::path, std::filesystem::path> await_outputs(const std::string& dir, int i) {
  const std::filesystem::path base = std::filesystem::path(dir) / ("partition-" + std::to_string(i));
  return {base.string() + ".proof.json", base.string() + ".public.json"};
}

// Makes DIR and clears the outputs of `partitions` partitions (output.hpp's
// rules), before the outcome is taken: the daemon hands it over only once.
void prepare_await_outputs(const std::string& dir, size_t partitions) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw std::invalid_argument("--out " + dir + " is not a directory and cannot be made one" +
                                (ec ? ": " + ec.message() : ""));
  for (size_t i = 0; i < partitions; ++i) {
    const auto [proof, pub] = await_outputs(dir, (int)i);
    remove_earlier_output(proof, FileKind::proof);
    remove_earlier_output(pub, FileKind::public_signals);
  }
}

nlohmann::ordered_json result_json(const v1::JobResult& result) {
  nlohmann::ordered_json partitions = nlohmann::ordered_json::array();
  for (const v1::PartitionResult& p : result.partitions()) {
    nlohmann::ordered_json j{{"ok", p.ok()}};
    if (p.ok()) {
      j["proof"] = sent_json(p.proof_json(), "proof.json");
      j["public"] = sent_json(p.public_json(), "public.json");
    } else {
      j["error_code"] = p.error_code();
      j["error"] = p.error();
    }
    if (!p.proved_by().empty()) {  // a job of the queue
      j["proved_by"] = p.proved_by();
      j["attempts"] = p.attempts();
    }
    const PhaseTimes t = v1::phase_times(p.times());
    j["times_s"] = nlohmann::ordered_json::object();
    for (Phase phase : kPhases) j["times_s"][phase_name(phase)] = t[phase];
    partitions.push_back(std::move(j));
  }
  return {{"job_id", result.job_id()},
          {"key_id", result.key_id()},
          {"curve", curve_name(result.curve())},
          {"partitions", std::move(partitions)}};
}

// Await's outcome. No deadline of the client's own: one that expired as the
// daemon handed the outcome over would lose it (it is handed over once).
v1::JobResult take_outcome(Daemon& daemon, uint64_t job, uint64_t timeout_ms) {
  v1::AwaitRequest request;
  request.set_job_id(job);
  request.set_timeout_ms(timeout_ms);
  v1::JobResult result;
  const grpc::Status status = daemon.call_status(&Stub::Await, request, result);
  if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED && timeout_ms)
    throw std::runtime_error("job " + std::to_string(job) + " is not done after " + std::to_string(timeout_ms) +
                             " ms; it goes on (await it again)");
  if (!status.ok()) daemon.fail(status);
  return result;
}

// Writes the proved partitions' files into `dir` (made and cleared first
// unless `prepared`); returns their stage times. The daemon has forgotten the
// job by then, so where a file cannot be written the whole result goes to
// stdout rather than nowhere.
std::vector<v1::StageTimes> write_outcome(const std::string& dir, const v1::JobResult& result, bool prepared) {
  std::vector<v1::StageTimes> proved;
  try {
    if (!prepared) prepare_await_outputs(dir, result.partitions_size());
    for (int i = 0; i < result.partitions_size(); ++i)
      if (result.partitions(i).ok()) {
        const auto [proof, pub] = await_outputs(dir, i);
        write_partition(result.partitions(i), proof, pub);
        proved.push_back(result.partitions(i).times());
      }
  } catch (const std::exception& e) {
    std::printf("%s\n", result_json(result).dump(1).c_str());
    throw std::runtime_error(std::string(e.what()) + " (the whole result is on stdout as JSON)");
  }
  return proved;
}

int client_await(const ClientFlags& f) {
  Daemon& daemon = connect(f.connection);
  // The outputs are cleared before the outcome is taken where the job's size
  // is known (status lists it), so that a refused path loses nothing.
  bool prepared = false;
  if (!f.out.empty() && !f.queue) {
    const v1::StatusReply status = daemon.call(&Stub::Status, v1::StatusRequest{});
    for (const v1::JobStatus& job : status.jobs())
      if (job.job_id() == f.job) {
        prepare_await_outputs(f.out, job.partitions());
        prepared = true;
      }
  }
  // The queue keeps a job's outcome, so nothing is lost where --out is refused.
  const v1::JobResult result =
      f.queue ? queue_await(daemon, f.job, f.timeout_ms) : take_outcome(daemon, f.job, f.timeout_ms);
  size_t failed = 0;
  for (int i = 0; i < result.partitions_size(); ++i)
    if (const v1::PartitionResult& p = result.partitions(i); !p.ok()) {
      std::fprintf(stderr, "error: partition %d: %s\n", i, one_line(p.error()).c_str());
      ++failed;
    }
  if (f.out.empty()) {
    std::printf("%s\n", result_json(result).dump(1).c_str());
    return failed ? 1 : 0;
  }
  const std::vector<v1::StageTimes> proved = write_outcome(f.out, result, prepared);
  if (!f.quiet)
    std::printf("cuzk client await: job %llu: %zu of %s proved and verified (%s, key %s), in %s\n%s",
                (unsigned long long)result.job_id(), result.partitions_size() - failed,
                count(result.partitions_size(), "partition").c_str(), curve_name(result.curve()),
                result.key_id().c_str(), f.out.c_str(), stage_summary(proved).c_str());
  return failed ? 1 : 0;
}

int client_cancel(const ClientFlags& f) {
  Daemon& daemon = connect(f.connection);
  v1::CancelRequest request;
  request.set_job_id(f.job);
  if (!daemon.call(&Stub::Cancel, request).cancelled())
    throw std::invalid_argument("no job " + std::to_string(f.job) + " to cancel on cuzkd at " + daemon.address() +
                                " (unknown, or already awaited)");
  if (!f.quiet) std::printf("cuzk client cancel: job %llu cancelled\n", (unsigned long long)f.job);
  return 0;
}

int client_status(const ClientFlags& f) {
  Daemon& daemon = connect(f.connection);
  if (f.queue) {
    if (f.json) throw std::invalid_argument("--json is for cuzkd's own status, not --queue");
    std::fputs(queue_status(daemon).c_str(), stdout);
    return 0;
  }
  const v1::StatusReply status = daemon.call(&Stub::Status, v1::StatusRequest{});
  std::fputs((f.json ? status_json(status) : status_table(status, daemon.address())).c_str(), stdout);
  return 0;
}

int client_preload(const ClientFlags& f) {
  Daemon& daemon = connect(f.connection);
  v1::KeyInfo key;
  if (f.bytes) {
    v1::PreloadRequest request;
    request.set_zkey(read_bytes(f.key, "the key"));
    request.set_name(std::filesystem::path(f.key).filename().string());
    request.set_id(f.id);
    key = daemon.call(&Stub::Preload, request);
  } else {
    // A relative path means the caller's directory, not the daemon's.
    key = preload_path_or_bytes(daemon, f.key, f.id);
  }
  if (!f.quiet) std::printf("cuzk client preload: %s\n", key_line(key).c_str());
  return 0;
}

int client_evict(const ClientFlags& f) {
  Daemon& daemon = connect(f.connection);
  v1::EvictRequest request;
  request.set_id(f.id);
  if (!daemon.call(&Stub::Evict, request).evicted())
    throw std::invalid_argument("no key " + f.id + " on cuzkd at " + daemon.address());
  if (!f.quiet) std::printf("cuzk client evict: key %s evicted\n", f.id.c_str());
  return 0;
}

void add_quiet(CLI::App* cmd, ClientFlags& f) {
  cmd->add_flag("--quiet,-q", f.quiet, "Print nothing on success (errors still go to stderr)");
}

void add_job_options(CLI::App* cmd, ClientFlags& f) {
  cmd->add_option("--priority", f.priority, "Higher runs first; equal priorities in submission order")
      ->capture_default_str();
  cmd->add_option("--deadline-ms", f.deadline_ms,
                  "Fail what is not proved this many ms after cuzkd receives the job (0: no deadline)")
      ->capture_default_str();
  cmd->add_option("--label", f.label, "Free text shown in cuzk client status");
}

// Registers --daemon and --tls-ca on prove or prove-batch, and notes the
// options there that only a local run uses.
void add_delegation(CLI::App& app, const std::string& command) {
  CLI::App* cmd = app.get_subcommand(command);
  Delegation& d = delegations()[command];
  static const std::set<std::string> kept{"--help", "--r1cs", "--quiet", "--out"};
  for (const CLI::Option* opt : cmd->get_options())
    if (opt->nonpositional() && !kept.contains(opt->get_name())) d.local_only.push_back(opt);
  cmd->add_option("--daemon", d.connection.daemon,
                  "Send the work to cuzkd at this address instead of proving here (default: $CUZK_DAEMON): "
                  "unix:///run/cuzk/cuzkd.sock, a socket path, or host:port. The zkey path is read on the "
                  "daemon's host and kept loaded there for the next run; witnesses are sent");
  cmd->add_option("--tls-ca", d.connection.tls_ca, kTlsHelp);
}

}  // namespace

std::optional<DaemonAddress> daemon_for(const std::string& command) {
  const Delegation& d = delegations().at(command);
  auto address = daemon_address(d.connection.daemon, d.connection.tls_ca);
  if (address)
    for (const CLI::Option* opt : d.local_only)
      if (opt->count())
        throw std::invalid_argument(opt->get_name() + " is cuzkd's choice: it cannot be given with --daemon or "
                                                      "CUZK_DAEMON (unset it to prove here)");
  return address;
}

void add_client_commands(CLI::App& app, std::function<int()>& run) {
  add_delegation(app, "prove");
  add_delegation(app, "prove-batch");
  app.footer(app.get_footer() +
             "\n  CUZK_DAEMON=ADDR cuzkd's address for cuzk client, and for prove and prove-batch: they send the "
             "work there\n  CUZK_DAEMON_TLS_CA=FILE  the CA of cuzkd's TLS certificate (as --tls-ca)");

  ClientFlags& f = flags();
  auto* client = app.add_subcommand(
      "client", "Talk to cuzkd, the proving service: cuzk client <verb> [--daemon ADDR] (default: CUZK_DAEMON, else "
                "the socket cuzkd makes when given no --listen). Exit "
                "status 2 for what cuzkd calls an invalid argument or unknown (key, job, file), 1 for anything else, "
                "including no cuzkd at the address");
  client->require_subcommand(1);

  auto* prove = client->add_subcommand(
      "prove", "Prove on cuzkd: cuzk client prove <key-id> <witness.wtns> <proof.json> <public.json> (the witness is "
               "sent; the files appear together, verified, or not at all)");
  prove->add_option("key-id", f.key, "A key loaded on cuzkd (cuzk client preload)")->required();
  prove->add_option("wtns", f.witness, "witness (.wtns) for that key")->required();
  prove->add_option("proof", f.proof, "where to write proof.json")->required();
  prove->add_option("public", f.pub, "where to write public.json")->required();
  add_job_options(prove, f);
  add_quiet(prove, f);
  add_connection_options(prove, f.connection);
  prove->callback([&] { run = [&]() -> int { leave(client_prove(f)); }; });

  auto* submit = client->add_subcommand(
      "submit", "Submit a job of one partition per witness and print its id: cuzk client submit <key-id> "
                "<witness.wtns>... (await it with cuzk client await <id>); or of native example partitions, "
                "synthesized by cuzkd: cuzk client submit <key-id> --circuit partition --constraints N [--seed S] "
                "[--partitions K]");
  submit->add_option("key-id", f.key, "A key loaded on cuzkd")->required();
  submit->add_option("wtns", f.wtns, "witnesses (.wtns) for that key, sent");
  auto* circuit = submit->add_option("--circuit", f.circuit,
                                     "Native example partitions (after any witnesses): partition or hash-chain")
                      ->check(one_of(service::example_names()));
  submit->add_option("--constraints", f.constraints, "The native circuit's size: the key's (cuzk setup --constraints)")
      ->needs(circuit);
  submit->add_option("--seed", f.seed, "The first native partition's witness; the next take seed + 1, ...")
      ->needs(circuit)
      ->capture_default_str();
  submit->add_option("--partitions", f.partitions, "Native partitions in the job")
      ->needs(circuit)
      ->check(within(1u, 1u << 20))
      ->capture_default_str();
  add_job_options(submit, f);
  submit->add_flag("--queue", f.queue,
                   "Queue the job for the whole fleet (cuzkd --queue; docs/QUEUE.md) instead of proving it on this "
                   "cuzkd: <key-id> is the key's id in the queue");
  submit->add_option("--key-path", f.key_path,
                     "With --queue: register <key-id> as this .zkey first, at a path every worker reads");
  submit->add_flag("--by-path", f.by_path,
                   "Send the witnesses' paths, not their bytes: read on cuzkd's host (under its witness_dirs), or "
                   "with --queue as file:// URLs on storage every worker reads (a witness over 16 MiB always goes so "
                   "with --queue)");
  add_connection_options(submit, f.connection);
  submit->callback([&] { run = [&]() -> int { leave(client_submit(f)); }; });

  auto* await = client->add_subcommand(
      "await", "Wait for a job and take its proofs (once: cuzkd then forgets the job): cuzk client await <job-id> "
               "[--out DIR] writes DIR/partition-<i>.proof.json and .public.json for each partition proved (i from "
               "0, in the order submitted); without --out, prints the result as JSON. Exit 1 if any partition failed");
  await->add_option("job-id", f.job, "As cuzk client submit printed it")
      ->required()
      ->check(within(0, std::numeric_limits<long long>::max()));
  await->add_option("--out", f.out, "Directory for the proofs (created if missing)");
  await->add_option("--timeout-ms", f.timeout_ms,
                    "Give up after this many ms (exit 1; the job goes on and can be awaited again); 0: wait until "
                    "done")
      ->capture_default_str();
  await->add_flag("--queue", f.queue, "A job of the fleet's queue (submit --queue); it can be awaited again");
  add_quiet(await, f);
  add_connection_options(await, f.connection);
  await->callback([&] { run = [&]() -> int { leave(client_await(f)); }; });

  auto* cancel = client->add_subcommand(
      "cancel", "Cancel a job: its partitions not yet proved fail as cancelled (await still returns them)");
  cancel->add_option("job-id", f.job, "As cuzk client submit printed it")
      ->required()
      ->check(within(0, std::numeric_limits<long long>::max()));
  add_quiet(cancel, f);
  add_connection_options(cancel, f.connection);
  cancel->callback([&] { run = [&]() -> int { leave(client_cancel(f)); }; });

  auto* status = client->add_subcommand(
      "status", "cuzkd's state: backend, queues, jobs, keys loaded, GPUs and their health, memory in use");
  status->add_flag("--json", f.json, "The StatusReply as JSON (proto field names) instead of tables");
  status->add_flag("--queue", f.queue,
                   "The whole fleet of the job queue instead: partitions by state, and per host what it holds and "
                   "proved (as cuzk db status)");
  add_connection_options(status, f.connection);
  status->callback([&] { run = [&]() -> int { leave(client_status(f)); }; });

  auto* preload = client->add_subcommand(
      "preload", "Load a proving key on cuzkd and keep it there: cuzk client preload <circuit.zkey> [--id ID] "
                 "[--bytes]");
  preload->add_option("zkey", f.key,
                      "snarkjs Groth16 proving key: a path on cuzkd's host (made absolute here), or with --bytes a "
                      "file here whose contents are sent")
      ->required();
  preload->add_option("--id", f.id, "The key's id in later requests (default: the file's stem)");
  preload->add_flag("--bytes", f.bytes, "Send the file's contents instead of its path");
  add_quiet(preload, f);
  add_connection_options(preload, f.connection);
  preload->callback([&] { run = [&]() -> int { leave(client_preload(f)); }; });

  auto* evict = client->add_subcommand(
      "evict", "Forget a key on cuzkd (jobs already submitted with it finish first)");
  evict->add_option("id", f.id, "The key's id")->required();
  add_quiet(evict, f);
  add_connection_options(evict, f.connection);
  evict->callback([&] { run = [&]() -> int { leave(client_evict(f)); }; });
}

}  // namespace cuzk::cli
