// Bit decomposition and packing, little-endian.
//
// to_bits(x, n) allocates n bits and one packing constraint Σ 2^i·b_i = x, for
// 1 <= n <= Fr::bits:
//   - n < Fr::bits (n <= 253 on BN254, n <= 254 on BLS12-381): 2^n < p, so the
//     sum cannot wrap; the bits are unique and the constraint proves x < 2^n;
//   - n = Fr::bits: any x decomposes, but x and x + p (when below 2^n) both
//     satisfy it; the witness always holds the canonical bits, and a circuit
//     that needs uniqueness must add a check that the bits are below p, which
//     this gadget does not provide (bellman's into_bits_le, not _strict).
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <string>

#include "cuzk/circuit/gadgets/boolean.hpp"

namespace cuzk::circuit {

// 2^i for i < Fr::bits, built once per field.
template <class Fr>
const Fr& pow2(unsigned i) {
  static const auto table = [] {
    std::array<Fr, Fr::bits> t;
    t[0] = Fr::one();
    for (unsigned k = 1; k < Fr::bits; ++k) t[k] = t[k - 1].dbl();
    return t;
  }();
  return table[i];
}

template <class Fr>
void check_width(size_t n, const char* gadget) {
  if (n == 0 || n > Fr::bits)
    throw std::invalid_argument(std::string(gadget) + ": " + std::to_string(n) + " bits; 1 ... " +
                                std::to_string(Fr::bits) + " are supported");
}

// Σ 2^i·bits[i], as an lc builder.
template <class Fr>
auto packed(std::span<const Boolean> bits) {
  return [bits](auto lc) {
    for (unsigned i = 0; i < bits.size(); ++i) lc = bits[i].add_to(lc, pow2<Fr>(i));
    return lc;
  };
}

// Writes the n = out.size() bits of x to out (see above for the range of n).
template <class CS>
void to_bits(CS& cs, Variable x, std::span<Boolean> out) {
  using Fr = typename CS::Fr;
  check_width<Fr>(out.size(), "to_bits");
  uint64_t limbs[Fr::N] = {};
  cs.with_values([&](const auto& v) { v[x].to_canonical(limbs); });
  for (unsigned i = 0; i < out.size(); ++i)
    out[i] = alloc_bit(cs, "to_bits.bit", [&](const auto&) { return (limbs[i / 64] >> (i % 64)) & 1; });
  cs.enforce("to_bits.pack", packed<Fr>(out), Variable::one(), x);
}

// A new variable holding Σ 2^i·bits[i] (one constraint), 1 ... Fr::bits bits.
template <class CS>
Variable pack(CS& cs, std::span<const Boolean> bits) {
  using Fr = typename CS::Fr;
  check_width<Fr>(bits.size(), "pack");
  const Variable x = cs.alloc("pack", [&](const auto& v) {
    Fr acc = Fr::zero();
    for (size_t i = bits.size(); i-- > 0;) acc = bits[i].value(v) ? acc.dbl() + Fr::one() : acc.dbl();
    return acc;
  });
  cs.enforce("pack", packed<Fr>(bits), Variable::one(), x);
  return x;
}

}  // namespace cuzk::circuit
