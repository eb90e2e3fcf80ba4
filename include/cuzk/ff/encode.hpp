// Host-only conversions of field elements to and from their external forms:
// canonical little- and big-endian bytes, decimal strings, and random values.
// Every decoder rejects values >= p rather than reducing them: a non-canonical
// encoding in a file is an error, not a number.
#pragma once

#include <algorithm>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/fp.hpp"

namespace cuzk::ff {

template <class F>
void to_bytes_le(const F& a, std::span<uint8_t, F::bytes> out) {
  uint64_t v[F::N];
  a.to_canonical(v);
  for (size_t i = 0; i < F::bytes; ++i) out[i] = (uint8_t)(v[i / 8] >> (8 * (i % 8)));
}

template <class F>
void to_bytes_be(const F& a, std::span<uint8_t, F::bytes> out) {
  to_bytes_le(a, out);
  std::reverse(out.begin(), out.end());
}

template <class F>
bool from_bytes_le(std::span<const uint8_t, F::bytes> in, F& out) {
  uint64_t v[F::N] = {};
  for (size_t i = 0; i < F::bytes; ++i) v[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));
  return F::from_canonical(v, out);
}

template <class F>
bool from_bytes_be(std::span<const uint8_t, F::bytes> in, F& out) {
  uint8_t le[F::bytes];
  std::reverse_copy(in.begin(), in.end(), le);
  return from_bytes_le<F>(std::span<const uint8_t, F::bytes>(le, F::bytes), out);
}

template <class F>
std::string to_decimal(const F& a) {
  uint64_t v[F::N];
  a.to_canonical(v);
  return BigUint::from_limbs(v, F::N).to_decimal();
}

template <class F>
bool from_decimal(std::string_view s, F& out) {
  BigUint b;
  uint64_t v[F::N];
  return BigUint::from_decimal(s, b) && b.to_limbs(v, F::N) && F::from_canonical(v, out);
}

// Uniform in [0, p) by rejection sampling on the top limb's bit length.
template <class F, class Rng>
F random_element(Rng& rng) {
  const unsigned top_bits = F::bits - 64 * (F::N - 1);
  const uint64_t top_mask = top_bits == 64 ? ~0ull : (1ull << top_bits) - 1;
  std::uniform_int_distribution<uint64_t> dist;
  for (;;) {
    uint64_t v[F::N];
    for (auto& l : v) l = dist(rng);
    v[F::N - 1] &= top_mask;
    F out;
    if (F::from_canonical(v, out)) return out;
  }
}

}  // namespace cuzk::ff
