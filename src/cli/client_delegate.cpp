// cuzk prove and cuzk prove-batch with --daemon: the same files and messages as
// a local run, the work done by cuzkd (client.hpp).
#include <cstdio>
#include <deque>
#include <optional>
#include <stdexcept>

#include "client.hpp"
#include "client_jobs.hpp"
#include "cuzk/service/circuit_check.hpp"
#include "cuzk/util/plural.hpp"
#include "output.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

using Stub = v1::Prover::Stub;

v1::SubmitRequest one_witness_job(const std::string& key_id, const std::string& wtns) {
  v1::SubmitRequest request;
  request.set_key_id(key_id);
  *request.add_partitions() = wtns_partition(wtns);
  return request;
}

// "cuzkd at ADDR (cpu backend; key loaded now)".
std::string daemon_phrase(Daemon& daemon, const ResidentKey& key) {
  const v1::StatusReply status = daemon.call(&Stub::Status, v1::StatusRequest{});
  return "cuzkd at " + daemon.address() + " (" + status.backend() + " backend; " +
         (key.loaded_now ? "key loaded now" : "key already resident") + ")";
}

// --r1cs with a daemon: the witness is checked here against the circuit
// (check.cpp), before its bytes are sent.
void check_against(const std::optional<service::CircuitCheck>& circuit, const std::string& wtns) {
  if (circuit) circuit->check_witness(wtns);
}

std::optional<service::CircuitCheck> open_circuit(const std::string& r1cs) {
  if (r1cs.empty()) return std::nullopt;
  return service::CircuitCheck(r1cs);
}

// A witness's outcome in a batch: its result, or the error that stopped it.
struct Witness {
  v1::PartitionResult result;
  std::string error;  // empty: proved
};

// prove-batch's jobs on cuzkd: one job per witness, so that a witness the
// daemon refuses at submission (malformed, another key's) fails alone. At
// most kInFlight jobs are submitted and not yet awaited: far below the
// finished jobs the daemon keeps for Await (max_unawaited_jobs, 1024 by
// default; it drops the oldest beyond), and enough to keep its workers fed.
// Beyond the daemon's admission bounds (RESOURCE_EXHAUSTED) the oldest job
// is awaited before the submission is tried again.
class Batch {
 public:
  static constexpr size_t kInFlight = 64;

  Batch(Daemon& daemon, std::string key_id, const std::vector<std::string>& wtns, std::vector<Witness>& outcome)
      : daemon_(daemon), key_id_(std::move(key_id)), wtns_(wtns), outcome_(outcome) {}
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // A run that stops early (the daemon went away, or answered an error that
  // ends the run) cancels and takes the jobs it submitted, so that none waits on the
  // daemon for an Await that will not come; failures here are ignored.
  ~Batch() {
    for (const auto& [i, job] : pending_) {
      v1::CancelRequest cancel;
      cancel.set_job_id(job);
      v1::CancelReply cancelled;
      v1::AwaitRequest await;
      await.set_job_id(job);
      v1::JobResult ignored;
      if (daemon_.call_status(&Stub::Cancel, cancel, cancelled).ok())
        (void)daemon_.call_status(&Stub::Await, await, ignored);
    }
  }

