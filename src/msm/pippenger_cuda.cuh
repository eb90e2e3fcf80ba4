// Device Pippenger (see pippenger_cuda.hpp for the method). Included once per
// group by the pippenger_cuda_<curve>_<group>.cu files, so the four groups
// compile in parallel.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/msm/pippenger_cuda.hpp"

namespace cuzk::msm::gpu {

using cuda::Arena;
using cuda::DeviceScope;

namespace detail {

// Every stage below is a chain of dependent point additions per thread. With
// many terms the grid is larger than the GPU and long chains amortise the
// partial results they hand on; with few (a small proof, a witness that is
// mostly 0/1) the grid is a fraction of the GPU and the chain's length is the
// time. So each stage takes the longest chain within its bounds that still
// gives kFillThreads threads per multiprocessor one each (chain_for).
constexpr unsigned kSegmentMax = 256, kSegmentMin = 8;  // level 0: sorted entries a thread adds up
constexpr unsigned kBucketSegmentMax = 32, kBucketSegmentMin = 4;  // buckets a thread weights
constexpr unsigned kOnesSegmentMax = 64, kOnesSegmentMin = 8;  // candidates for scalar 1 a thread reads
constexpr unsigned kFillThreads = 256;
// The fan-in of the later accumulation levels (each thread hands on two
// partial sums, so a level shrinks the list eightfold) and of the tree sums
// (a level of fan f costs f additions in a row: 4 keeps the chains short,
// and the extra levels are cheap launches on the same stream).
constexpr unsigned kPartialSegment = 16;
constexpr unsigned kTreeFan = 4;
constexpr unsigned kThreads = 128;

// The largest chunk of significant scalars processed at once; larger MSMs (and
// smaller ones on a card short of memory) run in chunks whose window sums are
// added. One chunk of 2^26 measured faster than two of 2^25 on G1; G2 keeps
// 2^25 (docs/PERFORMANCE.md).
template <class C>
constexpr size_t default_chunk() {
  return sizeof(typename C::F) <= 48 ? size_t(1) << 26 : size_t(1) << 25;
}

// Page-locked slots for the window sums the GPU writes back, shared by every
// MSM of the process: a few KiB each, allocated once per size and reused, so
// that no proof pays for page-locking. Host-side only (a slot returns when its
// MSM has been waited for), so sharing it across streams and devices is safe.
inline cuda::HostArena& results_arena() {
  static cuda::HostArena arena;
  return arena;
}

// The current device's multiprocessor count.
inline unsigned multiprocessors() {
  int dev = 0, sms = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return (unsigned)sms;
}

inline unsigned blocks_for(size_t threads) { return (unsigned)std::max<size_t>(1, (threads + kThreads - 1) / kThreads); }

// The longest chain, a power of two in [lo, hi], for which `items` still give
// every one of `threads` threads a chain of its own.
inline unsigned chain_for(size_t items, unsigned lo, unsigned hi, size_t threads) {
  unsigned len = hi;
  while (len > lo && items / len < threads) len /= 2;
  return len;
}

// Windows of c bits with the digit offset below: W·c >= bits + 2.
template <class Fr>
unsigned windows_for(unsigned c) {
  return (Fr::bits + 2 + c - 1) / c;
}

// Signed digits by an offset, as on the host (pippenger_host_templates.hpp): with
// K = sum_w 2^(c-1) 2^(wc), the c-bit windows u_w of k + K give
// k = sum_w (u_w − 2^(c-1)) 2^(wc). Digit d becomes key w·B + |d| − 1 (B =
// 2^(c-1) buckets per window) with the sign in the value's top bit; d = 0 gets
// the key W·B, which sorts after every bucket and is skipped. Only the m
// significant scalars take digits: entry j is scalar i = indices[from + j]
// (i = from + j without a list: Classified::all), and its value names base
// i − first, the MSM's bases being those of scalars [first, ...).
template <class Fr>
__global__ void digits_kernel(const Fr* scalars, const uint32_t* indices, size_t from, size_t m, uint32_t first,
                              unsigned c, unsigned windows, uint32_t* keys, uint32_t* vals) {
  constexpr size_t words = 2 * Fr::N + 2;
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const uint32_t buckets = 1u << (c - 1), skip = windows * buckets;
  const uint32_t i = indices ? indices[from + j] : (uint32_t)(from + j);
  uint64_t limbs[Fr::N];
  scalars[i].to_canonical(limbs);
  uint32_t k[words] = {};
#pragma unroll
  for (size_t q = 0; q < Fr::N; ++q) {
    k[2 * q] = (uint32_t)limbs[q];
    k[2 * q + 1] = (uint32_t)(limbs[q] >> 32);
  }
  uint64_t carry = 0;
#pragma unroll
  for (size_t q = 0; q < words; ++q) {
    uint32_t off = 0;
    for (unsigned w = 0; w < windows; ++w) {
      const unsigned bit = w * c + c - 1;
      if (bit / 32 == q) off |= 1u << (bit % 32);
    }
    const uint64_t x = (uint64_t)k[q] + off + carry;
    k[q] = (uint32_t)x;
    carry = x >> 32;
  }
  for (unsigned w = 0; w < windows; ++w) {
    const unsigned bit = w * c, word = bit / 32, off = bit % 32;
    uint64_t v = k[word] >> off;
    if (word + 1 < words) v |= (uint64_t)k[word + 1] << (32 - off);
    const int d = (int)(v & ((1u << c) - 1)) - (int)buckets;
    keys[w * m + j] = d == 0 ? skip : w * buckets + (uint32_t)(d < 0 ? -d : d) - 1;
    vals[w * m + j] = (i - first) | (d < 0 ? 0x80000000u : 0u);
  }
}

// A sum of one run of equal keys, handed to the next level.
template <class C>
struct Partial {
  uint32_t key;
  ec::Xyzz<C> sum;
};

// One thread's share of the segmented bucket sums: entries [begin, end) of a
// list sorted by key. A run of one key that lies wholly inside the segment (not
// its first, not its last) is a complete bucket and is stored; the first and
// last runs may continue in the neighbouring segments, so they go to the
// partial list (two per thread, keys still in order) for the next level, which
// is the same pass over a list shorter by the segment length. On the last
// level (one thread) every run is complete. Entries with the skip key are
// passed over: on level 0 they sort last, later ones come from empty segments.
// key(p) reads entry p's key, add(acc, p) adds entry p into acc.
template <class C, class Key, class Add>
__device__ void accumulate_segment(size_t begin, size_t end, uint32_t skip, Key key, Add add, ec::Xyzz<C>* buckets,
                                   Partial<C>* partials, size_t t, bool last_level) {
  using Xyzz = ec::Xyzz<C>;
  // The head goes out as soon as it is complete instead of being held to the
  // end: a point fewer in registers lets more warps run this latency-bound
  // loop (147 -> 96 registers for BN254 G1).
  bool have_head = false;
  uint32_t cur = skip;
  Xyzz acc = Xyzz::infinity();
  for (size_t p = begin; p < end; ++p) {
    const uint32_t k = key(p);
    if (k == skip) continue;
    if (k != cur) {
      if (cur != skip) {
        if (!have_head && !last_level)
          partials[2 * t] = {cur, acc};
        else
          buckets[cur] = acc;
        have_head = true;
      }
      cur = k;
      acc = Xyzz::infinity();
    }
    add(acc, p);
  }
  if (last_level) {
    if (cur != skip) buckets[cur] = acc;
    return;
  }
  if (!have_head) {  // one run (or none): it is the head, and there is no tail
    partials[2 * t] = {cur, acc};
    cur = skip;
    acc = Xyzz::infinity();
  }
  partials[2 * t + 1] = {cur, acc};
}

// Level 0: the sorted (key, signed point index) list, compiled for MinBlocks
// blocks per SM.
template <class C, unsigned MinBlocks>
__global__ void __launch_bounds__(kThreads, MinBlocks)
    accumulate_points_kernel(const uint32_t* keys, const uint32_t* vals, size_t total, unsigned segment,
                             uint32_t skip, const ec::Affine<C>* bases, ec::Xyzz<C>* buckets, Partial<C>* partials,
                             bool last_level) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t begin = t * segment;
  if (begin >= total) return;
  accumulate_segment<C>(
      begin, std::min(total, begin + segment), skip, [&](size_t p) { return keys[p]; },
      [&](ec::Xyzz<C>& acc, size_t p) {
        const uint32_t v = vals[p];
        const ec::Affine<C> b = bases[v & 0x7fffffffu];
        acc = acc.add(v >> 31 ? -b : b);
      },
      buckets, partials, t, last_level);
}

// Occupancy decides the speed of the level-0 loop, which is latency-bound, and
// so does the grid's last wave. BN254 G1 runs at 5 blocks per SM (96
// registers, ptxas's own choice). BLS12-381 G1 runs the spill-free
// 164-register kernel (3 blocks) on grids of two or more waves of the 4-block
// one, and the 4-block one (128 registers, a small spill) on smaller grids,
// whose last wave it shortens (docs/PERFORMANCE.md). G2 stays at ptxas's
// choice.
template <class C>
void launch_level0(unsigned grid, cudaStream_t stream, const uint32_t* keys, const uint32_t* vals, size_t total,
                   unsigned segment, uint32_t skip, const ec::Affine<C>* bases, ec::Xyzz<C>* buckets,
                   Partial<C>* partials, bool last_level) {
  constexpr size_t fq = sizeof(typename C::F);
  auto go = [&](auto kernel) {
    kernel<<<grid, kThreads, 0, stream>>>(keys, vals, total, segment, skip, bases, buckets, partials, last_level);
    CUZK_CUDA_CHECK_LAUNCH();
  };
  if constexpr (fq == 32) {
    go(accumulate_points_kernel<C, 5>);
  } else if constexpr (fq == 48) {
    if (grid >= 2 * 4 * multiprocessors()) go(accumulate_points_kernel<C, 3>);
    else go(accumulate_points_kernel<C, 4>);
  } else {
    go(accumulate_points_kernel<C, 1>);
  }
}

// Levels 1 and up: the partial list of the level before.
template <class C>
__global__ void accumulate_partials_kernel(const Partial<C>* in, size_t total, uint32_t skip, ec::Xyzz<C>* buckets,
                                           Partial<C>* out, bool last_level) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t begin = t * kPartialSegment;
  if (begin >= total) return;
  accumulate_segment<C>(
      begin, std::min(total, begin + kPartialSegment), skip, [&](size_t p) { return in[p].key; },
      [&](ec::Xyzz<C>& acc, size_t p) { acc = acc.add(in[p].sum); }, buckets, out, t, last_level);
}

