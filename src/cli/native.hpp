// The native example circuits as the commands name them, for a curve and a
// size chosen at run time.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/ec/curves.hpp"

namespace cuzk::cli {

// Which example, its curve and its size (constraints + public rows fit a
// domain of `constraints` when that is a power of two).
struct NativeCircuit {
  std::string name = "partition";  // "partition" or "hash-chain"
  std::string curve = "bn254";
  uint64_t constraints = 1 << 16;
  uint64_t seed = 0;  // the witness; the shape does not depend on it
};

ec::Curve parse_curve(const std::string& name);

// f(circuit) with circuit a circuit::Partition<E> or circuit::HashChain<E>,
// on curve E whatever n.curve says (a bellperson parameter file's circuit is
// on BLS12-381).
template <class E, class F>
decltype(auto) visit_native_on(const NativeCircuit& n, F&& f) {
  if (n.name == "partition") return f(circuit::Partition<E>::for_constraints(n.constraints, n.seed));
  if (n.name == "hash-chain") return f(circuit::HashChain<E>::for_constraints(n.constraints, n.seed));
  throw std::invalid_argument("--circuit " + n.name + ": the examples are partition and hash-chain");
}

// The same on n.curve.
template <class F>
decltype(auto) visit_native(const NativeCircuit& n, F&& f) {
  return ec::visit_curve(parse_curve(n.curve),
                         [&](auto curve) { return visit_native_on<decltype(curve)>(n, std::forward<F>(f)); });
}

}  // namespace cuzk::cli
