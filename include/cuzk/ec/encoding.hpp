// The ZCash serialisation of BLS12-381 points, used by bellman/Filecoin
// parameter files, the IETF pairing draft and noble: big-endian coordinates, an
// Fq2 written c1 || c0, and three flag bits in the first byte:
//   0x80 compressed, 0x40 point at infinity, 0x20 (compressed only) y is the
//   lexicographically larger root.
// Decoding checks everything a hostile file could get wrong: length, flags,
// canonical coordinates, the curve equation and (by default) the subgroup.
#pragma once

#include <span>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/encode.hpp"

namespace cuzk::ec {

enum class DecodeError { ok, bad_length, bad_flags, not_canonical, not_on_curve, not_in_subgroup };

inline const char* describe(DecodeError e) {
  switch (e) {
    case DecodeError::ok: return "ok";
    case DecodeError::bad_length: return "wrong length for a point encoding";
    case DecodeError::bad_flags: return "invalid flag bits in a point encoding";
    case DecodeError::not_canonical: return "coordinate is not below the field modulus";
    case DecodeError::not_on_curve: return "point is not on the curve";
    case DecodeError::not_in_subgroup: return "point is not in the prime-order subgroup";
  }
  return "unknown";
}

namespace zcash {

template <class F>
constexpr size_t field_bytes() {
  if constexpr (requires { typename F::Base; }) {
    return 2 * F::Base::bytes;
  } else {
    return F::bytes;
  }
}

template <class C>
constexpr size_t compressed_size = field_bytes<typename C::F>();
template <class C>
constexpr size_t uncompressed_size = 2 * field_bytes<typename C::F>();

namespace detail {

// BLS12-381's Fq uses 48 bytes for 381 bits, leaving the three flag bits free.
template <class Fq>
void write_fq(const Fq& a, uint8_t* out) {
  ff::to_bytes_be(a, std::span<uint8_t, Fq::bytes>(out, Fq::bytes));
}
template <class Fq>
bool read_fq(const uint8_t* in, Fq& a) {
  return ff::from_bytes_be(std::span<const uint8_t, Fq::bytes>(in, Fq::bytes), a);
}

template <class F>
void write(const F& a, uint8_t* out) {
  if constexpr (requires { typename F::Base; }) {
    write_fq(a.c1, out);
    write_fq(a.c0, out + F::Base::bytes);
  } else {
    write_fq(a, out);
  }
}
template <class F>
bool read(const uint8_t* in, F& a) {
  if constexpr (requires { typename F::Base; }) {
    return read_fq(in, a.c1) && read_fq(in + F::Base::bytes, a.c0);
  } else {
    return read_fq(in, a);
  }
}

template <class Fq>
bool fq_is_larger_root(const Fq& y) {
  uint64_t a[Fq::N], b[Fq::N];
  y.to_canonical(a);
  (-y).to_canonical(b);
  for (size_t i = Fq::N; i-- > 0;)
    if (a[i] != b[i]) return a[i] > b[i];
  return false;
}
// Lexicographic order on (c1, c0) for Fq2, as in the ZCash specification.
template <class F>
bool is_larger_root(const F& y) {
  if constexpr (requires { typename F::Base; }) {
    return y.c1.is_zero() ? fq_is_larger_root(y.c0) : fq_is_larger_root(y.c1);
  } else {
    return fq_is_larger_root(y);
  }
}

}  // namespace detail

template <class C>
void encode_uncompressed(const Affine<C>& p, std::span<uint8_t, uncompressed_size<C>> out) {
  std::fill(out.begin(), out.end(), 0);
  if (p.is_inf()) {
    out[0] = 0x40;
    return;
  }
  detail::write(p.x, out.data());
  detail::write(p.y, out.data() + compressed_size<C>);
}

template <class C>
void encode_compressed(const Affine<C>& p, std::span<uint8_t, compressed_size<C>> out) {
  std::fill(out.begin(), out.end(), 0);
  if (p.is_inf()) {
    out[0] = 0xc0;
    return;
  }
  detail::write(p.x, out.data());
  out[0] |= 0x80 | (detail::is_larger_root(p.y) ? 0x20 : 0);
}

// Either form, told apart by its length and the compression flag.
template <class C>
DecodeError decode(std::span<const uint8_t> in, Affine<C>& out, bool check_subgroup = true) {
  const bool compressed = in.size() == compressed_size<C>;
  if (!compressed && in.size() != uncompressed_size<C>) return DecodeError::bad_length;
  const uint8_t flags = in[0] & 0xe0;
  if (bool(flags & 0x80) != compressed) return DecodeError::bad_flags;
  if (!compressed && (flags & 0x20)) return DecodeError::bad_flags;

  uint8_t buf[uncompressed_size<C>];
  std::copy(in.begin(), in.end(), buf);
  buf[0] &= 0x1f;
  if (flags & 0x40) {  // infinity: nothing else may be set
    if (flags & 0x20) return DecodeError::bad_flags;
    for (size_t i = 0; i < in.size(); ++i)
      if (buf[i]) return DecodeError::bad_flags;
    out = Affine<C>::infinity();
    return DecodeError::ok;
  }
  Affine<C> p;
  if (!detail::read(buf, p.x)) return DecodeError::not_canonical;
  if (compressed) {
    if (!(p.x.sqr() * p.x + C::b()).sqrt(p.y)) return DecodeError::not_on_curve;
    if (detail::is_larger_root(p.y) != bool(flags & 0x20)) p.y = -p.y;
  } else {
    if (!detail::read(buf + compressed_size<C>, p.y)) return DecodeError::not_canonical;
    if (p.is_inf() || !p.on_curve()) return DecodeError::not_on_curve;  // (0, 0) is our infinity, not a curve point
  }
  if (check_subgroup && !in_subgroup(p)) return DecodeError::not_in_subgroup;
  out = p;
  return DecodeError::ok;
}

}  // namespace zcash
}  // namespace cuzk::ec
