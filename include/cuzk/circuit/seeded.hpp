// Deterministic field elements from a 64-bit seed, for round constants and the
// example circuits' witness data. Element i of stream `seed` has the canonical
// limbs splitmix64(seed + (N·i + j + 1)·γ) for j = 0 ... N − 1 (SplitMix64, Steele,
// Lea and Flood 2014; γ = 0x9e3779b97f4a7c15), the value cut to bits − 1 bits
// so that it is below p without rejection. Random access: a circuit draws its
// k-th value without replaying a stream. The top bit is always clear, which is
// fine for data and constants and wrong for secrets.
#pragma once

#include <cstdint>

namespace cuzk::circuit {

constexpr uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class Fr>
Fr seeded_element(uint64_t seed, uint64_t i) {
  constexpr unsigned top_bits = Fr::bits - 1 - 64 * (Fr::N - 1);
  uint64_t v[Fr::N];
  for (size_t j = 0; j < Fr::N; ++j) v[j] = splitmix64(seed + (Fr::N * i + j + 1) * 0x9e3779b97f4a7c15ull);
  v[Fr::N - 1] &= (uint64_t(1) << top_bits) - 1;
  return Fr::from_canonical_unchecked(v);
}

}  // namespace cuzk::circuit
