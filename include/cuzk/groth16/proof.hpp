// A Groth16 proof: A in G1, B in G2, C in G1, affine (infinity all-zero, as
// ec::Affine). snarkjs's proof.json carries the same three points
// (io/json.hpp reads and writes it).
#pragma once

#include "cuzk/ec/point.hpp"

namespace cuzk::groth16 {

template <class E>
struct Proof {
  using G1 = ec::Affine<typename E::G1>;
  using G2 = ec::Affine<typename E::G2>;
  G1 a;
  G2 b;
  G1 c;

  friend bool operator==(const Proof& x, const Proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

}  // namespace cuzk::groth16
