// The host MSM's templates (Pippenger with signed digits and batch-affine
// buckets), compiled once a group by pippenger_host_<curve>_<group>.cpp, as
// pippenger_cuda.cuh is for the GPU: the four groups in one file took 205 s
// of one compiler on the 2-core VM, the longest step of a cold build (and on
// the 16-core GPU machine most of its critical path).
#pragma once

#include "cuzk/msm/pippenger_host.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cuzk/ff/inverse_vartime.hpp"
#include "cuzk/util/parallel.hpp"
#include "affine_batch_ifma.hpp"
#include "xyzz_ifma.hpp"

namespace cuzk::msm {

namespace {

// Signed digits by an offset: with K = sum_w 2^(c-1) 2^(wc) over all windows,
// the c-bit windows u_w of k + K give k = sum_w (u_w - 2^(c-1)) 2^(wc), digits
// in [-2^(c-1), 2^(c-1) - 1]. One addition per scalar replaces the usual
// carry-propagating recoding, and any window's digit can be read on its own,
// which the (window, chunk) task split needs.
template <size_t L>
void add_offset(uint64_t (&k)[L], unsigned c, unsigned windows) {
  uint64_t carry = 0;
  for (size_t i = 0; i < L; ++i) {
    uint64_t off = 0;
    for (unsigned w = 0; w < windows; ++w) {
      const unsigned bit = w * c + c - 1;
      if (bit / 64 == i) off |= uint64_t(1) << (bit % 64);
    }
    const unsigned __int128 x = (unsigned __int128)k[i] + off + carry;
    k[i] = (uint64_t)x;
    carry = (uint64_t)(x >> 64);
  }
}

template <size_t L>
int signed_digit(const uint64_t (&k)[L], unsigned c, unsigned w) {
  const unsigned bit = w * c;
  const size_t limb = bit / 64, off = bit % 64;
  uint64_t v = k[limb] >> off;
  if (off + c > 64 && limb + 1 < L) v |= k[limb + 1] << (64 - off);
  v &= (uint64_t(1) << c) - 1;
  return (int)v - (1 << (c - 1));
}

// One (window, chunk) task's buckets. Additions into them are batched in
// affine coordinates: up to 256 of them, each into a different bucket and
// none with the bucket's x, share one field inversion (Montgomery's trick), so
// an addition costs about 6 multiplications instead of XYZZ's 10, and the
// running sum adds affine buckets. A point whose bucket is already in the
// batch, or whose x equals the bucket's (a doubling or a cancellation), goes
// into the bucket's XYZZ overflow sum instead, which handles every case; skewed
// scalars (many points into one bucket) thus cost what they did with XYZZ
// buckets alone.
template <class C>
class AffineBuckets {
  using F = typename C::F;
  using A = ec::Affine<C>;
  using Xyzz = ec::Xyzz<C>;

 public:
  // Whether `count` buckets take batches: a batch holds at most a quarter of
  // them, so that few points find theirs taken, and below kMinBatch additions
  // the inversion (about 300-600 multiplications) no longer pays.
  static bool batches(size_t count) { return count / 4 >= kMinBatch; }

  // `count` empty buckets, in the memory of earlier uses: a service proving
  // one partition after another then touches no fresh pages (which cost a
  // proof ~10% on the 2-core VM, docs/PERFORMANCE.md).
  void reset(size_t count) {
    sums_.assign(count, A::infinity());
    overflow_.assign(count, Xyzz::infinity());
    in_batch_.assign(count, 0);
    limit_ = batches(count) ? std::min(kBatch, count / 4) : 0;
    batch_.clear();
    batch_.reserve(limit_);
    prefix_.resize(limit_);
  }

  void add(size_t j, const A& p) {
    A& b = sums_[j];
    if (in_batch_[j] || b.x == p.x || limit_ == 0) {
      overflow_[j] = overflow_[j].add(p);
    } else if (b.is_inf()) {
      b = p;
    } else {
      in_batch_[j] = 1;
      batch_.push_back({j, p});
      if (batch_.size() == limit_) flush();
    }
  }

