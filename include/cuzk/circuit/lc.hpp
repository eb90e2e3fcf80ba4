// The vocabulary circuits are written in: variables, terms, and the operators
// that build a linear combination, shared by every synthesizer.
//
// A circuit is a class with `using Curve = E;` and
// `template <class CS> void synthesize(CS& cs) const`. It talks to `cs` through
//
//   Variable cs.alloc_input(name, value)   a public input
//   Variable cs.alloc(name, value)         a private variable
//   void     cs.enforce(name, a, b, c)     <a,w> · <b,w> = <c,w>
//   void     cs.with_values(f)             f(v), only when computing a witness
//   typename CS::Fr                        the scalar field
//
// `value` is a closure `(const auto& v) -> Fr` in which v[x] reads a variable
// allocated earlier; only the witness pass calls it, so the shape and matrices
// passes never compute a value. a, b and c are linear combinations, written as
// builders `[&](auto lc) { return lc + x - k * y + k0; }` or as one Variable,
// Term or Boolean. Each synthesizer hands the builders its own kind of lc (the
// matrices pass one that collects terms, the witness pass one that evaluates
// them on the spot; the shape pass calls no builder): that is bellman's design,
// and it is what keeps the witness pass free of per-constraint allocation.
// Names are string literals, kept by pointer and quoted by an Unsatisfied error.
//
// Every pass must see the same sequence of allocations and constraints: the
// structure of a circuit may depend on its parameters, never on its values.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cuzk::circuit {

// bellman's two index spaces, because public and private allocations may
// interleave: inputs (0 is the constant one, then public inputs in allocation
// order) and aux (private, in allocation order). Wires follow snarkjs once
// n_public is known: input i -> wire i, aux j -> wire 1 + n_public + j.
struct Variable {
  uint32_t index;
  bool aux;

  static constexpr Variable one() { return {0, false}; }
  constexpr uint32_t wire(uint32_t n_public) const { return aux ? 1 + n_public + index : index; }
  friend constexpr bool operator==(const Variable&, const Variable&) = default;
};

template <class Fr>
struct Term {
  Fr coef;
  Variable var;
};

template <class Fr>
Term<Fr> operator*(const Fr& coef, Variable var) {
  return {coef, var};
}

// The operators on a linear combination, for every kind of lc (CRTP). A kind
// provides three primitives: add(x) for +x, sub(x) for -x, add(k, x) for +k·x.
// Constants are multiples of Variable::one().
template <class Self, class Fr>
struct LcOps {
  friend Self operator+(Self lc, Variable x) {
    lc.add(x);
    return lc;
  }
  friend Self operator-(Self lc, Variable x) {
    lc.sub(x);
    return lc;
  }
  friend Self operator+(Self lc, const Term<Fr>& t) {
    lc.add(t.coef, t.var);
    return lc;
  }
  friend Self operator-(Self lc, const Term<Fr>& t) {
    lc.add(-t.coef, t.var);
    return lc;
  }
  friend Self operator+(Self lc, const Fr& k) {
    lc.add(k, Variable::one());
    return lc;
  }
  friend Self operator-(Self lc, const Fr& k) {
    lc.add(-k, Variable::one());
    return lc;
  }
};

// An enforce argument applied to an empty lc: a builder is called, anything
// else is added.
template <class LC, class S>
LC build(LC lc, const S& s) {
  if constexpr (std::is_invocable_v<const S&, LC>)
    return s(lc);
  else
    return lc + s;
}

// The empty linear combination, as an enforce argument.
inline constexpr auto zero_lc = [](auto lc) { return lc; };

}  // namespace cuzk::circuit
