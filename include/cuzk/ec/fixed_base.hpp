// Fixed-base scalar multiplication: [k]P for one fixed P and many scalars k,
// what a development setup spends its time on (groth16/setup.hpp). The table
// is built on the host; the multiplications run on the host here and on a GPU
// through ec/fixed_base_cuda.hpp, from the same table.
//
// Signed w-bit windows: k = Σ_i d_i 2^(wi) with d_i in [-2^(w-1), 2^(w-1)],
// and the table holds [d 2^(wi)]P for d = 1 .. 2^(w-1) per window, so a scalar
// costs one addition per non-zero digit and no doubling (a negative digit adds
// the negated entry, which is free in affine). k = 0 gives infinity. Variable
// time in k: for key material made by a development setup, never a secret of
// a prover.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/ops.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/progress.hpp"

namespace cuzk::ec {

// Wider windows mean fewer additions per scalar but a table of
// windows · 2^(w-1) points: at w = 16 that is 32 MiB of BN254 G1 points and
// 100 MiB of BLS12-381 G2 points, and wider ones save only a window or two.
inline constexpr unsigned kMaxFixedBaseWindow = 16;

// What a multiplication needs of the table: window_bits w, `windows` rows of
// 2^(w-1) entries, row i holding [d 2^(wi)]P for d = 1 .. 2^(w-1).
template <class C>
struct FixedBaseTable {
  std::span<const Affine<C>> entries;
  unsigned window_bits = 0, windows = 0;

  // Enough windows for a final carry out of the top bit: ⌈(bits + 1)/w⌉.
  CUZK_HD static constexpr unsigned windows_for(unsigned w) { return (C::Fr::bits + w) / w; }

  // k's signed digits for windows of w bits, least significant first, one a
  // call of next(): what the host and the device multiplications both walk.
  class Digits {
   public:
    CUZK_HD Digits(const typename C::Fr& k, unsigned w) : w_(w) { k.to_canonical(v_); }
    CUZK_HD int32_t next() {
      const unsigned l = bit_ / 64, s = bit_ % 64;
      uint64_t x = v_[l] >> s;
      if (s + w_ > 64) x |= v_[l + 1] << (64 - s);
      const int32_t raw = (int32_t)(x & ((uint64_t{1} << w_) - 1)) + carry_;
      carry_ = raw > (int32_t{1} << (w_ - 1));
      bit_ += w_;
      return raw - (carry_ << w_);
    }

   private:
    uint64_t v_[C::Fr::N + 1] = {};  // a zero limb above the top: the last window may reach it
    unsigned w_, bit_ = 0;
    int32_t carry_ = 0;
  };

  // [d 2^(w·window)]P for a non-zero signed digit d.
  CUZK_HD static Affine<C> entry(const Affine<C>* entries, unsigned w, unsigned window, int32_t digit) {
    const Affine<C>& p = entries[((size_t)window << (w - 1)) + (size_t)(digit < 0 ? -digit : digit) - 1];
    return digit < 0 ? -p : p;
  }
};

template <class C>
class FixedBase {
 public:
  using Fr = typename C::Fr;
  using Aff = Affine<C>;

  // The window minimises the additions for `count` scalars plus those that
  // build the table.
  FixedBase(const Aff& p, size_t count, unsigned threads) {
    double best = 0;
    for (unsigned w = 2; w <= kMaxFixedBaseWindow; ++w) {
      const double cost = (double)Table::windows_for(w) * ((double)count + (double)(1u << (w - 1)));
      if (w == 2 || cost < best) best = cost, w_ = w;
    }
    windows_ = Table::windows_for(w_);
    half_ = size_t{1} << (w_ - 1);

    // bases[i] = [2^(wi)]P.
    std::vector<Jacobian<C>> jac(windows_);
    jac[0] = Jacobian<C>::from(p);
    for (unsigned i = 1; i < windows_; ++i) {
      jac[i] = jac[i - 1];
      for (unsigned b = 0; b < w_; ++b) jac[i] = jac[i].dbl();
    }
    std::vector<Aff> bases(windows_);
    batch_to_affine<C>(jac, bases);

    table_.resize(windows_ * half_);
    parallel_tasks(windows_, threads, [&](size_t i) {
      std::vector<Jacobian<C>> row(half_);
      Jacobian<C> acc = Jacobian<C>::from(bases[i]);
      for (size_t d = 0; d < half_; ++d, acc = acc.add(bases[i])) row[d] = acc;
      batch_to_affine<C>(row, std::span<Aff>(table_).subspan(i * half_, half_));
    });
  }

  FixedBaseTable<C> table() const { return {table_, w_, windows_}; }

  // out[i] = [k_i]P. The scalars of a chunk advance together, window by
  // window, in affine: the additions of one window share a single inversion
  // (Montgomery's trick), so each costs 5M + 1S against 8M + 2S for an XYZZ
  // mixed addition, and the sums need no conversion at the end. Each chunk
  // adds its count times `weight` to `progress`.
  void mul(std::span<const Fr> k, std::span<Aff> out, unsigned threads, Progress* progress = nullptr,
           uint64_t weight = 1) const {
    using F = typename C::F;
    constexpr size_t kChunk = 4096;  // scalars a task takes, sharing one inversion a window
    parallel_blocks(k.size(), kChunk, threads, [&](size_t b, size_t e) {
      const size_t n = e - b, W = windows_;
      const std::span<Aff> acc = out.subspan(b, n);
      std::vector<int32_t> d(n * W);
      for (size_t i = 0; i < n; ++i) {
        typename Table::Digits digits(k[b + i], w_);
        for (size_t j = 0; j < W; ++j) d[j * n + i] = digits.next();
        acc[i] = Aff::infinity();
      }
      std::vector<F> prefix(n);
      for (size_t j = 0; j < W; ++j) {
        // Forward: the product of the slopes' denominators. A sum that is
        // infinity, or has the entry's x (doubling or cancellation, only for
        // crafted scalars), is finished here and its digit cleared.
        F prod = F::one();
        for (size_t i = 0; i < n; ++i) {
          int32_t& dij = d[j * n + i];
          if (!dij) continue;
          const Aff q = entry(j, dij);
          if (acc[i].is_inf()) {
            acc[i] = q;
          } else if (acc[i].x == q.x) {
            acc[i] = Jacobian<C>::from(acc[i]).add(q).to_affine();
          } else {
            prefix[i] = prod;
            prod *= q.x - acc[i].x;
            continue;
          }
          dij = 0;
        }
        // Backward: peel each inverse off the product's inverse, then add.
        F inv = prod.inverse();
        for (size_t i = n; i-- > 0;) {
          if (!d[j * n + i]) continue;
          const Aff q = entry(j, d[j * n + i]);
          const F lambda = (q.y - acc[i].y) * inv * prefix[i];
          inv *= q.x - acc[i].x;
          const F x3 = lambda.sqr() - acc[i].x - q.x;
          acc[i] = {x3, lambda * (acc[i].x - x3) - acc[i].y};
        }
      }
      if (progress) progress->add(weight * n);
    });
  }

 private:
  using Table = FixedBaseTable<C>;

  Aff entry(size_t window, int32_t digit) const { return Table::entry(table_.data(), w_, (unsigned)window, digit); }

  unsigned w_ = 2, windows_ = 0;
  size_t half_ = 0;
  std::vector<Aff> table_;  // windows_ rows of half_ entries
};

}  // namespace cuzk::ec
