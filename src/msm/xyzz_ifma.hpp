// XYZZ additions eight at a time with AVX-512 IFMA (ff/detail/mont52x8.hpp),
// for the host MSM's sums that are not batches of affine additions: the
// buckets' running sums and the sum of the points whose scalar is 1.
//
// The lanes run the generic formulas of ec::Xyzz (point.hpp: madd-2008-s and
// add-2008-s) with no branch; the lanes where those formulas do not hold (an
// operand at infinity, P = Q or P = -Q) are found by masks and redone with
// the scalar additions, which handle every case. Such lanes are rare past
// the first step of a sum, so the sums cost what the generic formulas cost.
//
// A running sum sum_j (j+1) B_j over `count` buckets is split into eight
// segments of S = count/8 buckets, one per lane: lane k gives its local
// weighted sum W_k = sum_j (j+1) B_(kS+j) and its total T_k, and the whole is
// sum_k W_k + S sum_k k T_k, the last by a running sum over the eight lanes
// and log2(S) doublings.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/detail/mont52x8.hpp"

#if CUZK_HAVE_MONT52X8

namespace cuzk::msm::detail {

namespace v8x = ff::mont52x8;

template <class C>
struct XyzzLanes {
  using F = typename C::F;
  using L = v8x::Lanes<F>;
  using V = typename L::V;
  using Point = ec::Xyzz<C>;
  V X, Y, ZZ, ZZZ;

