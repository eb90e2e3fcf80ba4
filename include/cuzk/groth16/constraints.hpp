// An R1CS instance as matrices: constraint i is <A_i, w> · <B_i, w> = <C_i, w>
// over the witness w = (1, public signals, private signals). A circom .r1cs
// file (io/r1cs.hpp) and a native circuit (circuit/) both produce it; the
// development setup (groth16/setup.hpp) consumes it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::groth16 {

template <class Fr>
struct Term {
  uint32_t wire;  // < n_vars
  Fr coef;        // Montgomery form
};

// All constraints in one array: constraint i's linear combination m (0 = A,
// 1 = B, 2 = C) is terms[starts[3i + m] .. starts[3i + m + 1]).
template <class E>
struct ConstraintMatrices {
  using Fr = typename E::Fr;

  uint32_t n_vars = 1;    // the constant 1 (wire 0) included
  uint32_t n_public = 0;  // wires 1 ... n_public: public outputs, then public inputs
  std::vector<Term<Fr>> terms;
  std::vector<uint64_t> starts{0};

  size_t n_constraints() const { return (starts.size() - 1) / 3; }
  std::span<const Term<Fr>> lc(size_t constraint, int m) const {
    const size_t k = 3 * constraint + m;
    return {terms.data() + starts[k], terms.data() + starts[k + 1]};
  }
};

}  // namespace cuzk::groth16