// sum_{j in segment} (j + 1)·B_j for one segment of one window's buckets, as
// T + s·R with a running sum from the top: T = sum (j − s + 1) B_j, R = sum B_j
// (s = the segment's first index).
template <class C>
__global__ void bucket_segments_kernel(const ec::Xyzz<C>* buckets, unsigned windows, uint32_t per_window,
                                       unsigned segment, ec::Xyzz<C>* out) {
  using Xyzz = ec::Xyzz<C>;
  const uint32_t segments = per_window / segment;
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (size_t)windows * segments) return;
  const size_t w = t / segments, seg = t % segments;
  const Xyzz* b = buckets + w * per_window + seg * segment;
  Xyzz running = Xyzz::infinity(), sum = Xyzz::infinity();
  for (int j = (int)segment - 1; j >= 0; --j) {
    running = running.add(b[j]);
    sum = sum.add(running);
  }
  // + s·R, s = seg·segment, by double-and-add from s's top bit (s < 2^c: a
  // chain of c doublings at most, not 32).
  const uint32_t s = (uint32_t)seg * segment;
  if (s != 0) {
    Xyzz m = running;
    for (int bit = 30 - __clz(s); bit >= 0; --bit) {
      m = m.dbl();
      if ((s >> bit) & 1) m = m.add(running);
    }
    sum = sum.add(m);
  }
  out[t] = sum;
}