  CUZK_IFMA static XyzzLanes load(const Point (&p)[8]) {
    const uint64_t* w[4][8];
    for (int l = 0; l < 8; ++l)
      w[0][l] = v8x::words(p[l].X), w[1][l] = v8x::words(p[l].Y), w[2][l] = v8x::words(p[l].ZZ),
      w[3][l] = v8x::words(p[l].ZZZ);
    return {L::load(w[0]), L::load(w[1]), L::load(w[2]), L::load(w[3])};
  }
  CUZK_IFMA void store(Point (&p)[8]) const {
    uint64_t* w[4][8];
    for (int l = 0; l < 8; ++l)
      w[0][l] = v8x::words(p[l].X), w[1][l] = v8x::words(p[l].Y), w[2][l] = v8x::words(p[l].ZZ),
      w[3][l] = v8x::words(p[l].ZZZ);
    L::store(w[0], X), L::store(w[1], Y), L::store(w[2], ZZ), L::store(w[3], ZZZ);
  }
};

// a += q (affine, eight points given by address): madd-2008-s in every lane,
// then the scalar addition in the lanes where a or q is at infinity or a = ±q.
template <class C>
CUZK_IFMA void add_affine_lanes(XyzzLanes<C>& a, const ec::Affine<C>* const (&q)[8]) {
  using L = typename XyzzLanes<C>::L;
  using V = typename XyzzLanes<C>::V;
  const uint64_t *qx[8], *qy[8];
  __mmask8 bad = 0;
  for (int l = 0; l < 8; ++l) {
    qx[l] = v8x::words(q[l]->x), qy[l] = v8x::words(q[l]->y);
    if (q[l]->is_inf()) bad |= __mmask8(1u << l);
  }
  const V x = L::load(qx), y = L::load(qy);
  const V P = v8x::sub(v8x::mul(x, a.ZZ), a.X), R = v8x::sub(v8x::mul(y, a.ZZZ), a.Y);
  bad |= v8x::zero_mask(a.ZZ) | v8x::zero_mask(P);
  const V PP = v8x::mul(P, P), PPP = v8x::mul(P, PP), Q = v8x::mul(a.X, PP);
  const V X3 = v8x::sub(v8x::sub(v8x::mul(R, R), PPP), v8x::add(Q, Q));
  XyzzLanes<C> r{X3, v8x::sub(v8x::mul(R, v8x::sub(Q, X3)), v8x::mul(a.Y, PPP)), v8x::mul(a.ZZ, PP),
                 v8x::mul(a.ZZZ, PPP)};
  if (bad) {
    typename XyzzLanes<C>::Point before[8], after[8];
    a.store(before);
    r.store(after);
    for (int l = 0; l < 8; ++l)
      if ((bad >> l) & 1) after[l] = before[l].add(*q[l]);
    r = XyzzLanes<C>::load(after);
  }
  a = r;
}

// a += q: add-2008-s in every lane, the scalar addition where it does not hold.
template <class C>
CUZK_IFMA void add_lanes(XyzzLanes<C>& a, const XyzzLanes<C>& q) {
  using V = typename XyzzLanes<C>::V;
  const V u1 = v8x::mul(a.X, q.ZZ), u2 = v8x::mul(q.X, a.ZZ);
  const V s1 = v8x::mul(a.Y, q.ZZZ), s2 = v8x::mul(q.Y, a.ZZZ);
  const V P = v8x::sub(u2, u1), R = v8x::sub(s2, s1);
  const __mmask8 bad = v8x::zero_mask(a.ZZ) | v8x::zero_mask(q.ZZ) | v8x::zero_mask(P);
  const V PP = v8x::mul(P, P), PPP = v8x::mul(P, PP), Q = v8x::mul(u1, PP);
  const V X3 = v8x::sub(v8x::sub(v8x::mul(R, R), PPP), v8x::add(Q, Q));
  XyzzLanes<C> r{X3, v8x::sub(v8x::mul(R, v8x::sub(Q, X3)), v8x::mul(s1, PPP)),
                 v8x::mul(v8x::mul(a.ZZ, q.ZZ), PP), v8x::mul(v8x::mul(a.ZZZ, q.ZZZ), PPP)};
  if (bad) {
    typename XyzzLanes<C>::Point x[8], y[8], after[8];
    a.store(x);
    q.store(y);
    r.store(after);
    for (int l = 0; l < 8; ++l)
      if ((bad >> l) & 1) after[l] = x[l].add(y[l]);
    r = XyzzLanes<C>::load(after);
  }
  a = r;
}

// sum_j points[index[j]] over `count` indices (count >= 8).
template <class C>
[[gnu::target("avx512f,avx512ifma")]] ec::Xyzz<C> sum_indexed_ifma(const ec::Affine<C>* points,
                                                                   const uint32_t* index, size_t count) {
  using Point = ec::Xyzz<C>;
  Point first[8];
  for (int l = 0; l < 8; ++l) first[l] = Point::from(points[index[l]]);
  auto acc = XyzzLanes<C>::load(first);
  size_t j = 8;
  for (; j + 8 <= count; j += 8) {
    const ec::Affine<C>* q[8];
    for (int l = 0; l < 8; ++l) q[l] = &points[index[j + l]];
    add_affine_lanes(acc, q);
  }
  Point lanes[8];
  acc.store(lanes);
  Point sum = lanes[0];
  for (int l = 1; l < 8; ++l) sum = sum.add(lanes[l]);
  for (; j < count; ++j) sum = sum.add(points[index[j]]);
  return sum;
}

// sum_j (j+1) (affine[begin+j] + overflow[begin+j]) over `count` buckets, a
// multiple of 8 (see the top of this file).
template <class C>
[[gnu::target("avx512f,avx512ifma")]] ec::Xyzz<C> weighted_sum_ifma(const ec::Affine<C>* affine,
                                                                    const ec::Xyzz<C>* overflow, size_t begin,
                                                                    size_t count) {
  using Point = ec::Xyzz<C>;
  const size_t seg = count / 8;
  Point inf[8];
  for (auto& p : inf) p = Point::infinity();
  auto running = XyzzLanes<C>::load(inf), sum = running;
  for (size_t j = seg; j-- > 0;) {
    const ec::Affine<C>* q[8];
    bool any_overflow = false;
    for (int l = 0; l < 8; ++l) {
      const size_t b = begin + l * seg + j;
      q[l] = &affine[b];
      any_overflow |= !overflow[b].is_inf();
    }
    add_affine_lanes(running, q);
    if (any_overflow) {
      Point o[8];
      for (int l = 0; l < 8; ++l) o[l] = overflow[begin + l * seg + j];
      add_lanes(running, XyzzLanes<C>::load(o));
    }
    add_lanes(sum, running);
  }
  Point weighted[8], total[8];
  sum.store(weighted);
  running.store(total);
  // sum_k W_k + seg * sum_k k T_k
  Point result = Point::infinity(), run = Point::infinity(), k_weighted = Point::infinity();
  for (int k = 8; k-- > 1;) {
    run = run.add(total[k]);
    k_weighted = k_weighted.add(run);
  }
  for (size_t s = seg; s > 1; s >>= 1) k_weighted = k_weighted.dbl();  // seg is a power of 2
  result = k_weighted;
  for (int k = 0; k < 8; ++k) result = result.add(weighted[k]);
  return result;
}

}  // namespace cuzk::msm::detail

#endif
