// Host NTT: radix-2 decimation in frequency (Gentleman–Sande), then one bit-reversal
// permutation to return to natural order.
//
// Why this shape. A radix-2 transform of n points makes log n passes over the
// data; once n·32 bytes outgrows the caches, each pass streams the whole vector
// from memory, and the stages with large strides touch a new page per butterfly.
// So domains above Domain::max_direct_log_size are split four-step style into
// rows × cols (row-major, rows = 2^⌊k/2⌋ <= cols):
//   1. a size-rows DIF down every column, a few adjacent columns at a time copied
//      into a small contiguous buffer (so the strided reads happen once, whole
//      cache lines at a time, and the log(rows) stages run in L2);
//   2. per row, the twiddles ω^(b·c) that join the halves, then a size-cols DIF
//      of the row in place (contiguous, again in L2);
//   3. the bit-reversal permutation, in tiles that pair up cache lines.
// Because DIF leaves each column's and each row's output in bit-reversed order,
// step 2's output is the full transform in bit-reversed order over all k bits,
// so no transpose is needed: step 3 is the one permutation any radix-2 transform
// with natural order in and out has to make.
//
// Parallelism: every task in steps 1–3 (a block of columns, a row, a tile) is
// independent, so a transform synchronises three times rather than once per
// stage; threads take tasks from a shared counter, so a thread slowed by other
// work on the machine simply takes fewer.
#include "cuzk/poly/ntt.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuzk/ff/detail/mont52x8.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::poly {
namespace {

// Element counts that keep a task's working set in a 512 KiB L2 with room to
// spare (256 KiB of 32-byte elements), and that make a task worth a handoff.
constexpr size_t cache_elements = size_t{1} << 13;
constexpr size_t task_elements = size_t{1} << 12;
// The bit-reversal tile: 2^4 × 2^4 elements, rows of 16 elements = 8 cache lines.
constexpr unsigned tile_log = 4;

unsigned resolve_threads(unsigned threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// One DIF stage of half-size h (butterflies between elements h·width apart)
// over the m·width elements of dif's layout.
template <class Fr>
void dif_stage(Fr* x, size_t m, size_t h, size_t width, const Fr* tw) {
  for (size_t s = 0; s < m; s += 2 * h) {
    Fr* lo = x + s * width;
    Fr* hi = lo + h * width;
    // j = 0: the twiddle is 1.
    for (size_t c = 0; c < width; ++c) {
      const Fr u = lo[c], v = hi[c];
      lo[c] = u + v;
      hi[c] = u - v;
    }
    for (size_t j = 1; j < h; ++j) {
      const Fr w = tw[h + j];
      Fr* a = lo + j * width;
      Fr* b = hi + j * width;
      for (size_t c = 0; c < width; ++c) {
        const Fr u = a[c], v = b[c];
        a[c] = u + v;
        b[c] = (u - v) * w;
      }
    }
  }
}

#if CUZK_HAVE_MONT52X8
// The stages whose blocks hold at least eight butterflies, eight at a time
// with AVX-512 IFMA (ff/detail/mont52x8.hpp); the small ones stay scalar.
// Each lane takes its own twiddle tw[h + j], so one loop serves the column
// pass (width > 1: lanes of a row share j) and the row pass (width 1).
template <class Fr>
[[gnu::target("avx512f,avx512ifma")]] void dif_ifma(Fr* x, unsigned log_m, size_t width, const Fr* tw) {
  namespace v8 = ff::mont52x8;
  using L = v8::Lanes<Fr>;
  const size_t m = size_t{1} << log_m;
  for (size_t h = m / 2; h >= 1; h /= 2) {
    if (h * width < 8) {
      dif_stage(x, m, h, width, tw);
      continue;
    }
    for (size_t s = 0; s < m; s += 2 * h) {
      Fr* lo = x + s * width;
      Fr* hi = lo + h * width;
      for (size_t q = 0; q < h * width; q += 8) {  // j = 0 too: tw[h] = 1
        uint64_t *a[8], *b[8];
        const uint64_t* w[8];
        for (int l = 0; l < 8; ++l) {
          a[l] = v8::words(lo[q + l]);
          b[l] = v8::words(hi[q + l]);
          w[l] = v8::words(tw[h + (q + l) / width]);
        }
        const auto u = L::load(a), v = L::load(b);
        L::store(a, v8::add(u, v));
        L::store(b, v8::mul(v8::sub(u, v), L::load(w)));
      }
    }
  }
}
#endif

// In-place DIF of size m = 2^log_m on `width` interleaved sequences: element i of
// sequence c is x[i·width + c]. Natural order in, bit-reversed order out. All
// sequences share each twiddle, which is why the column pass keeps several
// columns side by side. tw is the Domain's stage table (tw[h + j] = ω_{2h}^j,
// so tw[h] = 1).
template <class Fr>
void dif(Fr* x, unsigned log_m, size_t width, const Fr* tw) {
#if CUZK_HAVE_MONT52X8
  if constexpr (ff::mont52x8::kHasLanes<Fr>)
    if (ff::mont52x8::use_ifma()) return dif_ifma(x, log_m, width, tw);
#endif
  const size_t m = size_t{1} << log_m;
  for (size_t h = m / 2; h >= 1; h /= 2) dif_stage(x, m, h, width, tw);
}

// x[i] <-> x[rev_k(i)]. Writing i = (A, M, B) with A, B of tile_log bits, the
// indices with a given middle M form a tile of 2^tile_log rows of 2^tile_log
// consecutive elements, and rev maps it onto the tile of rev(M), transposed. So
// swapping tile against tile reads whole cache lines from both; each pair of
// tiles (M <= rev(M)) is one task.
template <class Fr>
void bit_reverse(Fr* x, unsigned k, unsigned threads) {
  const size_t n = size_t{1} << k;
  if (k < 2 * tile_log) {
    for (size_t i = 0; i < n; ++i) {
      const size_t j = detail::reverse_bits(i, k);
      if (i < j) std::swap(x[i], x[j]);
    }
    return;
  }
  const unsigned mid = k - 2 * tile_log;
  const size_t tiles = size_t{1} << mid, side = size_t{1} << tile_log;
  const size_t grain = std::max<size_t>(1, task_elements >> (2 * tile_log));
  parallel_tasks(tiles, threads, [&](size_t m) {
    const size_t mr = detail::reverse_bits(m, mid);
    if (mr < m) return;
    for (size_t a = 0; a < side; ++a) {
      const size_t ar = detail::reverse_bits(a, tile_log);
      for (size_t b = 0; b < side; ++b) {
        const size_t i = (a << (mid + tile_log)) | (m << tile_log) | b;
        const size_t j = (detail::reverse_bits(b, tile_log) << (mid + tile_log)) | (mr << tile_log) | ar;
        if (m != mr || i < j) std::swap(x[i], x[j]);
      }
    }
  }, grain);
}

// x[i] *= g^i: the change of variable between a coset and the subgroup.
template <class Fr>
void multiply_by_powers(Fr* x, size_t n, const Fr& g, unsigned threads) {
  const size_t tasks = (n + task_elements - 1) / task_elements;
  parallel_tasks(tasks, threads, [&](size_t t) {
    const uint64_t b = t * task_elements;
    const size_t e = std::min(n, (size_t)b + task_elements);
    Fr f = g.pow(&b, 1);
    for (size_t i = b; i < e; ++i, f *= g) x[i] *= f;
  });
}

// The unscaled transform with ω (forward) or ω⁻¹ (inverse); the inverse also
// multiplies by 1/n, folded into the joining twiddles where there are any.
template <class Fr>
void transform(const Domain<Fr>& d, Fr* x, bool inverse, unsigned threads) {
  const auto& t = d.ntt_tables();
  const Fr* tw = t.stage[inverse].data();
  const unsigned k = d.log_size();
  const size_t n = d.size();
  if (t.log_rows == 0) {
    // Small enough to stay in cache, too small to be worth a thread.
    dif(x, k, 1, tw);
    bit_reverse(x, k, 1);
    if (inverse)
      for (size_t i = 0; i < n; ++i) x[i] *= d.size_inv();
    return;
  }

  const size_t rows = size_t{1} << t.log_rows, cols = size_t{1} << t.log_cols;
  // Columns per block: enough for whole cache lines, few enough for L2.
  const size_t width = std::clamp<size_t>(cache_elements / rows, 2, 16);

  const size_t blocks = cols / width;
  const size_t col_workers = parallel_workers(blocks, threads);
  std::vector<Fr> scratch(col_workers * rows * width);
  parallel_tasks(blocks, threads, [&](size_t blk, size_t worker) {
    Fr* buf = scratch.data() + worker * rows * width;
    Fr* col = x + blk * width;
    for (size_t a = 0; a < rows; ++a) std::copy_n(col + a * cols, width, buf + a * width);
    dif(buf, t.log_rows, width, tw);
    for (size_t a = 0; a < rows; ++a) std::copy_n(buf + a * width, width, col + a * cols);
  });

  const Fr first = inverse ? d.size_inv() : Fr::one();
  const size_t row_grain = std::max<size_t>(1, task_elements >> t.log_cols);
  parallel_tasks(rows, threads, [&](size_t p) {
    Fr* row = x + p * cols;
    const Fr step = t.row_step[inverse][p];
    Fr w = first;
    for (size_t b = 0; b < cols; ++b, w *= step) row[b] *= w;
    dif(row, t.log_cols, 1, tw);
  }, row_grain);

  bit_reverse(x, k, threads);
}

template <class Fr>
void check_args(const Domain<Fr>& d, std::span<Fr> values, const char* fn) {
  if (values.size() != d.size())
    throw std::invalid_argument(std::string(fn) + ": " + std::to_string(values.size()) +
                                " values for a domain of size " + std::to_string(d.size()));
}

template <class Fr>
void check_shift(const Fr& g, const char* fn) {
  if (g.is_zero()) throw std::invalid_argument(std::string(fn) + ": the coset shift is zero");
}

}  // namespace

template <class Fr>
void ntt(const Domain<Fr>& domain, std::span<Fr> values, unsigned threads) {
  check_args(domain, values, "ntt");
  transform(domain, values.data(), false, resolve_threads(threads));
}

template <class Fr>
void intt(const Domain<Fr>& domain, std::span<Fr> values, unsigned threads) {
  check_args(domain, values, "intt");
  transform(domain, values.data(), true, resolve_threads(threads));
}

template <class Fr>
void coset_ntt(const Domain<Fr>& domain, std::span<Fr> values, const Fr& g, unsigned threads) {
  check_args(domain, values, "coset_ntt");
  check_shift(g, "coset_ntt");
  threads = resolve_threads(threads);
  multiply_by_powers(values.data(), values.size(), g, threads);
  transform(domain, values.data(), false, threads);
}

template <class Fr>
void coset_intt(const Domain<Fr>& domain, std::span<Fr> values, const Fr& g, unsigned threads) {
  check_args(domain, values, "coset_intt");
  check_shift(g, "coset_intt");
  threads = resolve_threads(threads);
  transform(domain, values.data(), true, threads);
  multiply_by_powers(values.data(), values.size(), g.inverse(), threads);
}

#define CUZK_POLY_NTT_INSTANTIATE(Fr)                                                   \
  template void ntt<Fr>(const Domain<Fr>&, std::span<Fr>, unsigned);                   \
  template void intt<Fr>(const Domain<Fr>&, std::span<Fr>, unsigned);                  \
  template void coset_ntt<Fr>(const Domain<Fr>&, std::span<Fr>, const Fr&, unsigned);  \
  template void coset_intt<Fr>(const Domain<Fr>&, std::span<Fr>, const Fr&, unsigned);
CUZK_POLY_NTT_INSTANTIATE(ff::bn254::Fr)
CUZK_POLY_NTT_INSTANTIATE(ff::bls12_381::Fr)
#undef CUZK_POLY_NTT_INSTANTIATE

}  // namespace cuzk::poly
