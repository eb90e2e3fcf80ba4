// cuzk prove <zkey> <wtns> <proof.json> <public.json>: rapidsnark's positional
// form, snarkjs's output, proved by the service (one partition) like every
// other front end. The proof is verified before anything is written, and the
// two files appear together or not at all. Once the arguments are valid,
// earlier outputs are removed (output.hpp), so a failure of the work leaves
// neither an old nor a new proof; success prints one line unless --quiet.
//
// The key may also be a bellperson parameter file (told by content), which
// holds points only: --r1cs, or --circuit and --constraints for a native
// example, then give the circuit, whose coefficients and densities complete
// the key (io/bellperson_key.hpp); it proves on either backend. --format
// bellperson writes the proof in bellperson's 192 bytes.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <future>
#include <memory>
#include <variant>

#include "bellperson.hpp"
#include "commands.hpp"
#include "exit_early.hpp"
#if defined(CUZK_HAVE_DAEMON_CLIENT)
#include "client.hpp"
#endif
#include "cuzk/service/circuit_check.hpp"
#include "output.hpp"
#include "service_setup.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

// --r1cs: the circuit is the key's and the witness satisfies it, checked
// before any proving so that a failure names the constraint. The witness
// decoded here is the one proved: it is read and decoded once.
std::shared_ptr<const io::Witness> check_against_circuit(const std::string& r1cs, const service::KeyInfo& key,
                                                         const std::string& wtns_path) {
  const service::CircuitCheck circuit(r1cs);
  circuit.check_describes(key);
  return circuit.check_witness(wtns_path, &key);
}

// What the user reads on stdout after success.
std::string proved_by(const service::Service& svc) {
  const Placement& where = svc.placement();
  std::string by = std::string(backend_name(where.backend)) + " backend";
  if (where.backend == BackendKind::cuda) by += " on " + gpu_label(where.gpus.front());
  return by;
}

}  // namespace