// out[g·out_len + q] = sum of in[g·len + q·fan .. g·len + min(len, (q+1)·fan)).
template <class C>
__global__ void sum_groups_kernel(const ec::Xyzz<C>* in, size_t groups, size_t len, unsigned fan, ec::Xyzz<C>* out) {
  const size_t out_len = (len + fan - 1) / fan;
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * out_len) return;
  const size_t g = t / out_len, q = t % out_len;
  const size_t b = q * fan, e = std::min(len, b + fan);
  ec::Xyzz<C> acc = ec::Xyzz<C>::infinity();
  for (size_t i = b; i < e; ++i) acc = acc.add(in[g * len + i]);
  out[t] = acc;
}

// Batch addition of the points whose scalar is 1 (scalars ones[0, n), bases
// ones[i] − first), `segment` per thread.
template <class C>
__global__ void ones_kernel(const ec::Affine<C>* bases, const uint32_t* ones, size_t n, uint32_t first,
                            unsigned segment, ec::Xyzz<C>* out) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t b = t * segment;
  if (b >= n) return;
  const size_t e = std::min(n, b + segment);
  ec::Xyzz<C> acc = ec::Xyzz<C>::infinity();
  for (size_t i = b; i < e; ++i) acc = acc.add(bases[ones[i] - first]);
  out[t] = acc;
}

