// Whether the bytes of a point read from a file are a point: each coordinate a
// reduced Montgomery word (< q, so that equality is limb equality) and the
// point on its curve, or infinity (all zero). One source serves the key
// readers on the host (io/zkey.cpp) and the GPU's check of a key's points as
// they are uploaded (point_check_cuda.hpp). Subgroup membership is not
// asked: neither snarkjs nor rapidsnark checks a key's points for it.
#pragma once

#include "cuzk/ec/point.hpp"

namespace cuzk::ec {

enum class PointFault { none, not_reduced, off_curve };

// Fq and Fq2 coordinates: every limb group must be a reduced Montgomery word.
template <class F>
CUZK_HD bool reduced(const F& a) {
  if constexpr (requires { typename F::Base; })
    return reduced(a.c0) && reduced(a.c1);
  else
    return F::less_than_modulus(a.limb);
}

template <class C>
CUZK_HD PointFault check_point(const Affine<C>& p) {
  if (!reduced(p.x) || !reduced(p.y)) return PointFault::not_reduced;
  return p.on_curve() ? PointFault::none : PointFault::off_curve;
}

}  // namespace cuzk::ec