int prove(const std::string& zkey_path, const std::string& wtns_path, const std::string& proof_path,
          const std::string& public_path, const ProveOptions& opts) {
  // The arguments are checked, the outputs' kinds among them, before an
  // earlier output is removed: a usage error, a wrong --daemon address or a
  // missing GPU leaves the previous proof where it was.
  const Format format = parse_format(opts.format);
  const FileKind proof_kind = format == Format::bellperson ? FileKind::bellperson : FileKind::proof;
  check_output(proof_path, proof_kind, /*force=*/true);
  check_output(public_path, FileKind::public_signals, /*force=*/true);
  const bool params = looks_like_bellperson(zkey_path);
  if (!params && !opts.native.name.empty())
    throw std::invalid_argument("--circuit " + opts.native.name + ": " + zkey_path +
                                " holds its own constraints; --circuit is for bellperson parameter files");
  if (params) check_circuit_given(zkey_path, opts.r1cs, opts.native);
#if defined(CUZK_HAVE_DAEMON_CLIENT)
  if (params || format == Format::bellperson) {
    if (daemon_for("prove"))
      throw std::invalid_argument("cuzkd proves snarkjs keys into proof.json only: prove bellperson files without "
                                  "--daemon and CUZK_DAEMON");
  } else if (const auto daemon = daemon_for("prove")) {
    return prove_on_daemon(*daemon, zkey_path, wtns_path, proof_path, public_path, opts);
  }
#endif
  Stopwatch clock;
  report_process_age("clock");
  // The service starts on a thread of its own (its placement starts the GPU's
  // driver; the engine of the key's curve, its context and workers) while
  // this one reads and checks the key: one after the other they took 0.24 s
  // and 0.33 s of a one-shot BN254 2^22 proof's 0.92 s on an H100 host.
  // Its parts are timed (CUZK_TIMING) where they end, on that thread: which
  // of them the one-shot's critical path waits for.
  std::future<std::unique_ptr<service::Service>> starting = std::async(std::launch::async, [&] {
    Stopwatch parts;
    RunOptions run = opts.run;
    // One partition: one GPU, the first.
    if (const Placement where = resolve_placement(run); where.backend == BackendKind::cuda)
      run.gpus = std::to_string(where.gpus.front());
    parts.lap("start: the GPUs found");
    auto svc = std::make_unique<service::Service>(service_options(run, EngineFlags{}, false));
    parts.lap("start: the service");
    svc->start_engine_for(zkey_path);
    parts.lap("start: the engine");
    return svc;
  });
  // A service that cannot start (no GPU for --backend cuda) leaves the
  // earlier outputs where they were; a key that does not read does not. A
  // bellperson parameter file (tens of GB) is read once the service runs, so
  // that such a failure is told at once.
  //
  // A zkey's points (all but its header's and IC's) are checked where they
  // are first used: on the GPU once uploaded, in a fraction of a millisecond,
  // where on the host they were about 60 % of the read's CPU time
  // (docs/PERFORMANCE.md); else on the host, by the CPU backend or before a
  // streamed upload.
  std::unique_ptr<service::Service> started;
  if (params) started = starting.get();
  service::AnyKey read;
  std::exception_ptr unreadable;
  try {
    read = params ? service::AnyKey(load_bellperson_key(zkey_path, opts.r1cs, opts.native))
                  : service::read_zkey(zkey_path, groth16::PointChecks::deferred);
  } catch (...) {
    unreadable = std::current_exception();
  }
  clock.lap(params ? "read params" : "read zkey");
  // The key's rows, which a, b and c are evaluated from, are sorted while the
  // service is still starting rather than beside the key's upload (0.17-0.25
  // s at BN254 2^22 on 16 threads).
  std::future<void> sorting;
  if (!unreadable && !params)
    sorting = std::visit([](const auto& k) { return groth16::sort_rows_ahead(k); }, read);
  if (!started) started = starting.get();
  service::Service& svc = *started;
  clock.lap("start service");
  remove_earlier_output(proof_path, proof_kind);
  remove_earlier_output(public_path, FileKind::public_signals);
  if (unreadable) std::rethrow_exception(unreadable);
  const service::KeyInfo key =
      svc.add_key(std::filesystem::path(zkey_path).stem().string(), std::move(read), zkey_path);
  check_proof_format(format, key.curve);
  std::vector<service::PartitionInput> partitions;
  if (opts.r1cs.empty()) {
    partitions.emplace_back(service::WitnessFile{wtns_path});
  } else {
    partitions.emplace_back(service::DecodedWitness{check_against_circuit(opts.r1cs, key, wtns_path)});
    clock.lap("check r1cs");
  }
  service::JobOutcome job = *svc.await(svc.submit(key.id, std::move(partitions)));
  clock.lap("prove");
  const service::PartitionOutcome& p = job.partitions.front();
  if (p.error_kind == service::ErrorKind::unsatisfied)
    // The prover knows no file names; the user needs them to tell which
    // witness (or key) is wrong, and how to find the constraint it breaks.
    throw service::Error(p.error_kind, wtns_path + " with " + zkey_path + ": " + p.error +
                                           (opts.r1cs.empty() ? "; --r1cs circuit.r1cs names the first failing constraint" : ""));
  if (!p.ok()) throw service::Error(p.error_kind, p.error);
  write_proof_outputs(proof_path, public_path, *p.proved, format);
  clock.lap("write proof");
  if (!opts.quiet)
    std::printf("cuzk prove: wrote %s and %s (%s proof, verified) with the %s in %.3f s\n", proof_path.c_str(),
                public_path.c_str(), ec::curve_name(key.curve), proved_by(svc).c_str(), clock.total());
  // The process ends here with its service standing: tearing it down (the
  // GPU's context, the pinned buffers, the key's mapping) is what the kernel
  // and the driver do at exit anyway, and the caller of a one-shot proof would
  // wait for it (on an H100 host, ending without the destructors took the wall
  // time past the command's own figure from 0.23 s to 0.18-0.21 s); the
  // kernel's part is left to a helper (exit_early.hpp).
  report_process_age("exit");
  exit_leaving_teardown(0);
}

}  // namespace cuzk::cli
