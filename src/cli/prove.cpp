// cuzk prove <zkey> <wtns> <proof.json> <public.json>: rapidsnark's positional
// form, snarkjs's output. The proof is verified before anything is written,
// and the two files appear together or not at all. Both backends take the
// same path (provers.hpp); only where w, a, b, c live and who proves differ.
#include <algorithm>
#include <filesystem>

#include "commands.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"
#include "provers.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

template <class E>
void prove_with(const io::Zkey& zkey, const io::Witness& witness, const std::string& proof_path,
                const std::string& public_path, const RunOptions& opts, const Placement& where, Stopwatch& clock) {
  using Fr = typename E::Fr;
  const auto key = groth16::PreparedKey<E>::make(zkey.share<E>());
  clock.lap("prepare");
  with_prover(key, where, opts.threads, [&](auto& prover) {
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
  });
}

}  // namespace

int prove(const std::string& zkey_path, const std::string& wtns_path, const std::string& proof_path,
          const std::string& public_path, const RunOptions& opts) {
  const Placement where = resolve_placement(opts);
  Stopwatch clock;
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  clock.lap("read zkey");
  const io::Witness witness = io::read_wtns(wtns_path);
  io::check_witness_matches(zkey, witness);
  clock.lap("read wtns");
  try {
    ec::visit_curve(zkey.curve(), [&](auto curve) {
      prove_with<decltype(curve)>(zkey, witness, proof_path, public_path, opts, where, clock);
    });
  } catch (const groth16::ProofError& e) {
    // The prover knows no file names; the user needs them to tell which
    // witness (or key) is wrong.
    throw groth16::ProofError(wtns_path + " with " + zkey_path + ": " + e.what());
  }
  return 0;
}

}  // namespace cuzk::cli
