// The witness pass, the hot one (2^20 ... 2^27 constraints a partition): the
// witness and a = A·w, b = B·w, c = C·w on every row of the domain, written
// straight into the caller's buffers (pinned ones on the GPU path, so never
// allocated here). Each lc is evaluated as it is built, so no constraint
// allocates, and each constraint is checked as its row is written.
#pragma once

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/circuit/shape.hpp"

namespace cuzk::circuit {

// A constraint the witness does not satisfy; the buffers are left part-written.
class Unsatisfied : public std::runtime_error {
 public:
  Unsatisfied(uint64_t constraint, const char* name)
      : std::runtime_error("circuit: constraint " + std::to_string(constraint) + " (" + name + ") is not satisfied"),
        constraint_(constraint) {}
  uint64_t constraint() const { return constraint_; }

 private:
  uint64_t constraint_;
};

// k·x, skipping the multiplication when x is 0 or 1, which most witness
// values are (bits, and the constant one).
template <class Fr>
Fr times(const Fr& k, const Fr& x) {
  if (x.is_zero()) return Fr::zero();
  return x.is_one() ? k : k * x;
}

// What value closures read: the values of variables allocated so far.
template <class Fr>
struct Values {
  const Fr* inputs;  // w[0 ...]: the constant one, then the public inputs
  const Fr* aux;     // w[1 + n_public ...]
  const Fr& operator[](Variable x) const { return (x.aux ? aux : inputs)[x.index]; }
};

template <class Fr_>
class WitnessCS {
 public:
  using Fr = Fr_;

  struct Lc : LcOps<Lc, Fr> {
    Values<Fr> v;
    Fr acc = Fr::zero();

    void add(Variable x) { acc += v[x]; }
    void sub(Variable x) { acc -= v[x]; }
    void add(const Fr& k, Variable x) { acc += times(k, v[x]); }
  };

  // w holds shape.n_vars values, a, b and c domain_size_for(shape) rows each,
  // or all three are empty: then only w is written (every constraint is still
  // checked), for a prover that computes a, b, c itself from the key's rows.
  // std::invalid_argument otherwise.
  WitnessCS(const Shape& shape, std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c)
      : shape_(shape), w_(w), a_(a), b_(b), c_(c), rows_(!(a.empty() && b.empty() && c.empty())) {
    if (w.size() != shape.n_vars)
      throw std::invalid_argument("circuit: the witness buffer holds " + std::to_string(w.size()) +
                                  " values, the circuit has " + std::to_string(shape.n_vars) + " variables");
    const size_t rows = domain_size_for(shape);
    if (rows_ && (a.size() != rows || b.size() != rows || c.size() != rows))
      throw std::invalid_argument("circuit: a, b and c must hold " + std::to_string(rows) +
                                  " rows each (the domain), not " + std::to_string(a.size()) + ", " +
                                  std::to_string(b.size()) + ", " + std::to_string(c.size()));
    w_[0] = Fr::one();
  }

  // The bounds checks guard the caller's buffers against a circuit whose
  // structure depends on its values (expect_shape reports it at the end).
  template <class F>
  Variable alloc_input(const char*, F&& value) {
    const Variable x = count_.next_input();
    if (x.index > shape_.n_public) expect_shape(shape_, count_.shape());
    w_[x.index] = value(values());
    return x;
  }
  template <class F>
  Variable alloc(const char*, F&& value) {
    const Variable x = count_.next_aux();
    if (1 + shape_.n_public + x.index >= shape_.n_vars) expect_shape(shape_, count_.shape());
    w_[1 + shape_.n_public + x.index] = value(values());
    return x;
  }
  template <class A, class B, class C>
  void enforce(const char* name, const A& a, const B& b, const C& c) {
    const uint64_t i = count_.constraints++;
    if (i >= shape_.n_constraints) expect_shape(shape_, count_.shape());
    const Fr x = eval(a);
    const Fr y = same_object(a, b) ? x : eval(b);  // a square: t·t
    const Fr z = eval(c);
    if (times(x, y) != z) throw Unsatisfied(i, name);
    if (!rows_) return;
    a_[i] = x;
    b_[i] = y;
    c_[i] = z;
  }
  template <class F>
  void with_values(F&& f) {
    f(values());
  }

  // The rows after the constraints, in snarkjs's zkey layout: row
  // n_constraints + s has a = w[s] for s = 0 ... n_public (b = c = 0), which
  // ties the public signals to the proof; the rest of the domain is zero.
  void finish() {
    expect_shape(shape_, count_.shape());
    if (!rows_) return;
    const size_t rows = shape_.n_constraints;
    std::fill(a_.begin() + rows, a_.end(), Fr::zero());
    std::fill(b_.begin() + rows, b_.end(), Fr::zero());
    std::fill(c_.begin() + rows, c_.end(), Fr::zero());
    std::copy_n(w_.begin(), shape_.n_public + 1, a_.begin() + rows);
  }

 private:
  Values<Fr> values() const { return {w_.data(), w_.data() + 1 + shape_.n_public}; }

  // A lone variable is read, not added to zero: most gadget constraints have
  // one, and the witness pass is bound by field operations.
  template <class S>
  Fr eval(const S& s) const {
    if constexpr (std::is_same_v<S, Variable>)
      return values()[s];
    else
      return build(Lc{{}, values()}, s).acc;
  }
  template <class A, class B>
  static bool same_object(const A& a, const B& b) {
    if constexpr (std::is_same_v<A, B>)
      return &a == &b;
    else
      return false;
  }

  Shape shape_;
  Counter count_;
  std::span<Fr> w_, a_, b_, c_;
  bool rows_;  // a, b, c are written
};

// Writes the witness w (Montgomery form, n_vars values) and a, b, c (the
// domain's rows each) for `circuit`. Throws std::invalid_argument for buffers
// of the wrong size (before writing anything) and Unsatisfied for the first
// constraint the witness does not satisfy.
template <Circuit C>
void synthesize_witness(const C& circuit, std::span<FrOf<C>> w, std::span<FrOf<C>> a, std::span<FrOf<C>> b,
                        std::span<FrOf<C>> c) {
  WitnessCS<FrOf<C>> cs(shape_of(circuit), w, a, b, c);
  circuit.synthesize(cs);
  cs.finish();
}

// A witness and its a, b, c in vectors of their own: for tools and tests. The
// hot path writes into the buffers it is given (synthesize_witness).
template <class Fr>
struct Assignment {
  std::vector<Fr> w, a, b, c;
};

template <Circuit C>
Assignment<FrOf<C>> synthesize_assignment(const C& circuit) {
  const Shape shape = shape_of(circuit);
  const size_t rows = domain_size_for(shape);
  Assignment<FrOf<C>> out{std::vector<FrOf<C>>(shape.n_vars), std::vector<FrOf<C>>(rows),
                          std::vector<FrOf<C>>(rows), std::vector<FrOf<C>>(rows)};
  synthesize_witness(circuit, std::span<FrOf<C>>(out.w), std::span<FrOf<C>>(out.a), std::span<FrOf<C>>(out.b),
                     std::span<FrOf<C>>(out.c));
  return out;
}

}  // namespace cuzk::circuit
