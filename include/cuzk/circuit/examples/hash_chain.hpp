// HashChain: `steps` MiMC rounds keyed by the public seed x_0,
//
//   x_{i+1} = (x_i + x_0 + c_{i mod R})^5,   public x_0 and x_steps,
//
// with the intermediate states (t², t⁴, t⁵ of each round) private: 3·steps + 1
// constraints, every witness value a full-width field element. The first R
// steps are mimc::encrypt(x_0, x_0); mimc::iterate is the reference.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuzk/circuit/gadgets/mimc.hpp"

namespace cuzk::circuit {

template <class E>
struct HashChain {
  using Curve = E;
  using Fr = typename E::Fr;
  static constexpr uint32_t n_public = 2;

  uint64_t steps = 1;
  uint64_t seed = 0;

  static constexpr uint64_t constraints(uint64_t steps) { return 3 * steps + 1; }

  // The longest chain whose constraints and public rows fit n rows: at most
  // n − n_public − 1 constraints, so a power-of-two n is exactly its domain.
  static HashChain for_constraints(uint64_t n, uint64_t seed = 0) {
    if (n < n_public + 1 + constraints(1))
      throw std::invalid_argument("HashChain: " + std::to_string(n) + " constraints is too few for one step");
    return {(n - n_public - 2) / 3, seed};
  }

  Fr x0() const { return seeded_element<Fr>(seed, 0); }
  Fr output() const { return mimc::iterate(x0(), x0(), steps); }

  template <class CS>
  void synthesize(CS& cs) const {
    const Variable x0v = cs.alloc_input("hash_chain.x0", [&](const auto&) { return x0(); });
    const Variable xn = mimc::iterate(cs, x0v, x0v, steps);
    const Variable out = cs.alloc_input("hash_chain.out", [&](const auto& v) { return v[xn]; });
    cs.enforce("hash_chain.out", xn, Variable::one(), out);
  }
};

}  // namespace cuzk::circuit
