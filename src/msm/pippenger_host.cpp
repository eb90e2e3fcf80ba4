#include "cuzk/msm/pippenger_host.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::msm {

unsigned pippenger_window(size_t n, size_t chunks) {
  // Cost per window: one mixed addition per term, plus, per chunk, a running
  // sum over 2^(c-1) buckets (two full additions each, about three mixed ones).
  // Windows number ceil(257 / c). Pick the c >= 2 that minimises the total.
  unsigned best = 2;
  double best_cost = 0;
  for (unsigned c = 2; c <= 16; ++c) {
    const double windows = (257.0 + c - 1) / c;
    const double cost = windows * ((double)n + 3.0 * (double)chunks * (double)(size_t(1) << (c - 1)));
    if (c == 2 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

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
  std::vector<std::vector<Term>> terms(chunks);
  std::vector<Xyzz> ones(chunks, Xyzz::infinity());
  parallel_tasks(chunks, threads, [&](size_t ch) {
    const size_t b = ch * chunk_size, e = std::min(n, b + chunk_size);
    for (size_t i = b; i < e; ++i) {
      if (scalars[i].is_zero() || bases[i].is_inf()) continue;
      if (scalars[i].is_one()) {
        ones[ch] = ones[ch].add(bases[i]);
        continue;
      }
      Term t{(uint32_t)i, {}};
      uint64_t k[N];
      scalars[i].to_canonical(k);
      std::copy(k, k + N, t.k);
      terms[ch].push_back(t);
    }
  });

  // 2. Buckets per (window, chunk) task.
  size_t m = 0;
  for (const auto& t : terms) m += t.size();
  const unsigned c = pippenger_window(m, chunks);
  // k < 2^bits and K < (2/3) 2^(Wc) (c >= 2), so W c >= bits + 2 keeps k + K
  // below 2^(Wc): the top window's digit absorbs everything.
  const unsigned windows = (Fr::bits + 2 + c - 1) / c;
  parallel_tasks(chunks, threads, [&](size_t ch) {
    for (Term& t : terms[ch]) add_offset(t.k, c, windows);
  });
  const size_t buckets = size_t(1) << (c - 1);
  std::vector<Xyzz> window_sums(windows * chunks, Xyzz::infinity());
  parallel_tasks(windows * chunks, threads, [&](size_t task) {
    const unsigned w = (unsigned)(task % windows);
    const size_t ch = task / windows;
    if (terms[ch].empty()) return;
    std::vector<Xyzz> bucket(buckets, Xyzz::infinity());
    for (const Term& t : terms[ch]) {
      const int d = signed_digit(t.k, c, w);
      if (d > 0) bucket[d - 1] = bucket[d - 1].add(bases[t.index]);
      if (d < 0) bucket[-d - 1] = bucket[-d - 1].add(-bases[t.index]);
    }
    // sum_j (j+1) bucket[j] by a running sum from the top.
    Xyzz running = Xyzz::infinity(), sum = Xyzz::infinity();
    for (size_t j = buckets; j-- > 0;) {
      running = running.add(bucket[j]);
      sum = sum.add(running);
    }
    window_sums[task] = sum;
  });

  // 3. Combine: windows from the top, c doublings between them.
  Xyzz acc = Xyzz::infinity();
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (size_t ch = 0; ch < chunks; ++ch) acc = acc.add(window_sums[ch * windows + w]);
  }
  for (const auto& o : ones) acc = acc.add(o);
  return acc.to_jacobian();
}

template ec::Jacobian<ec::bn254::G1> msm(std::span<const ec::Affine<ec::bn254::G1>>, std::span<const ff::bn254::Fr>,
                                         unsigned);
template ec::Jacobian<ec::bn254::G2> msm(std::span<const ec::Affine<ec::bn254::G2>>, std::span<const ff::bn254::Fr>,
                                         unsigned);
template ec::Jacobian<ec::bls12_381::G1> msm(std::span<const ec::Affine<ec::bls12_381::G1>>,
                                             std::span<const ff::bls12_381::Fr>, unsigned);
template ec::Jacobian<ec::bls12_381::G2> msm(std::span<const ec::Affine<ec::bls12_381::G2>>,
                                             std::span<const ff::bls12_381::Fr>, unsigned);

}  // namespace cuzk::msm
