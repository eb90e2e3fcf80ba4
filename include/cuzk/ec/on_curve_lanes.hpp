// Eight affine points' curve equation at once, with AVX-512 IFMA (host only;
// ff/detail/mont52x8.hpp): what checking a key's millions of points costs,
// about a third of the scalar Affine::on_curve where IFMA has a port of its own.
#pragma once

#include <cstdint>

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/detail/mont52x8.hpp"

#if defined(CUZK_HAVE_MONT52X8)

namespace cuzk::ec {

template <class C>
inline constexpr bool kHasOnCurveLanes = ff::mont52x8::kHasLanes<typename C::F>;

// Bit l set: p[l] satisfies y^2 = x^3 + b. The coordinates must be reduced
// Montgomery words. Infinity, (0, 0), does not satisfy it: a caller that
// accepts infinity asks Affine::on_curve about the lanes left clear. Call only
// where ff::mont52x8::use_ifma().
template <class C>
[[gnu::target("avx512f,avx512ifma")]] uint8_t on_curve_lanes(const Affine<C>* p) {
  namespace m = ff::mont52x8;
  using L = m::Lanes<typename C::F>;
  static const typename C::F b = C::b();
  const uint64_t *xs[8], *ys[8], *bs[8];
  for (int l = 0; l < 8; ++l) {
    xs[l] = m::words(p[l].x);
    ys[l] = m::words(p[l].y);
    bs[l] = m::words(b);
  }
  const typename L::V x = L::load(xs), y = L::load(ys);
  const typename L::V rhs = add(mul(mul(x, x), x), L::load(bs));
  return (uint8_t)zero_mask(sub(mul(y, y), rhs));
}

}  // namespace cuzk::ec

#endif
