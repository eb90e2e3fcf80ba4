// cuzk setup: a development proving key (.zkey, and optionally its vk.json)
// from a circom .r1cs or a native example circuit, and cuzk witness: a native
// example's witness as a .wtns, so native circuits take the same
// prove/verify path as circom ones.
#include <cstdio>

#include "commands.hpp"
#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey_writer.hpp"
#include "native.hpp"
#include "timing.hpp"

namespace cuzk::cli {

namespace {

constexpr const char* kWarning =
    "WARNING: cuzk setup is a DEVELOPMENT setup, NOT FOR PRODUCTION. Its toxic waste was drawn on this\n"
    "machine by one party: whoever could read this process's memory can forge proofs for this key.\n"
    "Production keys come from a multi-party ceremony (snarkjs powersoftau + zkey contribute).\n";

template <class E>
void write_key(const groth16::ConstraintMatrices<E>& m, const SetupOptions& o, Stopwatch& clock) {
  const auto key = groth16::dev_setup(m, groth16::ToxicWaste<E>::draw(), o.run.threads);
  clock.lap("setup");
  io::write_zkey(o.zkey, key.key);
  clock.lap("write zkey");
  if (!o.vk.empty()) io::write_vk_json<E>(o.vk, groth16::verifying_key(key.key));
  std::printf("%s: %s key, %zu signals (%zu public), domain 2^%d\n", o.zkey.c_str(), ec::curve_name(E::id),
              key.key.n_vars(), key.key.n_public(), __builtin_ctzll(key.key.domain_size()));
}

}  // namespace

int setup(const SetupOptions& o) {
  std::fputs(kWarning, stderr);
  Stopwatch clock;
  if (!o.r1cs.empty()) {
    const io::R1cs r1cs = io::R1cs::open(o.r1cs);
    clock.lap("read r1cs");
    r1cs.visit([&](const auto& m) { write_key(m, o, clock); });
  } else {
    visit_native(o.native, [&](const auto& circuit) {
      const auto m = circuit::constraint_matrices(circuit);
      clock.lap("matrices");
      write_key(m, o, clock);
    });
  }
  return 0;
}

int witness(const NativeCircuit& native, const std::string& wtns) {
  visit_native(native, [&](const auto& circuit) {
    using Fr = circuit::FrOf<std::remove_cvref_t<decltype(circuit)>>;
    std::vector<Fr> w(circuit::shape_of(circuit).n_vars);
    circuit::synthesize_witness(circuit, std::span<Fr>(w), {}, {}, {});  // a .wtns holds w alone
    io::write_wtns(wtns, io::Witness{std::move(w), wtns});
  });
  return 0;
}

}  // namespace cuzk::cli
