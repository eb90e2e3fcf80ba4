// Which variables a key under bellman's convention holds A and B points for
// (reduction.hpp: dense_ab). bellperson's generator leaves out of A,
// B_G1 and B_G2 the variables whose polynomial there is zero, and its prover
// skips their scalars; the supraseal-c2 ABI passes the same sets as bitmaps of
// 64-bit words. A variable is in a matrix's density when some constraint gives
// it a non-zero coefficient there, terms of one linear combination summed
// first (bellpepper merges them). Every input is in A's: bellman adds the
// constraint input·0 = 0 for each.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/r1cs/constraints.hpp"

namespace cuzk::groth16 {

struct Density {
  std::vector<uint64_t> words;  // bit i % 64 of words[i / 64]: variable i has a point
  size_t n_vars = 0;

  Density() = default;
  explicit Density(size_t n) : words((n + 63) / 64, 0), n_vars(n) {}
  bool has(size_t i) const { return words[i / 64] >> (i % 64) & 1; }
  void set(size_t i) { words[i / 64] |= uint64_t{1} << (i % 64); }
  size_t count() const {
    size_t c = 0;
    for (uint64_t w : words) c += (size_t)std::popcount(w);
    return c;
  }
  friend bool operator==(const Density&, const Density&) = default;

  // f(i) for each variable i < n_vars that has a point, in order.
  template <class F>
  void for_each(F&& f) const {
    for (size_t j = 0; j < words.size(); ++j)
      for (uint64_t bits = words[j]; bits; bits &= bits - 1) {
        const size_t i = j * 64 + (size_t)std::countr_zero(bits);
        if (i >= n_vars) return;
        f(i);
      }
  }

  // Variables [from, from + n) as a bitmap of their own, bit i in word i / 64:
  // how supraseal-c2's callers pass a density (inputs and private variables
  // apart).
  std::vector<uint64_t> bitmap(size_t from, size_t n) const {
    std::vector<uint64_t> out((n + 63) / 64, 0);
    for (size_t i = 0; i < n; ++i)
      if (has(from + i)) out[i / 64] |= uint64_t{1} << (i % 64);
    return out;
  }
  // The inverse: the first `bits` bits of such a bitmap set from variable `at`
  // on, a word at a time (a Filecoin partition's hold 10^8 bits; the bits past
  // `bits` in the last word are ignored, bitvec leaves them); how many were set.
  size_t set_from_bitmap(const uint64_t* bitmap_words, size_t bits, size_t at) {
    size_t set = 0;
    for (size_t w = 0; 64 * w < bits; ++w) {
      uint64_t v = bitmap_words[w];
      if (const size_t valid = bits - 64 * w; valid < 64) v &= (uint64_t{1} << valid) - 1;
      set += (size_t)std::popcount(v);
      const size_t pos = at + 64 * w, shift = pos % 64;
      words[pos / 64] |= v << shift;
      if (shift && v >> (64 - shift)) words[pos / 64 + 1] |= v >> (64 - shift);
    }
    return set;
  }

  // The values of the variables that have a point, in order: what an MSM over
  // the dense points takes. `out` must hold count() values.
  template <class Fr>
  void gather(std::span<const Fr> w, std::span<Fr> out) const {
    size_t k = 0;
    for_each([&](size_t i) { out[k++] = w[i]; });
  }
};

// The densities of A (matrix 0) and B (matrix 1) of a circuit.
template <class E>
Density column_density(const r1cs::ConstraintMatrices<E>& m, int matrix);

extern template Density column_density(const r1cs::ConstraintMatrices<ec::Bn254>&, int);
extern template Density column_density(const r1cs::ConstraintMatrices<ec::Bls12_381>&, int);

}  // namespace cuzk::groth16
