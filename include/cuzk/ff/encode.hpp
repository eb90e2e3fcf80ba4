// Host-only conversions of field elements to and from their external forms:
// canonical little- and big-endian bytes, decimal strings, and random values.
// Every decoder rejects values >= p rather than reducing them: a non-canonical
// encoding in a file is an error, not a number.
#pragma once

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/util/parallel.hpp"

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

// The decoders read whole 64-bit words (a parameter file holds 10^8 points
// to decode): the limbs are little-endian words on the little-endian hosts
// cuzk runs on (a .zkey's points are used in place on that assumption).
static_assert(std::endian::native == std::endian::little, "cuzk's limbs are little-endian words");

template <class F>
bool from_bytes_le(std::span<const uint8_t, F::bytes> in, F& out) {
  uint64_t v[F::N];
  std::memcpy(v, in.data(), F::bytes);
  return F::from_canonical(v, out);
}

template <class F>
bool from_bytes_be(std::span<const uint8_t, F::bytes> in, F& out) {
  uint64_t v[F::N];
  for (size_t i = 0; i < F::N; ++i) {
    std::memcpy(&v[i], in.data() + 8 * (F::N - 1 - i), 8);
    v[i] = __builtin_bswap64(v[i]);
  }
  return F::from_canonical(v, out);
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

// Uniform in [0, p) by rejection sampling on the top limb's bit length; an
// Fq2 element gets two independent coefficients.
template <class F, class Rng>
F random_element(Rng& rng) {
  if constexpr (requires { typename F::Base; }) {
    return {random_element<typename F::Base>(rng), random_element<typename F::Base>(rng)};
  } else {
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
}

// n random elements, generated on all hardware threads; the same seed gives
// the same vector on any machine with the same thread count.
template <class F>
std::vector<F> random_elements(size_t n, uint64_t seed) {
  std::vector<F> v(n);
  parallel_chunks(n, [&](size_t b, size_t e, size_t chunk) {
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + chunk);
    for (size_t i = b; i < e; ++i) v[i] = random_element<F>(rng);
  });
  return v;
}

}  // namespace cuzk::ff
