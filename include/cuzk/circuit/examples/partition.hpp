// Partition: a workload shaped like a Filecoin PoRep partition, whose witness
// is mostly bits (there, SHA-256 over labels; here, bit mixing) with a few
// hashes and a Merkle-like path, and three public inputs (id, leaf, root):
//
//   cur  = encrypt(leaf, id); bits = to_bits(cur, B)       B = Fr::bits
//   each level:
//     bits  = χ^M(bits)             M = 4 rounds of Keccak's χ on a ring of B
//                                   bits: b_i ⊕ (¬b_{i+s} ∧ b_{i+2s}), s = round + 1
//     (l, r) = bits[0] ? (sibling, pack(bits)) : (pack(bits), sibling)
//     cur   = encrypt(l, r); bits = to_bits(cur, B)
//   root = cur (public)
//   tail: a running parity of the last bits, 1 constraint a step, which pads
//         the count to exactly what for_constraints asked for.
//
// The siblings are private, drawn from the seed. Bits are 87% of the witness
// once there are levels (2^16 constraints and up), 67% at 2^10 (none fit).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/circuit/gadgets/bits.hpp"
#include "cuzk/circuit/gadgets/mimc.hpp"

namespace cuzk::circuit {

template <class E>
struct Partition {
  using Curve = E;
  using Fr = typename E::Fr;
  static constexpr uint32_t n_public = 3;
  static constexpr unsigned B = Fr::bits, M = 4;
  static constexpr uint64_t hash_cost = 3 * mimc::rounds, bits_cost = B + 1;
  static constexpr uint64_t head_cost = hash_cost + bits_cost + 1;  // the root's equality included
  // χ (an AND and an XOR a bit a round), pack, reverse, hash, to_bits.
  static constexpr uint64_t level_cost = 2 * M * B + 1 + 2 + hash_cost + bits_cost;

  uint64_t levels = 0;
  uint64_t tail = 0;
  uint64_t seed = 0;

  uint64_t constraints() const { return head_cost + levels * level_cost + tail; }

  // Exactly n − n_public − 1 constraints, so a power-of-two n is exactly its
  // domain; as many levels as fit, the rest tail.
  static Partition for_constraints(uint64_t n, uint64_t seed = 0) {
    const uint64_t budget = n > n_public + 1 ? n - n_public - 1 : 0;
    if (budget < head_cost)
      throw std::invalid_argument("Partition: " + std::to_string(n) + " constraints is too few; at least " +
                                  std::to_string(head_cost + n_public + 1) + " are needed");
    const uint64_t levels = (budget - head_cost) / level_cost;
    return {levels, budget - head_cost - levels * level_cost, seed};
  }

  template <class CS>
  void synthesize(CS& cs) const {
    const Variable id = cs.alloc_input("partition.id", [&](const auto&) { return seeded_element<Fr>(seed, 0); });
    const Variable leaf = cs.alloc_input("partition.leaf", [&](const auto&) { return seeded_element<Fr>(seed, 1); });
    std::vector<Boolean> bits(B), mixed(B);
    Variable cur = mimc::encrypt(cs, leaf, id);
    to_bits(cs, cur, std::span(bits));
    for (uint64_t level = 0; level < levels; ++level) {
      for (unsigned round = 0; round < M; ++round) {
        chi(cs, bits, mixed, round + 1);
        std::swap(bits, mixed);
      }
      const Variable packed = pack(cs, std::span<const Boolean>(bits));
      const Variable sibling =
          cs.alloc("partition.sibling", [&](const auto&) { return seeded_element<Fr>(seed, 2 + level); });
      const auto [l, r] = conditionally_reverse(cs, packed, sibling, bits[0]);
      cur = mimc::encrypt(cs, l, r);
      to_bits(cs, cur, std::span(bits));
    }
    const Variable root = cs.alloc_input("partition.root", [&](const auto& v) { return v[cur]; });
    cs.enforce("partition.root", cur, Variable::one(), root);
    Boolean parity = bits[0];
    for (uint64_t j = 0; j < tail; ++j) parity = bit_xor(cs, parity, bits[(j + 1) % B]);
  }

 private:
  template <class CS>
  static void chi(CS& cs, const std::vector<Boolean>& in, std::vector<Boolean>& out, unsigned s) {
    for (unsigned i = 0; i < B; ++i)
      out[i] = bit_xor(cs, in[i], bit_and(cs, !in[(i + s) % B], in[(i + 2 * s) % B]));
  }
};

}  // namespace cuzk::circuit
