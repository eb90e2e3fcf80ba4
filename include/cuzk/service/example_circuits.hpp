// The example circuits under the names cuzk and cuzkd give them, each named
// once (kExamples): for a front end to register (ServiceOptions::
// native_circuits) or to visit as the circuit's own type (cuzk setup, bench).
// The service's library includes none of them.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/service/native.hpp"

namespace cuzk::service {

// One example: its name, and its circuit of a size and a witness seed.
template <template <class> class Circuit>
struct Example {
  const char* name;
  template <class E>
  static Circuit<E> make(uint64_t constraints, uint64_t seed) {
    return Circuit<E>::for_constraints(constraints, seed);
  }
  static NativeCircuit registered() { return native_circuit<Circuit>(); }
};

inline constexpr std::tuple kExamples{Example<circuit::Partition>{"partition"},
                                      Example<circuit::HashChain>{"hash-chain"}};

// Their names, in that order.
inline std::vector<std::string> example_names() {
  return std::apply([](auto... e) { return std::vector<std::string>{e.name...}; }, kExamples);
}

inline NativeCircuits example_circuits() {
  return std::apply([](auto... e) { return NativeCircuits{{e.name, e.registered()}...}; }, kExamples);
}

}  // namespace cuzk::service