// Tree-sums `groups` rows of `len` points in place (ping-ponging with `spare`)
// down to one point per group; returns where the sums are (groups of 1).
template <class C>
ec::Xyzz<C>* sum_groups(ec::Xyzz<C>* data, ec::Xyzz<C>* spare, size_t groups, size_t len, cudaStream_t stream) {
  while (len > 1) {
    const size_t out_len = (len + kTreeFan - 1) / kTreeFan;
    sum_groups_kernel<C><<<blocks_for(groups * out_len), kThreads, 0, stream>>>(data, groups, len, kTreeFan, spare);
    CUZK_CUDA_CHECK_LAUNCH();
    std::swap(data, spare);
    len = out_len;
  }
  return data;
}

// Sorts n (key, value) pairs by the low key_bits of the key into keys_out and
// vals_out, with CUB's radix sort; the inputs serve as its second buffer and
// are overwritten. temp = nullptr returns the temporary storage it needs. One
// instantiation for all four groups (pippenger_cuda.cu).
size_t sort_pairs(void* temp, size_t temp_bytes, uint32_t* keys, uint32_t* keys_out, uint32_t* vals,
                  uint32_t* vals_out, size_t n, unsigned key_bits, cudaStream_t stream);

// One chunk of m significant scalars: its windows, the chain lengths of its
// stages on a GPU that fills with `fill` threads, and its scratch, in bytes.
template <class C>
struct Plan {
  using Xyzz = ec::Xyzz<C>;
  using Fr = typename C::Fr;
  size_t m;
  unsigned c, windows;
  uint32_t buckets;  // per window
  size_t entries, level0_partials, sort_temp = 0;
  unsigned key_bits, segment, bucket_segment;