  // sum_j (j+1) bucket_(begin+j) over `count` buckets from `begin`, by a
  // running sum from the top.
  Xyzz weighted_sum(size_t begin, size_t count) {
    flush();
#if CUZK_HAVE_MONT52X8
    if constexpr (ff::mont52x8::kHasLanes<F>)
      if (ff::mont52x8::use_ifma() && count >= 64 && count % 8 == 0 && std::has_single_bit(count / 8))
        return detail::weighted_sum_ifma<C>(sums_.data(), overflow_.data(), begin, count);
#endif
    Xyzz running = Xyzz::infinity(), sum = Xyzz::infinity();
    for (size_t j = begin + count; j-- > begin;) {
      running = running.add(overflow_[j]).add(sums_[j]);
      sum = sum.add(running);
    }
    return sum;
  }

 private:
  static constexpr size_t kBatch = 256, kMinBatch = 128;
  struct Pending {
    size_t bucket;
    A point;
  };

  // b + p = (x3, y3) with λ = (y_p − y_b) / (x_p − x_b), x3 = λ² − x_b − x_p,
  // y3 = λ (x_b − x3) − y_b; the batch's denominators are inverted together.
  void flush() {
    if (batch_.empty()) return;
#if CUZK_HAVE_MONT52X8
    if constexpr (ff::mont52x8::kHasLanes<F>) {
      static_assert(kBatch <= detail::kMaxBatch);
      if (ff::mont52x8::use_ifma()) {
        detail::add_batch_ifma<C>(batch_.data(), batch_.size(), sums_.data());
        for (const Pending& e : batch_) in_batch_[e.bucket] = 0;
        batch_.clear();
        return;
      }
    }
#endif
    F acc = F::one();
    for (size_t i = 0; i < batch_.size(); ++i) {
      prefix_[i] = acc;
      acc = acc * (batch_[i].point.x - sums_[batch_[i].bucket].x);
    }
    // Of the product of all denominators, none zero; in variable time, as the
    // buckets' choice already is (a tenth of Fermat's cost).
    F inv = ff::inverse_vartime(acc);
    for (size_t i = batch_.size(); i-- > 0;) {
      const Pending& e = batch_[i];
      A& b = sums_[e.bucket];
      const F d = e.point.x - b.x;
      const F lambda = (e.point.y - b.y) * (inv * prefix_[i]);
      inv = inv * d;  // now the inverse of the product of the first i
      const F x3 = lambda.sqr() - b.x - e.point.x;
      b.y = lambda * (b.x - x3) - b.y;
      b.x = x3;
      in_batch_[e.bucket] = 0;
    }
    batch_.clear();
  }

