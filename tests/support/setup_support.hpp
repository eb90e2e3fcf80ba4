// Inputs for tests of the development setups (host and GPU): toxic waste and
// random constraint systems from a seeded generator.
#pragma once

#include <cstdint>

#include "cuzk/ff/encode.hpp"
#include "cuzk/groth16/setup.hpp"

namespace cuzk::test {

template <class E, class Rng>
groth16::ToxicWaste<E> toxic(Rng& rng) {
  using Fr = typename E::Fr;
  const auto r = [&] { return ff::random_element<Fr>(rng); };
  return {r(), r(), r(), r(), r()};
}

// 1 to 3 random terms per linear combination over signals 0 .. n_vars - 2:
// the last signal is in no matrix, so all its points must be infinity.
template <class E, class Rng>
r1cs::ConstraintMatrices<E> random_r1cs(size_t n_constraints, uint32_t n_vars, uint32_t n_public, Rng& rng) {
  r1cs::ConstraintMatrices<E> m;
  m.n_vars = n_vars;
  m.n_public = n_public;
  for (size_t i = 0; i < 3 * n_constraints; ++i) {
    for (size_t k = 1 + rng() % 3; k-- > 0;)
      m.terms.push_back({(uint32_t)(rng() % (n_vars - 1)), ff::random_element<typename E::Fr>(rng)});
    m.starts.push_back(m.terms.size());
  }
  return m;
}

}  // namespace cuzk::test