  Plan(size_t m_, unsigned c_, size_t fill) : m(m_), c(c_), windows(windows_for<Fr>(c_)), buckets(1u << (c_ - 1)) {
    entries = (size_t)windows * m;
    segment = chain_for(entries, kSegmentMin, kSegmentMax, fill);
    bucket_segment = chain_for((size_t)windows * buckets, kBucketSegmentMin, kBucketSegmentMax, fill);
    level0_partials = 2 * ((entries + segment - 1) / segment);
    key_bits = 1;
    while ((size_t(1) << key_bits) <= (size_t)windows * buckets) ++key_bits;
  }
  size_t bucket_sums() const { return (size_t)windows * (buckets / bucket_segment); }
  // Everything but the sort's temporary storage.
  size_t bytes() const {
    return 4 * entries * sizeof(uint32_t) + (size_t)windows * buckets * sizeof(Xyzz) +
           2 * level0_partials * sizeof(Partial<C>) + 2 * bucket_sums() * sizeof(Xyzz);
  }
};

// How m significant scalars are cut: into `count` even chunks of `size`, at
// most max_chunk each and with scratch that fits in half of what the device
// has free now, and the window c of such a chunk.
struct Chunks {
  size_t size = 0, count = 0;
  unsigned c = 0;
};

template <class C>
Chunks plan_chunks(size_t m, size_t max_chunk, size_t fill, const Arena& arena) {
  if (m == 0) return {};
  size_t size = std::min(m, max_chunk ? max_chunk : default_chunk<C>());
  // The arena's free blocks count as free: take() returns them when it must.
  const size_t budget = (cuda::free_device_memory() + arena.free_bytes()) / 2;
  while (size > 4096 && Plan<C>(size, window_bits(size), fill).bytes() > budget) size = (size + 1) / 2;
  const size_t count = (m + size - 1) / size;
  size = (m + count - 1) / count;
  return {size, count, window_bits(size)};
}

// The bucket sums of sorted (key, value) entries, through the levels of
// partial sums, into buckets (which must be all infinity).
template <class C>
void accumulate_buckets(const Plan<C>& plan, const uint32_t* keys, const uint32_t* vals, size_t entries,
                        const ec::Affine<C>* bases, ec::Xyzz<C>* buckets, Partial<C>* parts, cudaStream_t stream) {
  const uint32_t skip = plan.windows * plan.buckets;
  Partial<C>* pa = parts;
  Partial<C>* pb = parts + plan.level0_partials;
  size_t threads = (entries + plan.segment - 1) / plan.segment;
  const bool single = threads == 1;
  launch_level0<C>(blocks_for(threads), stream, keys, vals, entries, plan.segment, skip, bases, buckets, pa, single);
  for (size_t len = single ? 0 : 2 * threads; len > 0;) {
    threads = (len + kPartialSegment - 1) / kPartialSegment;
    const bool last = threads == 1;
    accumulate_partials_kernel<C><<<blocks_for(threads), kThreads, 0, stream>>>(pa, len, skip, buckets, pb, last);
    CUZK_CUDA_CHECK_LAUNCH();
    std::swap(pa, pb);
    len = last ? 0 : 2 * threads;
  }
}

