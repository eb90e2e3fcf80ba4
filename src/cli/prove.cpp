// cuzk prove <zkey> <wtns> <proof.json> <public.json>: rapidsnark's positional
// form, snarkjs's output. The proof is verified before anything is written,
// and the two files appear together or not at all.
#include <filesystem>

#include "commands.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

template <class E>
void prove_with(const io::Zkey& zkey, const io::Witness& witness, const std::string& proof_path,
                const std::string& public_path, const RunOptions& opts, Stopwatch& clock) {
  using Fr = typename E::Fr;
  const groth16::PreparedKey<E> key(zkey.as<E>());
  const auto& w = witness.as<E>();
  const size_t n = key.key().domain_size();
  std::vector<Fr> a(n), b(n), c(n);
  clock.lap("prepare");
  key.evaluate_abc(w, a, b, c, opts.threads);
  clock.lap("abc");
  groth16::StartTimes t;
  const auto pending = groth16::prove_start(key, std::span<const Fr>(w), std::span<Fr>(a), std::span<Fr>(b),
                                            std::span<Fr>(c), opts.threads, &t);
  clock.lap("prove_start");
  const auto proof = groth16::prove_finish(key, pending);
  clock.lap("prove_finish");

  const std::pair<std::filesystem::path, nlohmann::ordered_json> outputs[] = {
      {proof_path, io::proof_to_json<E>(proof)}, {public_path, io::public_to_json<E>(pending.publics)}};
  io::write_json_files(outputs);
}

}  // namespace

int prove(const std::string& zkey_path, const std::string& wtns_path, const std::string& proof_path,
          const std::string& public_path, const RunOptions& opts) {
  resolve_backend(opts.backend);
  Stopwatch clock;
  const io::Zkey zkey = io::Zkey::open(zkey_path);
  clock.lap("read zkey");
  const io::Witness witness = io::read_wtns(wtns_path);
  io::check_witness_matches(zkey, witness);
  clock.lap("read wtns");
  try {
    ec::visit_curve(zkey.curve(), [&](auto curve) {
      prove_with<decltype(curve)>(zkey, witness, proof_path, public_path, opts, clock);
    });
  } catch (const groth16::ProofError& e) {
    // The prover knows no file names; the user needs them to tell which
    // witness (or key) is wrong.
    throw groth16::ProofError(wtns_path + " with " + zkey_path + ": " + e.what());
  }
  return 0;
}

}  // namespace cuzk::cli
