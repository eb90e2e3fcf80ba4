// Shared by the circuit tests: gadget-sized circuits from a lambda, a witness
// run with buffers sized by the rules, and checks of a witness against the
// constraint matrices that share no code with the witness synthesizer.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cuzk/circuit/matrices.hpp"
#include "cuzk/circuit/witness.hpp"
#include "cuzk/ec/curves.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/r1cs/constraints.hpp"
#include "noble.hpp"

namespace cuzk::test {

using Curves = ::testing::Types<ec::Bn254, ec::Bls12_381>;

// A circuit whose synthesize is f(cs), for testing gadgets one at a time.
template <class E, class F>
struct LambdaCircuit {
  using Curve = E;
  F f;
  template <class CS>
  void synthesize(CS& cs) const {
    f(cs);
  }
};
template <class E, class F>
LambdaCircuit<E, F> circuit_of(F f) {
  return {f};
}

template <class Fr>
struct Synthesized {
  circuit::Shape shape;
  std::vector<Fr> w, a, b, c;

  const Fr& value(circuit::Variable x) const { return w[x.wire(shape.n_public)]; }
};

template <class C>
Synthesized<circuit::FrOf<C>> synthesize(const C& c) {
  Synthesized<circuit::FrOf<C>> s;
  s.shape = circuit::shape_of(c);
  const size_t rows = circuit::domain_size_for(s.shape);
  s.w.resize(s.shape.n_vars);
  s.a.resize(rows);
  s.b.resize(rows);
  s.c.resize(rows);
  circuit::synthesize_witness(c, s.w, s.a, s.b, s.c);
  return s;
}

template <class Fr>
Fr dot(std::span<const r1cs::Term<Fr>> lc, std::span<const Fr> w) {
  Fr acc = Fr::zero();
  for (const auto& t : lc) acc += t.coef * w[t.wire];
  return acc;
}

// a, b, c are A·w, B·w, C·w on the constraint rows, then snarkjs's public
// rows (a = w[s] for s = 0 ... n_public, b = c = 0), then zero.
template <class E>
void expect_abc_layout(const r1cs::ConstraintMatrices<E>& m, const Synthesized<typename E::Fr>& s) {
  using Fr = typename E::Fr;
  const size_t n = m.n_constraints();
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(s.a[i], dot<Fr>(m.lc(i, 0), s.w)) << "row " << i;
    ASSERT_EQ(s.b[i], dot<Fr>(m.lc(i, 1), s.w)) << "row " << i;
    ASSERT_EQ(s.c[i], dot<Fr>(m.lc(i, 2), s.w)) << "row " << i;
  }
  for (size_t i = n; i < s.a.size(); ++i) {
    const size_t k = i - n;
    ASSERT_EQ(s.a[i], k <= m.n_public ? s.w[k] : Fr::zero()) << "row " << i;
    ASSERT_TRUE(s.b[i].is_zero() && s.c[i].is_zero()) << "row " << i;
  }
}

// MiMC's x_n for each (x, k, n) from tests/oracle/mimc.py: the cipher written
// again from mimc.hpp's definition with Python's integers, sharing no code
// with the C++ reference or the gadget.
template <class E>
std::vector<typename E::Fr> mimc_oracle(const std::vector<std::tuple<typename E::Fr, typename E::Fr, uint64_t>>& in) {
  std::string command = std::string("python3 tests/oracle/mimc.py ") +
                        (std::is_same_v<E, ec::Bn254> ? "bn254" : "bls12_381");
  for (const auto& [x, k, n] : in) command += " " + ff::to_decimal(x) + " " + ff::to_decimal(k) + " " + std::to_string(n);
  std::istringstream lines(oracle_output(command));
  std::vector<typename E::Fr> out;
  for (std::string line; std::getline(lines, line);) out.push_back(parse_fq<typename E::Fr>(line));
  if (out.size() != in.size()) throw std::runtime_error("tests/oracle/mimc.py gave " + std::to_string(out.size()) +
                                                        " values for " + std::to_string(in.size()) + " inputs");
  return out;
}

}  // namespace cuzk::test