  std::vector<A> sums_;
  std::vector<Xyzz> overflow_;
  std::vector<uint8_t> in_batch_;
  size_t limit_ = 0;
  std::vector<Pending> batch_;
  std::vector<F> prefix_;
};

// sum_j points[index[j]]: the terms whose scalar is 1.
template <class C>
ec::Xyzz<C> sum_indexed(const ec::Affine<C>* points, const std::vector<uint32_t>& index) {
#if CUZK_HAVE_MONT52X8
  if constexpr (ff::mont52x8::kHasLanes<typename C::F>)
    if (ff::mont52x8::use_ifma() && index.size() >= 64)
      return detail::sum_indexed_ifma<C>(points, index.data(), index.size());
#endif
  ec::Xyzz<C> sum = ec::Xyzz<C>::infinity();
  for (uint32_t i : index) sum = sum.add(points[i]);
  return sum;
}

}  // namespace

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const typename C::Fr> scalars, unsigned threads) {
  using Fr = typename C::Fr;
  using Xyzz = ec::Xyzz<C>;
  constexpr size_t N = Fr::N;
  if (bases.size() != scalars.size())
    throw std::invalid_argument("msm: " + std::to_string(bases.size()) + " bases but " +
                                std::to_string(scalars.size()) + " scalars");
  if (bases.size() >= (size_t(1) << 32)) throw std::invalid_argument("msm: more than 2^32 terms");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

  // 1. Canonical scalars, and the ones and zeros set aside.
  struct Term {
    uint32_t index;
    uint64_t k[N + 1];  // canonical scalar, later plus the digit offset
  };
  const size_t n = bases.size();
  const size_t chunk_size = std::max<size_t>(4096, (n + threads - 1) / threads);
  const size_t chunks = (n + chunk_size - 1) / chunk_size;
  // Kept by the calling thread for its next MSM, as the buckets below are by
  // each thread that fills them (AffineBuckets::reset says why). The tasks
  // reach it through the reference: on their threads the thread_local's own
  // name would be their own, empty, copy.
  thread_local std::vector<std::vector<Term>> kept_terms;
  thread_local std::vector<std::vector<uint32_t>> kept_ones;
  std::vector<std::vector<Term>>& terms = kept_terms;
  std::vector<std::vector<uint32_t>>& one_index = kept_ones;
  terms.resize(chunks);
  one_index.resize(chunks);
  for (auto& t : terms) t.clear();
  for (auto& o : one_index) o.clear();
  std::vector<Xyzz> ones(chunks, Xyzz::infinity());
  parallel_tasks(chunks, threads, [&](size_t ch) {
    const size_t b = ch * chunk_size, e = std::min(n, b + chunk_size);
    for (size_t i = b; i < e; ++i) {
      if (scalars[i].is_zero() || bases[i].is_inf()) continue;
      if (scalars[i].is_one()) {
        one_index[ch].push_back((uint32_t)i);
        continue;
      }
      Term t{(uint32_t)i, {}};
      uint64_t k[N];
      scalars[i].to_canonical(k);
      std::copy(k, k + N, t.k);
      terms[ch].push_back(t);
    }
    ones[ch] = sum_indexed<C>(bases.data(), one_index[ch]);
  });

  // 2. Buckets. A window's terms go into one set of buckets or into `sets`
  // sets, each over a group of chunks: every set costs a running sum (about
  // three additions a bucket), so there are as few as leave each thread two
  // (window, set) tasks. Where a window has too few buckets for batches of
  // affine additions (few significant scalars: a witness), a task instead
  // takes every window of one chunk, their buckets side by side in one set
  // that does take batches: a witness MSM's additions then cost about 7
  // multiplications, not XYZZ's 10.
  size_t m = 0;
  for (const auto& t : terms) m += t.size();
  // k < 2^bits and K < (2/3) 2^(Wc) (c >= 2), so W c >= bits + 2 keeps k + K
  // below 2^(Wc): the top window's digit absorbs everything.
  const auto windows_for = [](unsigned c) { return (Fr::bits + 2 + c - 1) / c; };
  size_t sets = 1;
  unsigned c = pippenger_window(m, sets);
  while (sets < chunks && windows_for(c) * sets < 2 * threads) c = pippenger_window(m, ++sets);
  const bool whole_chunks = !AffineBuckets<C>::batches(size_t(1) << (c - 1));
  if (whole_chunks) c = pippenger_window(m, sets = chunks);
  const unsigned windows = windows_for(c);
  parallel_tasks(chunks, threads, [&](size_t ch) {
    for (Term& t : terms[ch]) add_offset(t.k, c, windows);
  });
  const size_t buckets = size_t(1) << (c - 1);
  const unsigned per_task = whole_chunks ? windows : 1;
  const unsigned tasks_per_set = windows / per_task;
  std::vector<Xyzz> window_sums(windows * sets, Xyzz::infinity());
  parallel_tasks(tasks_per_set * sets, threads, [&](size_t task) {
    const size_t set = task / tasks_per_set;
    const unsigned w0 = (unsigned)(task % tasks_per_set) * per_task;
    thread_local AffineBuckets<C> bucket;
    bucket.reset(buckets * per_task);
    for (size_t ch = chunks * set / sets; ch < chunks * (set + 1) / sets; ++ch)
      for (const Term& t : terms[ch])
        for (unsigned i = 0; i < per_task; ++i) {
          const int d = signed_digit(t.k, c, w0 + i);
          if (d > 0) bucket.add(i * buckets + d - 1, bases[t.index]);
          if (d < 0) bucket.add(i * buckets - d - 1, -bases[t.index]);
        }
    for (unsigned i = 0; i < per_task; ++i)
      window_sums[set * windows + w0 + i] = bucket.weighted_sum(i * buckets, buckets);
  });

  // 3. Combine: windows from the top, c doublings between them.
  Xyzz acc = Xyzz::infinity();
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (size_t set = 0; set < sets; ++set) acc = acc.add(window_sums[set * windows + w]);
  }
  for (const auto& o : ones) acc = acc.add(o);
  return acc.to_jacobian();
}

#define CUZK_MSM_HOST_INSTANTIATE(C) \
  template ec::Jacobian<C> msm<C>(std::span<const ec::Affine<C>>, std::span<const C::Fr>, unsigned);

}  // namespace cuzk::msm
