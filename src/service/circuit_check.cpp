#include "cuzk/service/circuit_check.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuzk/io/r1cs.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/r1cs/constraints.hpp"
#include "cuzk/service/service.hpp"

namespace cuzk::service {

CircuitCheck::CircuitCheck(const std::filesystem::path& r1cs)
    : circuit_(std::make_unique<const io::R1cs>(io::R1cs::open(r1cs))) {}
CircuitCheck::~CircuitCheck() = default;
CircuitCheck::CircuitCheck(CircuitCheck&&) noexcept = default;
CircuitCheck& CircuitCheck::operator=(CircuitCheck&&) noexcept = default;

uint32_t CircuitCheck::constraints() const { return circuit_->header().n_constraints; }

void CircuitCheck::check_describes(const KeyInfo& k) const {
  const io::R1csHeader& c = circuit_->header();
  const auto mismatch = [&](const std::string& what) {
    throw io::FormatError(circuit_->name() + " is not the circuit of " + k.source + ": " + what);
  };
  if (c.curve != k.curve)
    mismatch(std::string("its curve is ") + curve_name(c.curve) + ", the key's " + curve_name(k.curve));
  if (c.n_wires != k.n_vars)
    mismatch("it has " + std::to_string(c.n_wires) + " signals, the key " + std::to_string(k.n_vars));
  if (c.n_pub_out + c.n_pub_in != k.n_public)
    mismatch("it has " + std::to_string(c.n_pub_out + c.n_pub_in) + " public signals, the key " +
             std::to_string(k.n_public));
}

std::shared_ptr<const io::Witness> CircuitCheck::check_witness(const std::filesystem::path& wtns,
                                                               const KeyInfo* key) const {
  auto witness = std::make_shared<const io::Witness>(io::read_wtns(wtns));
  if (key) io::check_witness_shape(*witness, key->source, "key", key->curve, key->n_vars);
  const io::R1cs& circuit = *circuit_;
  io::check_witness_shape(*witness, circuit.name(), "circuit", circuit.curve(), circuit.header().n_wires);
  circuit.visit([&](const auto& m) {
    using E = typename std::remove_cvref_t<decltype(m)>::CurveTypes;
    if (const auto failed = r1cs::first_unsatisfied<E>(m, witness->as<E>()))
      throw std::runtime_error(witness->source + " does not satisfy " + circuit.name() + ": constraint " +
                               std::to_string(*failed) + " (of " + std::to_string(m.n_constraints()) +
                               ", counted from 0) fails: <A,w>·<B,w> != <C,w>");
  });
  return witness;
}

}  // namespace cuzk::service
