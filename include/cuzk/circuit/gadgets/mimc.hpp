// MiMC with the S-box x^5 over Fr (Albrecht et al. 2016, "MiMC"), keyed by k:
//
//   x_{i+1} = (x_i + k + c_{i mod R})^5,   encrypt(x, k) = x_R,   R = 110,
//
// without the textbook cipher's final key addition. x^5 is a permutation of
// Fr because gcd(5, p − 1) = 1 on both curves, and R = ⌈log_5 p⌉ on both
// (tests check both). The round constants are c_i = seeded_element<Fr>(
// constants_seed, i) (seeded.hpp), from the seed "mimc5" in ASCII. These are
// workloads for the prover with a known answer, not a vetted hash.
//
// Each function is given twice, as a plain reference over Fr and as a gadget
// (3 constraints a round: t² , t⁴ and t⁵ for t = x + k + c).
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/circuit/lc.hpp"
#include "cuzk/circuit/seeded.hpp"

namespace cuzk::circuit::mimc {

inline constexpr unsigned rounds = 110;
inline constexpr uint64_t constants_seed = 0x6d696d6335;  // "mimc5"

template <class Fr>
const std::array<Fr, rounds>& constants() {
  static const auto table = [] {
    std::array<Fr, rounds> c;
    for (unsigned i = 0; i < rounds; ++i) c[i] = seeded_element<Fr>(constants_seed, i);
    return c;
  }();
  return table;
}

template <class Fr>
Fr pow5(const Fr& t) {
  return t.sqr().sqr() * t;
}

// n rounds from round 0; rounds past R reuse the constants cyclically.
template <class Fr>
Fr iterate(Fr x, const Fr& k, uint64_t n) {
  const auto& c = constants<Fr>();
  for (uint64_t i = 0; i < n; ++i) x = pow5(x + k + c[i % rounds]);
  return x;
}

template <class Fr>
Fr encrypt(const Fr& x, const Fr& k) {
  return iterate(x, k, rounds);
}

// One round as a gadget: (x + k + c)^5 as a new variable.
template <class CS>
Variable round(CS& cs, Variable x, Variable k, const typename CS::Fr& c) {
  const auto t = [&](auto lc) { return lc + x + k + c; };
  const auto t_value = [&](const auto& v) { return v[x] + v[k] + c; };
  const Variable t2 = cs.alloc("mimc.t2", [&](const auto& v) { return t_value(v).sqr(); });
  cs.enforce("mimc.t2", t, t, t2);
  const Variable t4 = cs.alloc("mimc.t4", [&](const auto& v) { return v[t2].sqr(); });
  cs.enforce("mimc.t4", t2, t2, t4);
  const Variable t5 = cs.alloc("mimc.t5", [&](const auto& v) { return v[t4] * t_value(v); });
  cs.enforce("mimc.t5", t4, t, t5);
  return t5;
}

template <class CS>
Variable iterate(CS& cs, Variable x, Variable k, uint64_t n) {
  const auto& c = constants<typename CS::Fr>();
  for (uint64_t i = 0; i < n; ++i) x = round(cs, x, k, c[i % rounds]);
  return x;
}

template <class CS>
Variable encrypt(CS& cs, Variable x, Variable k) {
  return iterate(cs, x, k, rounds);
}

}  // namespace cuzk::circuit::mimc
