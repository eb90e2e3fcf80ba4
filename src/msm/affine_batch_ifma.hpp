// A batch of affine additions into distinct buckets, eight at a time with
// AVX-512 IFMA (ff/detail/mont52x8.hpp): the vector form of AffineBuckets'
// flush (pippenger_host_templates.hpp), whose comment gives the formulas and the
// conditions every entry meets (distinct buckets, none at infinity, no
// bucket's x equal to its point's).
//
// Entry k goes to lane k mod 8 of slot k / 8. Each lane keeps its own running
// product of denominators (Montgomery's trick, one chain per lane); the eight
// lanes' products are then inverted together on the scalar side (one
// variable-time inversion and 21 products), and each lane walks back through
// its slots. The multiplications per addition are the scalar flush's six;
// they run about four times faster per element (docs/PERFORMANCE.md). The
// lanes past the batch's end add (1, 1) into a scratch bucket (0, 0), whose
// denominator 1 leaves the others' inverses alone.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/ff/inverse_vartime.hpp"

#if CUZK_HAVE_MONT52X8

namespace cuzk::msm::detail {

namespace v8 = ff::mont52x8;

// sums[batch[k].bucket] += batch[k].point for k < count <= kMaxBatch.
inline constexpr size_t kMaxBatch = 256;
template <class C, class Entry>
[[gnu::target("avx512f,avx512ifma")]] void add_batch_ifma(const Entry* batch, size_t count, ec::Affine<C>* sums) {
  using F = typename C::F;
  using A = ec::Affine<C>;
  using L = v8::Lanes<F>;
  using V = typename L::V;
  constexpr size_t kMaxSlots = kMaxBatch / 8;
  const size_t slots = (count + 7) / 8;

  A pad[8];
  const A pad_point{F::one(), F::one()};
  uint64_t *bx[kMaxSlots][8], *by[kMaxSlots][8];
  const uint64_t *px[kMaxSlots][8], *py[kMaxSlots][8];
  for (size_t k = 0; k < slots * 8; ++k) {
    A* b = &pad[k % 8];
    const A* p = &pad_point;
    if (k < count) {
      b = &sums[batch[k].bucket];
      p = &batch[k].point;
    } else {
      *b = A::infinity();
    }
    bx[k / 8][k % 8] = v8::words(b->x), by[k / 8][k % 8] = v8::words(b->y);
    px[k / 8][k % 8] = v8::words(p->x), py[k / 8][k % 8] = v8::words(p->y);
  }

  // Forward: each lane's running product of the denominators x_p - x_b.
  const F one = F::one();
  F lane_words[8];
  uint64_t* lane[8];
  for (int l = 0; l < 8; ++l) lane_words[l] = one, lane[l] = v8::words(lane_words[l]);
  V acc = L::load(lane);
  V xb[kMaxSlots], xp[kMaxSlots], before[kMaxSlots];
  for (size_t s = 0; s < slots; ++s) {
    xb[s] = L::load(bx[s]);
    xp[s] = L::load(px[s]);
    before[s] = acc;
    acc = v8::mul(acc, v8::sub(xp[s], xb[s]));
  }

  // The eight lanes' products inverted together.
  L::store(lane, acc);
  F prefix[8], running = one;
  for (int l = 0; l < 8; ++l) prefix[l] = running, running = running * lane_words[l];
  F inv = ff::inverse_vartime(running);
  for (int l = 8; l-- > 0;) {
    const F lane_product = lane_words[l];
    lane_words[l] = inv * prefix[l];
    inv = inv * lane_product;
  }
  V lane_inv = L::load(lane);  // 1 / (product of every denominator so far), per lane

  // Backward: λ = (y_p - y_b) / (x_p - x_b), x3 = λ² - x_b - x_p, y3 = λ (x_b - x3) - y_b.
  for (size_t s = slots; s-- > 0;) {
    const V yb = L::load(by[s]);
    const V lambda = v8::mul(v8::sub(L::load(py[s]), yb), v8::mul(lane_inv, before[s]));
    lane_inv = v8::mul(lane_inv, v8::sub(xp[s], xb[s]));
    const V x3 = v8::sub(v8::sub(v8::mul(lambda, lambda), xb[s]), xp[s]);
    const V y3 = v8::sub(v8::mul(lambda, v8::sub(xb[s], x3)), yb);
    L::store(bx[s], x3);
    L::store(by[s], y3);
  }
}

}  // namespace cuzk::msm::detail

#endif
