// The native example circuits by name, for a curve chosen at compile time and
// a size and witness chosen at run time: what `cuzk setup --circuit`, the
// benchmarks and a service's NativeWitness partitions share.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/service/errors.hpp"

namespace cuzk::service {

// f(circuit) with circuit a circuit::Partition<E> or circuit::HashChain<E>;
// Error(invalid_argument) for another name.
template <class E, class F>
decltype(auto) visit_native(const std::string& name, uint64_t constraints, uint64_t seed, F&& f) {
  if (name == "partition") return f(circuit::Partition<E>::for_constraints(constraints, seed));
  if (name == "hash-chain") return f(circuit::HashChain<E>::for_constraints(constraints, seed));
  throw Error(ErrorKind::invalid_argument, "circuit " + name + ": the native circuits are partition and hash-chain");
}

}  // namespace cuzk::service
