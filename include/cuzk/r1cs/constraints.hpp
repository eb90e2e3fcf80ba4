// An R1CS instance as matrices: constraint i is <A_i, w> · <B_i, w> = <C_i, w>
// over the witness w = (1, public signals, private signals). A circom .r1cs
// file (io/r1cs.hpp) and a native circuit (circuit/) both produce it; the
// development setup (groth16/setup.hpp) consumes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/util/parallel.hpp"

namespace cuzk::r1cs {

template <class Fr>
struct Term {
  uint32_t wire;  // < n_vars
  Fr coef;        // Montgomery form
};

// All constraints in one array: constraint i's linear combination m (0 = A,
// 1 = B, 2 = C) is terms[starts[3i + m] .. starts[3i + m + 1]).
template <class E>
struct ConstraintMatrices {
  using CurveTypes = E;  // for generic lambdas over R1cs::visit
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

// <lc, w> for one linear combination.
template <class Fr>
Fr evaluate(std::span<const Term<Fr>> lc, std::span<const Fr> w) {
  Fr sum = Fr::zero();
  for (const Term<Fr>& t : lc) sum += t.coef * w[t.wire];
  return sum;
}

// The first constraint that w (n_vars values) does not satisfy, or none: what
// `snarkjs wtns check` reports, in one threaded pass over the matrices. A
// zkey stores only A and B, so a prover given a zkey cannot tell which
// constraint a bad witness breaks; this names it.
template <class E>
std::optional<size_t> first_unsatisfied(const ConstraintMatrices<E>& m, std::span<const typename E::Fr> w) {
  using Fr = typename E::Fr;
  const size_t n = m.n_constraints();
  std::atomic<size_t> first{n};
  parallel_chunks(n, [&](size_t begin, size_t end, size_t) {
    for (size_t i = begin; i < std::min(end, first.load(std::memory_order_relaxed)); ++i) {
      if (evaluate<Fr>(m.lc(i, 0), w) * evaluate<Fr>(m.lc(i, 1), w) == evaluate<Fr>(m.lc(i, 2), w)) continue;
      for (size_t seen = first.load(); i < seen && !first.compare_exchange_weak(seen, i);) {
      }
      return;
    }
  });
  return first.load() < n ? std::optional<size_t>(first.load()) : std::nullopt;
}

}  // namespace cuzk::r1cs
