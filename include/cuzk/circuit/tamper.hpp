// Fault injection for tests: a circuit whose witness is wrong in one place.
// Tampered{circuit, k} synthesizes `circuit` with the value of its k-th private
// allocation (aux index k) increased by one after it is computed, so later
// values are derived from the wrong one as a buggy witness generator would
// derive them. Shape and matrices are the circuit's own. The witness fails
// wherever that variable is constrained; a free private input (one nothing
// determines) stays satisfiable.
#pragma once

#include <cstdint>

#include "cuzk/circuit/shape.hpp"

namespace cuzk::circuit {

template <class CS>
class TamperCS {
 public:
  using Fr = typename CS::Fr;

  TamperCS(CS& cs, uint64_t target) : cs_(cs), target_(target) {}

  template <class F>
  Variable alloc_input(const char* name, F&& value) {
    return cs_.alloc_input(name, value);
  }
  template <class F>
  Variable alloc(const char* name, F&& value) {
    const bool hit = next_++ == target_;
    return cs_.alloc(name, [&](const auto& v) { return hit ? value(v) + Fr::one() : value(v); });
  }
  template <class A, class B, class C>
  void enforce(const char* name, const A& a, const B& b, const C& c) {
    cs_.enforce(name, a, b, c);
  }
  template <class F>
  void with_values(F&& f) {
    cs_.with_values(f);
  }

 private:
  CS& cs_;
  uint64_t target_, next_ = 0;
};

template <Circuit C>
struct Tampered {
  using Curve = typename C::Curve;

  // Held by value: a Tampered made from a temporary (a source's lambda that
  // returns Tampered{HashChain::for_constraints(...), k}) would otherwise
  // outlive its circuit, which the engine tests did until -O1 showed it.
  C circuit;
  uint64_t aux_index;

  template <class CS>
  void synthesize(CS& cs) const {
    TamperCS<CS> t(cs, aux_index);
    circuit.synthesize(t);
  }
};

}  // namespace cuzk::circuit
