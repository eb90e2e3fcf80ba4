// Booleans (bellman's Boolean): a variable constrained to 0 or 1, possibly
// negated, so that NOT costs nothing; AND and XOR at one constraint each; and
// selection by a bit. A constant is the variable one, negated for false.
#pragma once

#include <utility>

#include "cuzk/circuit/lc.hpp"

namespace cuzk::circuit {

struct Boolean {
  Variable var;
  bool negated = false;

  static constexpr Boolean constant(bool b) { return {Variable::one(), !b}; }
  constexpr Boolean operator!() const { return {var, !negated}; }

  // lc + k·this, where this is var or 1 − var.
  template <class LC, class Fr>
  LC add_to(LC lc, const Fr& k) const {
    return negated ? lc + k - k * var : lc + k * var;
  }
  // As an enforce argument: 1·this.
  template <class LC>
  LC operator()(LC lc) const {
    return negated ? lc + Variable::one() - var : lc + var;
  }
  template <class V>
  bool value(const V& v) const {
    return v[var].is_zero() == negated;
  }
};

// A new bit, constrained by (1 − b)·b = 0. value: (const auto& v) -> bool.
template <class CS, class F>
Boolean alloc_bit(CS& cs, const char* name, F&& value) {
  using Fr = typename CS::Fr;
  const Variable b = cs.alloc(name, [&](const auto& v) { return value(v) ? Fr::one() : Fr::zero(); });
  cs.enforce(name, !Boolean{b}, b, zero_lc);
  return {b};
}

// x ∧ y: x·y = r.
template <class CS>
Boolean bit_and(CS& cs, Boolean x, Boolean y) {
  using Fr = typename CS::Fr;
  const Variable r = cs.alloc("and", [&](const auto& v) { return x.value(v) && y.value(v) ? Fr::one() : Fr::zero(); });
  cs.enforce("and", x, y, r);
  return {r};
}

// x ⊕ y: 2x·y = x + y − r.
template <class CS>
Boolean bit_xor(CS& cs, Boolean x, Boolean y) {
  using Fr = typename CS::Fr;
  const Variable r = cs.alloc("xor", [&](const auto& v) { return x.value(v) != y.value(v) ? Fr::one() : Fr::zero(); });
  cs.enforce("xor", [&](auto lc) { return x(x(lc)); }, y, [&](auto lc) { return y(x(lc)) - r; });
  return {r};
}

// (x, y) if bit is 0, (y, x) if it is 1 (bellman's conditionally_reverse):
// (y − x)·bit = x' − x and (x − y)·bit = y' − y.
template <class CS>
std::pair<Variable, Variable> conditionally_reverse(CS& cs, Variable x, Variable y, Boolean bit) {
  const Variable xr = cs.alloc("reverse.x", [&](const auto& v) { return bit.value(v) ? v[y] : v[x]; });
  cs.enforce("reverse.x", [&](auto lc) { return lc + y - x; }, bit, [&](auto lc) { return lc + xr - x; });
  const Variable yr = cs.alloc("reverse.y", [&](const auto& v) { return bit.value(v) ? v[x] : v[y]; });
  cs.enforce("reverse.y", [&](auto lc) { return lc + x - y; }, bit, [&](auto lc) { return lc + yr - y; });
  return {xr, yr};
}

}  // namespace cuzk::circuit