  void submit(size_t i) {
    if (pending_.size() == kInFlight) await_oldest();
    v1::SubmitRequest request;
    try {
      request = one_witness_job(key_id_, wtns_[i]);
    } catch (const std::invalid_argument& e) {  // unreadable: this witness fails, as in a local run
      outcome_[i].error = e.what();
      return;
    }
    for (;;) {
      v1::SubmitReply reply;
      const grpc::Status status = daemon_.call_status(&Stub::Submit, request, reply);
      if (status.ok()) {
        pending_.emplace_back(i, reply.job_id());
      } else if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED && !pending_.empty()) {
        await_oldest();
        continue;
      } else if (status.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
                 status.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        outcome_[i].error = one_line(status);
      } else {
        daemon_.fail(status);
      }
      return;
    }
  }

  void await_all() {
    while (!pending_.empty()) await_oldest();
  }

 private:
  void await_oldest() {
    const auto [i, job] = pending_.front();
    pending_.pop_front();
    v1::AwaitRequest request;
    request.set_job_id(job);
    v1::JobResult result = daemon_.call(&Stub::Await, request);
    if (result.partitions_size() != 1)
      throw std::runtime_error("cuzkd answered job " + std::to_string(job) + " of 1 partition with " +
                               std::to_string(result.partitions_size()) + " results");
    Witness& w = outcome_[i];
    w.result = std::move(*result.mutable_partitions(0));
    if (!w.result.ok()) w.error = w.result.error().empty() ? w.result.error_code() : w.result.error();
  }

  Daemon& daemon_;
  const std::string key_id_;
  const std::vector<std::string>& wtns_;
  std::vector<Witness>& outcome_;
  std::deque<std::pair<size_t, uint64_t>> pending_;  // (witness, job) in submission order
};

}  // namespace

int prove_on_daemon(const DaemonAddress& address, const std::string& zkey, const std::string& wtns,
                    const std::string& proof, const std::string& pub, const ProveOptions& opts) {
  Stopwatch clock;
  check_against(open_circuit(opts.r1cs), wtns);
  Daemon daemon(address);
  const ResidentKey key = ensure_key(daemon, zkey);
  clock.lap(key.loaded_now ? "preload key" : "find key");
  // cuzkd answered: from here a failure must leave no earlier proof.
  remove_earlier_output(proof, FileKind::proof);
  remove_earlier_output(pub, FileKind::public_signals);
  const v1::JobResult result = daemon.call(&Stub::Prove, one_witness_job(key.info.id(), wtns));
  clock.lap("prove on cuzkd");
  if (result.partitions_size() != 1)
    throw std::runtime_error("cuzkd answered a job of 1 partition with " + std::to_string(result.partitions_size()) +
                             " results");
  const v1::PartitionResult& p = result.partitions(0);
  if (!p.ok()) throw_partition_error(p, wtns);
  write_partition(p, proof, pub);
  if (!opts.quiet)
    std::printf("cuzk prove: wrote %s and %s (%s proof, verified) with %s in %.3f s\n", proof.c_str(), pub.c_str(),
                curve_name(result.curve()), daemon_phrase(daemon, key).c_str(), clock.total());
  return 0;
}

int prove_batch_on_daemon(const DaemonAddress& address, const std::string& zkey, const std::vector<std::string>& wtns,
                          const std::vector<std::filesystem::path>& outputs, const BatchOptions& opts) {
  const std::optional<service::CircuitCheck> circuit = open_circuit(opts.r1cs);
  Daemon daemon(address);
  const ResidentKey key = ensure_key(daemon, zkey);
  std::vector<Witness> outcome(wtns.size());
  {
    Batch batch(daemon, key.info.id(), wtns, outcome);
    for (size_t i = 0; i < wtns.size(); ++i) {
      try {
        check_against(circuit, wtns[i]);
      } catch (const std::exception& e) {
        outcome[i].error = e.what();
        continue;
      }
      batch.submit(i);
    }
    batch.await_all();
  }

  size_t failed = 0;
  std::vector<v1::StageTimes> proved;
  for (size_t i = 0; i < wtns.size(); ++i) {
    if (!outcome[i].error.empty()) {
      const std::string message = one_line(outcome[i].error);
      std::fprintf(stderr, "error: %s%s\n",
                   message.find(wtns[i]) == std::string::npos ? (wtns[i] + ": ").c_str() : "", message.c_str());
      ++failed;
      continue;
    }
    write_partition(outcome[i].result, outputs[2 * i], outputs[2 * i + 1]);
    proved.push_back(outcome[i].result.times());
  }
  if (!opts.quiet)
    std::printf("cuzk prove-batch: %zu of %s proved and verified, in %s (%s)\n%s", wtns.size() - failed,
                count(wtns.size(), "witness").c_str(), opts.out.c_str(), daemon_phrase(daemon, key).c_str(),
                stage_summary(proved).c_str());
  return failed ? 1 : 0;
}

}  // namespace cuzk::cli
