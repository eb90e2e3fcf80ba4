// cuzk prove <zkey> <wtns> <proof.json> <public.json>: rapidsnark's positional
// form, snarkjs's output. The proof is verified before anything is written,
// and the two files appear together or not at all. Both backends take the
// same path (provers.hpp); only where w, a, b, c live and who proves differ.
// Earlier outputs are removed first (output.hpp), so a failure leaves neither an
// old nor a new proof; success prints one line unless --quiet.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "commands.hpp"
#if defined(CUZK_HAVE_DAEMON_CLIENT)
#include "client.hpp"
#endif
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/zkey.hpp"
#include "output.hpp"
#include "provers.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

// Proves and writes both files; returns the device that proved.
template <class E>
std::string prove_with(const io::Zkey& zkey, const io::Witness& witness, const std::string& proof_path,
                       const std::string& public_path, const RunOptions& opts, const Placement& where,
                       Stopwatch& clock) {
  using Fr = typename E::Fr;
  const auto key = groth16::PreparedKey<E>::make(zkey.share<E>());
  clock.lap("prepare");
  return with_prover(key, where, opts.threads, [&](auto& prover) {
    for (const auto& [stage, s] : prover.setup_times()) report_stage(stage.c_str(), s);
    const auto& w = witness.as<E>();
    std::copy(w.begin(), w.end(), prover.w().begin());
    clock.lap("buffers");
    key->evaluate_abc(prover.w(), prover.a(), prover.b(), prover.c(), opts.threads);
    clock.lap("abc");
    StageTimes stages;
    const auto proof = prover.prove(stages);
    for (const auto& [stage, s] : stages) report_stage(stage.c_str(), s);
    clock.lap("prove");

    const auto publics = std::span<const Fr>(w).subspan(1, key->key().n_public());
    const std::pair<std::filesystem::path, nlohmann::ordered_json> outputs[] = {
        {proof_path, io::proof_to_json<E>(proof)}, {public_path, io::public_to_json<E>(publics)}};
    io::write_json_files(outputs);
    return prover.device();
  });
}

}  // namespace

int prove(const std::string& zkey_path, const std::string& wtns_path, const std::string& proof_path,
          const std::string& public_path, const ProveOptions& opts) {
  remove_earlier_output(proof_path, FileKind::json);
  remove_earlier_output(public_path, FileKind::json);
#if defined(CUZK_HAVE_DAEMON_CLIENT)
  if (const auto daemon = daemon_for("prove")) return prove_on_daemon(*daemon, zkey_path, wtns_path, proof_path, public_path, opts);
#endif
  const Placement where = resolve_placement(opts.run);
  Stopwatch clock;
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  clock.lap("read zkey");
  const io::Witness witness = io::read_wtns(wtns_path);
  io::check_witness_matches(zkey, witness);
  clock.lap("read wtns");
  if (!opts.r1cs.empty()) {
    const io::R1cs circuit = io::R1cs::open(opts.r1cs);
    check_describes(circuit, zkey);
    check_satisfies(circuit, witness);
    clock.lap("check r1cs");
  }
  std::string device;
  try {
    device = ec::visit_curve(zkey.curve(), [&](auto curve) {
      return prove_with<decltype(curve)>(zkey, witness, proof_path, public_path, opts.run, where, clock);
    });
  } catch (const groth16::ProofError& e) {
    // The prover knows no file names; the user needs them to tell which
    // witness (or key) is wrong, and how to find the constraint it breaks.
    throw groth16::ProofError(wtns_path + " with " + zkey_path + ": " + e.what() +
                              (opts.r1cs.empty() ? "; --r1cs circuit.r1cs names the first failing constraint" : ""));
  }
  if (!opts.quiet) {
    const std::string by = std::string(backend_name(where.backend)) +
                           (where.backend == Backend::cuda ? " backend on " + device : " backend");
    std::printf("cuzk prove: wrote %s and %s (%s proof, verified) with the %s in %.3f s\n", proof_path.c_str(),
                public_path.c_str(), ec::curve_name(zkey.curve()), by.c_str(), clock.total());
  }
  return 0;
}

}  // namespace cuzk::cli