// Steps 2 to 5 for the significant scalars at positions [from, from + m) of
// k's list, chunk by chunk; the bases are those of scalars [first, ...). Each
// chunk's window sums are copied to out + chunk · windows (host memory).
template <class C>
void enqueue_chunks(const Chunks& chunks, const ec::Affine<C>* bases, const Classified<typename C::Fr>& k,
                    size_t from, size_t m, uint32_t first, size_t fill, ec::Xyzz<C>* out, cudaStream_t stream,
                    Arena& arena) {
  using Xyzz = ec::Xyzz<C>;
  if (chunks.count == 0) return;
  Plan<C> plan(chunks.size, chunks.c, fill);
  plan.sort_temp = sort_pairs(nullptr, 0, nullptr, nullptr, nullptr, nullptr, plan.entries, plan.key_bits, stream);
  auto keys = arena.take(2 * plan.entries * sizeof(uint32_t));
  auto vals = arena.take(2 * plan.entries * sizeof(uint32_t));
  auto sort_temp = arena.take(plan.sort_temp);
  auto buckets = arena.take((size_t)plan.windows * plan.buckets * sizeof(Xyzz));
  auto parts = arena.take(2 * plan.level0_partials * sizeof(Partial<C>));
  auto sums = arena.take(2 * plan.bucket_sums() * sizeof(Xyzz));
  uint32_t* k0 = keys.as<uint32_t>();
  uint32_t* v0 = vals.as<uint32_t>();
  uint32_t* keys_out = k0 + plan.entries;
  uint32_t* vals_out = v0 + plan.entries;
  Xyzz* bk = buckets.as<Xyzz>();
  Xyzz* s0 = sums.as<Xyzz>();
  for (size_t ch = 0; ch < chunks.count; ++ch) {
    const size_t b = ch * chunks.size, mc = std::min(m, b + chunks.size) - b;
    const size_t entries = (size_t)plan.windows * mc;
    digits_kernel<<<blocks_for(mc), kThreads, 0, stream>>>(k.scalars(), k.significant(), from + b, mc, first, plan.c,
                                                           plan.windows, k0, v0);
    CUZK_CUDA_CHECK_LAUNCH();
    sort_pairs(sort_temp.as<void>(), plan.sort_temp, k0, keys_out, v0, vals_out, entries, plan.key_bits, stream);
    CUZK_CUDA_CHECK(cudaMemsetAsync(bk, 0, buckets.bytes(), stream));  // all zeros is infinity (ZZ = 0)
    accumulate_buckets<C>(plan, keys_out, vals_out, entries, bases, bk, parts.as<Partial<C>>(), stream);
    bucket_segments_kernel<C><<<blocks_for(plan.bucket_sums()), kThreads, 0, stream>>>(
        bk, plan.windows, plan.buckets, plan.bucket_segment, s0);
    CUZK_CUDA_CHECK_LAUNCH();
    const Xyzz* window_sums = sum_groups<C>(s0, s0 + plan.bucket_sums(), plan.windows,
                                            plan.buckets / plan.bucket_segment, stream);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(out + ch * plan.windows, window_sums, plan.windows * sizeof(Xyzz),
                                    cudaMemcpyDeviceToHost, stream));
  }
}

// The sum of the n points whose scalar is 1 (scalars ones[0, n), bases
// ones[i] − first), by a tree of additions, copied to *out (host memory).
template <class C>
void enqueue_ones(const ec::Affine<C>* bases, const uint32_t* ones, size_t n, uint32_t first, size_t fill,
                  ec::Xyzz<C>* out, cudaStream_t stream, Arena& arena) {
  using Xyzz = ec::Xyzz<C>;
  if (n == 0) {
    *out = Xyzz::infinity();
    return;
  }
  const unsigned segment = chain_for(n, kOnesSegmentMin, kOnesSegmentMax, fill);
  const size_t len = (n + segment - 1) / segment;
  // The tree's first level writes ceil(len / fan) sums into the spare part,
  // the later levels fewer, alternately.
  auto sums = arena.take((len + (len + kTreeFan - 1) / kTreeFan) * sizeof(Xyzz));
  Xyzz* s0 = sums.as<Xyzz>();
  ones_kernel<C><<<blocks_for(len), kThreads, 0, stream>>>(bases, ones, n, first, segment, s0);
  CUZK_CUDA_CHECK_LAUNCH();
  const Xyzz* sum = sum_groups<C>(s0, s0 + len, 1, len, stream);
  CUZK_CUDA_CHECK(cudaMemcpyAsync(out, sum, sizeof(Xyzz), cudaMemcpyDeviceToHost, stream));
}

}  // namespace detail

template <class C>
struct Msm<C>::State {
  unsigned c = 0, windows = 0;
  size_t chunks = 0;
  // Each chunk's window sums, then the sum of the points whose scalar is 1.
  cuda::HostArena::Block results;
  cuda::InFlight work;  // last: the GPU may still write into the results

  explicit State(cudaStream_t stream) : work(stream) {}
};

