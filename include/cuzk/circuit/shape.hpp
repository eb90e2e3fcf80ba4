// The counting pass: a circuit's sizes without matrices or values, and the
// evaluation-domain rule that follows from them. The other passes run it
// first, to place aux wires after the public ones and to check buffer sizes
// before writing anything.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>

#include "cuzk/circuit/lc.hpp"

namespace cuzk::circuit {

struct Shape {
  uint32_t n_public = 0;   // public inputs, wires 1 ... n_public
  uint32_t n_vars = 1;     // the constant one (wire 0) included
  uint64_t n_constraints = 0;

  friend bool operator==(const Shape&, const Shape&) = default;
};

// snarkjs's domain: 2^(floor(log2(n_constraints + n_public)) + 1) rows, room
// for every constraint plus one row per public signal and one for wire 0.
inline size_t domain_size_for(const Shape& s) {
  return size_t(1) << std::bit_width(s.n_constraints + s.n_public);
}

// Fresh variables in allocation order; every pass numbers them the same way.
struct Counter {
  uint32_t inputs = 0, aux = 0;
  uint64_t constraints = 0;

  Variable next_input() { return {++inputs, false}; }
  Variable next_aux() { return {aux++, true}; }
  Shape shape() const { return {inputs, 1 + inputs + aux, constraints}; }
};

// Counts and nothing else: value closures and lc builders are never called.
template <class Fr_>
class ShapeCS {
 public:
  using Fr = Fr_;

  template <class F>
  Variable alloc_input(const char*, F&&) {
    return count_.next_input();
  }
  template <class F>
  Variable alloc(const char*, F&&) {
    return count_.next_aux();
  }
  template <class A, class B, class C>
  void enforce(const char*, const A&, const B&, const C&) {
    ++count_.constraints;
  }
  template <class F>
  void with_values(F&&) {}

  Shape shape() const { return count_.shape(); }

 private:
  Counter count_;
};

// std::logic_error when a pass saw other allocations or constraints than the
// shape pass: the circuit's structure depended on something other than its
// parameters, so the passes cannot share wire numbers or buffer sizes.
inline void expect_shape(const Shape& expected, const Shape& seen) {
  if (seen != expected) throw std::logic_error("circuit: synthesis differs from its shape pass");
}

template <class C>
concept Circuit = requires(const C& c, ShapeCS<typename C::Curve::Fr>& cs) { c.synthesize(cs); };

template <Circuit C>
using FrOf = typename C::Curve::Fr;

template <Circuit C>
Shape shape_of(const C& circuit) {
  ShapeCS<FrOf<C>> cs;
  circuit.synthesize(cs);
  return cs.shape();
}

}  // namespace cuzk::circuit
