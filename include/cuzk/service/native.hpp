// Native circuits by name, for NativeWitness partitions: a front end
// registers them in ServiceOptions::native_circuits, so that the service's
// library compiles none in and a program that proves only zkeys or a
// caller's evaluations (the C libraries) carries none. A circuit is made for
// a size at run time and a witness seed; example_circuits.hpp names the
// examples cuzk and cuzkd register.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <type_traits>

#include "cuzk/circuit/shape.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/ec/curves.hpp"

namespace cuzk::service {

// One circuit on curve E.
template <class E>
struct NativeCircuitOn {
  using Fr = typename E::Fr;
  std::function<circuit::Shape(uint64_t constraints)> shape;
  // w, and a, b, c where they are not empty, as circuit::synthesize_witness
  // writes them.
  std::function<void(uint64_t constraints, uint64_t seed, std::span<Fr> w, std::span<Fr> a, std::span<Fr> b,
                     std::span<Fr> c)>
      synthesize;
};

struct NativeCircuit {
  NativeCircuitOn<ec::Bn254> bn254;
  NativeCircuitOn<ec::Bls12_381> bls12_381;

  template <class E>
  const NativeCircuitOn<E>& on() const {
    if constexpr (std::is_same_v<E, ec::Bn254>)
      return bn254;
    else
      return bls12_381;
  }
};

// Circuit<E>::for_constraints(constraints, seed) on both curves; the shape
// does not depend on the seed.
template <template <class> class Circuit>
NativeCircuit native_circuit() {
  const auto on = [](auto curve) {
    using E = decltype(curve);
    using Fr = typename E::Fr;
    return NativeCircuitOn<E>{
        [](uint64_t constraints) { return circuit::shape_of(Circuit<E>::for_constraints(constraints, 0)); },
        [](uint64_t constraints, uint64_t seed, std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
          circuit::synthesize_witness(Circuit<E>::for_constraints(constraints, seed), w, a, b, c);
        }};
  };
  return {on(ec::Bn254{}), on(ec::Bls12_381{})};
}

using NativeCircuits = std::map<std::string, NativeCircuit>;

}  // namespace cuzk::service