template <class C>
Msm<C>::Msm(std::unique_ptr<State> s) : state_(std::move(s)) {}
template <class C>
Msm<C>::Msm(Msm&&) noexcept = default;
template <class C>
Msm<C>& Msm<C>::operator=(Msm&&) noexcept = default;
template <class C>
Msm<C>::~Msm() = default;

template <class C>
Msm<C> Msm<C>::enqueue(const ec::Affine<C>* bases, const Fr* scalars, size_t n, cudaStream_t stream, Arena& arena,
                       size_t max_chunk) {
  const Classified<Fr> classified(scalars, n, {}, stream, arena);
  return enqueue(bases, classified, 0, n, stream, arena, max_chunk);
}

template <class C>
Msm<C> Msm<C>::enqueue(const ec::Affine<C>* bases, const Classified<Fr>& k, size_t begin, size_t end,
                       cudaStream_t stream, Arena& arena, size_t max_chunk) {
  using namespace detail;
  using Xyzz = ec::Xyzz<C>;
  const auto range = k.range(begin, end);
  const size_t m = range.significant_end - range.significant_begin;
  const size_t fill = (size_t)kFillThreads * multiprocessors();
  auto st = std::make_unique<State>(stream);
  const Chunks chunks = plan_chunks<C>(m, max_chunk, fill, arena);
  st->c = chunks.c;
  st->chunks = chunks.count;
  st->windows = chunks.count ? windows_for<Fr>(chunks.c) : 0;
  st->results = results_arena().take((st->chunks * st->windows + 1) * sizeof(Xyzz));
  Xyzz* out = st->results.template as<Xyzz>();
  enqueue_chunks<C>(chunks, bases, k, range.significant_begin, m, (uint32_t)begin, fill, out, stream, arena);
  enqueue_ones<C>(bases, k.ones() + range.ones_begin, range.ones_end - range.ones_begin, (uint32_t)begin, fill,
                  out + st->chunks * st->windows, stream, arena);
  st->work.finish();
  return Msm(std::move(st));
}

template <class C>
size_t Msm<C>::scratch_bytes(size_t m) {
  using namespace detail;
  if (m == 0) return 0;
  Plan<C> plan(m, window_bits(m), (size_t)kFillThreads * multiprocessors());
  return plan.bytes() + sort_pairs(nullptr, 0, nullptr, nullptr, nullptr, nullptr, plan.entries, plan.key_bits, 0);
}

template <class C>
ec::Jacobian<C> Msm<C>::wait() {
  using Xyzz = ec::Xyzz<C>;
  if (!state_ || state_->work.waited()) throw std::logic_error("msm: wait() called twice");
  state_->work.wait();
  const State& s = *state_;
  const Xyzz* sums = s.results.template as<Xyzz>();
  Xyzz acc = Xyzz::infinity();
  for (unsigned w = s.windows; w-- > 0;) {
    for (unsigned i = 0; i < s.c; ++i) acc = acc.dbl();
    for (size_t ch = 0; ch < s.chunks; ++ch) acc = acc.add(sums[ch * s.windows + w]);
  }
  return acc.add(sums[s.chunks * s.windows]).to_jacobian();
}

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const typename C::Fr> scalars) {
  using Fr = typename C::Fr;
  if (bases.size() != scalars.size())
    throw std::invalid_argument("msm: " + std::to_string(bases.size()) + " bases but " +
                                std::to_string(scalars.size()) + " scalars");
  cuda::DeviceBuffer<ec::Affine<C>> db(bases.size());
  cuda::DeviceBuffer<Fr> ds(scalars.size());
  cuda::Stream stream;
  db.upload(bases, stream);
  ds.upload(scalars, stream);
  Arena arena;
  auto job = Msm<C>::enqueue(db.data(), ds.data(), bases.size(), stream, arena);
  return job.wait();
}

#define CUZK_MSM_CUDA_INSTANTIATE(C) \
  template class Msm<C>;             \
  template ec::Jacobian<C> msm<C>(std::span<const ec::Affine<C>>, std::span<const C::Fr>);

}  // namespace cuzk::msm::gpu
