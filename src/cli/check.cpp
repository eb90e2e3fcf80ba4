// cuzk check <circuit.r1cs> <witness.wtns> (as `snarkjs wtns check`): whether
// a witness satisfies a circuit, naming the first constraint it breaks.
// `prove --r1cs` and `prove-batch --r1cs` run the same check before proving:
// a zkey stores only A and B, so without the circuit a bad witness shows only
// when the finished proof fails its own verification, which cannot say where.
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "cuzk/r1cs/constraints.hpp"
#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::cli {

void check_satisfies(const io::R1cs& circuit, const io::Witness& witness) {
  io::check_witness_shape(witness, circuit.name(), "circuit", circuit.curve(), circuit.header().n_wires);
  circuit.visit([&](const auto& m) {
    using E = typename std::remove_cvref_t<decltype(m)>::CurveTypes;
    const auto failed = r1cs::first_unsatisfied<E>(m, witness.as<E>());
    if (failed)
      throw std::runtime_error(witness.source + " does not satisfy " + circuit.name() + ": constraint " +
                               std::to_string(*failed) + " (of " + std::to_string(m.n_constraints()) +
                               ", counted from 0) fails: <A,w>·<B,w> != <C,w>");
  });
}

void check_describes(const io::R1cs& circuit, const service::KeyInfo& k) {
  const io::R1csHeader& c = circuit.header();
  const auto mismatch = [&](const std::string& what) {
    throw io::FormatError(circuit.name() + " is not the circuit of " + k.source + ": " + what);
  };
  if (c.curve != k.curve) mismatch(std::string("its curve is ") + curve_name(c.curve) + ", the key's " + curve_name(k.curve));
  if (c.n_wires != k.n_vars)
    mismatch("it has " + std::to_string(c.n_wires) + " signals, the key " + std::to_string(k.n_vars));
  if (c.n_pub_out + c.n_pub_in != k.n_public)
    mismatch("it has " + std::to_string(c.n_pub_out + c.n_pub_in) + " public signals, the key " +
             std::to_string(k.n_public));
}

int check(const std::string& r1cs_path, const std::string& wtns_path) {
  const io::R1cs circuit = io::R1cs::open(r1cs_path);
  check_satisfies(circuit, io::read_wtns(wtns_path));
  std::printf("OK: %s satisfies the %u constraints of %s\n", wtns_path.c_str(), circuit.header().n_constraints,
              r1cs_path.c_str());
  return 0;
}

}  // namespace cuzk::cli
