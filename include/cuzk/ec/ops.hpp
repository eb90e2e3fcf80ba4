// Operations built on the point types: scalar multiplication, batch
// normalisation and subgroup membership.
#pragma once

#include <span>
#include <vector>

#include "cuzk/ec/point.hpp"

namespace cuzk::ec {

// k·P for a scalar of n little-endian limbs, 4-bit fixed windows.
// Variable time: the table index and the additions of infinity depend on k, so
// this is for public scalars (tests, subgroup checks, verification). Secret
// scalars must not come here.
template <class C>
CUZK_HD Jacobian<C> mul_vartime(const Jacobian<C>& p, const uint64_t* k, size_t n) {
  Jacobian<C> table[16];
  table[0] = Jacobian<C>::infinity();
  table[1] = p;
  for (int i = 2; i < 16; ++i) table[i] = (i % 2 == 0) ? table[i / 2].dbl() : table[i - 1].add(p);
  Jacobian<C> acc = Jacobian<C>::infinity();
  for (size_t i = n; i-- > 0;)
    for (int nib = 15; nib >= 0; --nib) {
      acc = acc.dbl().dbl().dbl().dbl();
      const unsigned d = (unsigned)(k[i] >> (4 * nib)) & 15;
      if (d) acc = acc.add(table[d]);
    }
  return acc;
}

template <class C>
CUZK_HD Jacobian<C> mul_vartime(const Affine<C>& p, const typename C::Fr& k) {
  uint64_t v[C::Fr::N];
  k.to_canonical(v);
  return mul_vartime(Jacobian<C>::from(p), v, C::Fr::N);
}

// P in the prime-order subgroup by its definition: on the curve and r·P = O.
// The oracle of in_subgroup's faster tests.
template <class C>
bool in_subgroup_by_order(const Affine<C>& p) {
  if (!p.on_curve()) return false;
  uint64_t r[C::Fr::N];
  for (size_t i = 0; i < C::Fr::N; ++i) r[i] = C::Fr::params::modulus(i);
  return mul_vartime(Jacobian<C>::from(p), r, C::Fr::N).is_inf();
}

// P in the prime-order subgroup: on the curve, then (where the cofactor is
// not 1) the curve's endomorphism test, C::in_prime_subgroup, a scalar
// multiplication by the curve's 64- or 128-bit seed instead of r's 255 bits
// (src/ec/subgroup.cpp says which test and who proved it equivalent).
template <class C>
bool in_subgroup(const Affine<C>& p) {
  if (!p.on_curve()) return false;
  if constexpr (C::cofactor_is_one) return true;
  else return C::in_prime_subgroup(p);
}

// Many points to affine with one field inversion (Montgomery's trick).
template <class C>
void batch_to_affine(std::span<const Jacobian<C>> in, std::span<Affine<C>> out) {
  using F = typename C::F;
  std::vector<F> prefix(in.size());
  F acc = F::one();
  for (size_t i = 0; i < in.size(); ++i) {
    prefix[i] = acc;
    if (!in[i].is_inf()) acc *= in[i].Z;
  }
  F inv = acc.inverse();
  for (size_t i = in.size(); i-- > 0;) {
    if (in[i].is_inf()) {
      out[i] = Affine<C>::infinity();
      continue;
    }
    const F zi = inv * prefix[i];
    inv *= in[i].Z;
    const F zi2 = zi.sqr();
    out[i] = {in[i].X * zi2, in[i].Y * zi2 * zi};
  }
}

}  // namespace cuzk::ec
