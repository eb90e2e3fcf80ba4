// Device NTT: shared-memory passes of up to ten radix-2 stages (see ntt_cuda.hpp);
// pass_reg_kernel keeps 4 points a thread in registers; pass_kernel, one
// butterfly a thread, runs the one-stage transform (2 points) it cannot.
//
// A pass over stages [t_lo, t_lo + S) touches index bits t_lo .. t_lo+S-1 only,
// so the 2^S points that share the other bits form an independent sub-transform:
// one block loads them into shared memory, runs the S stages there and writes
// them back. Points are 32 bytes, a whole memory sector, so the strided loads of
// the upper passes waste no bandwidth.
//
// Twiddles: stage t (half-size h = 2^t) needs ω_{2h}^j = ω_n^(j·n/2h), read from
// one table of ω_n^j, j < n/2, per direction; stages with few distinct twiddles
// hit in cache. Coset powers c·g^i are a product of two small tables (low and
// high 10 bits of i), one multiplication per point, paid once per transform.
#include <algorithm>
#include <vector>

#include "cuzk/cuda/map.cuh"
#include "cuzk/cuda/runtime.hpp"
#include "cuzk/poly/ntt_cuda.hpp"
#include "pow_table.cuh"

namespace cuzk::poly::gpu {

using cuda::DeviceBuffer;

namespace {

__device__ __forceinline__ size_t reverse_index(size_t i, unsigned bits) {
  return bits ? (size_t)(__brevll((unsigned long long)i) >> (64 - bits)) : 0;
}

// One pass of S stages, one butterfly a thread (2^(S-1) threads); Dit:
// Cooley–Tukey stages t_lo upwards (bit-reversed in, natural out); otherwise
// Gentleman–Sande stages downwards (natural in, bit-reversed out). With `scale`
// set, the point written to position p is multiplied by scale.at(rev(p)): the
// coset shift, applied to the coefficient that position holds after an inverse
// transform's last pass. Only transforms too small for pass_reg_kernel use it.
template <class Fr, bool Dit>
__global__ void pass_kernel(Fr* x, const Fr* tw, unsigned log_n, unsigned t_lo, unsigned stages, PowTable<Fr> scale) {
  extern __shared__ uint4 shared_raw[];
  Fr* s = reinterpret_cast<Fr*>(shared_raw);
  const size_t low = blockIdx.x & ((size_t(1) << t_lo) - 1);
  const size_t high = (size_t)blockIdx.x >> t_lo;
  const unsigned half = 1u << (stages - 1);
  const unsigned k = threadIdx.x;
  auto global = [&](unsigned l) { return (high << (t_lo + stages)) | ((size_t)l << t_lo) | low; };

  s[k] = x[global(k)];
  s[k + half] = x[global(k + half)];
  for (unsigned step = 0; step < stages; ++step) {
    const unsigned u = Dit ? step : stages - 1 - step;
    __syncthreads();
    const unsigned mask = (1u << u) - 1;
    const unsigned i0 = ((k >> u) << (u + 1)) | (k & mask), i1 = i0 + (1u << u);
    const size_t j = ((size_t)(k & mask) << t_lo) | low;
    const Fr w = tw[j << (log_n - (t_lo + u) - 1)];
    const Fr a = s[i0], b = s[i1];
    if (Dit) {
      const Fr t = b * w;
      s[i0] = a + t;
      s[i1] = a - t;
    } else {
      s[i0] = a + b;
      s[i1] = (a - b) * w;
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned l = k, i = 0; i < 2; ++i, l += half) {
    const size_t g = global(l);
    x[g] = scale.lo ? s[l] * scale.at(reverse_index(g, log_n)) : s[l];
  }
}

// What bounds these passes (Nsight Compute, 2^20 on the H200): the L1/shared
// pipe at 70-77 % of its peak, from the 32-byte points exchanged through
// shared memory between rounds, per-lane twiddle loads and a few spills, while
// the multiplier pipe sits near 29 %. Column factors applied once a point
// (four-step) and 8 points a thread were both measured slower
// (docs/PERFORMANCE.md); exchanges by warp shuffles are what is left to try.
//
// Shared-memory slot of local point l: one 32-byte pad after every 8 points, so
// points a multiple of 8 apart, as the threads of a round hold them, spread
// over the banks.
__device__ __forceinline__ unsigned padded(unsigned l) { return l + (l >> 3); }

// One pass of S stages (B <= S <= kRegMaxStages), as pass_kernel, with each of
// the 2^(S-B) threads of a sub-transform holding 2^B = 4 points in registers.
// The launch bounds ask ptxas for kRegMinBlocks blocks of the largest pass per
// SM: 4 caps the registers at 64 a thread, for occupancy (3, without the
// spills, measured slower: docs/PERFORMANCE.md). Passes have at most 10
// stages: two 11-stage passes (512-thread blocks, two an SM) are slower at
// 2^22 than three of 7-8 stages (docs/PERFORMANCE.md). The stages run in
// rounds of up to B: in a round whose stages touch local bits inside [c, c+B),
// a thread holds the 2^B points l = (hi << (c+B)) | (m << c) | lo (m < 2^B; lo,
// hi from the thread index), does the round's butterflies in registers, and
// the points move between rounds through shared memory. Stages therefore cost
// one shared-memory store and load per point every B stages, and one barrier
// pair per round. Global stage 0 (twiddle 1) skips its multiplication. A pass
// reads `in` and writes `out`: each block writes back exactly the positions it
// read, so they may be equal. When t_lo = 0 the points are contiguous in device
// memory: they are loaded and stored coalesced (point l by thread l mod T) and
// rearranged in shared memory.
//
// A block runs one sub-transform (kPlain) or 2^batch of them, sub-transform
// i taken by the threads i mod 2^batch and held at shared slots (l << batch) | i:
//  - kColumns (a pass with t_lo >= batch): the 2^batch adjacent columns
//    low + i, so that the lanes of a warp load and store runs of 2^batch
//    consecutive points instead of one point each (and read the twiddles of
//    2^batch consecutive exponents);
//  - kReversed (the first pass of ntt() given a scratch): the pass also does
//    the bit reversal (no separate pass over the points), reading the point for position g from in[rev(g)]; the
//    sub-transforms are those at g >> S = rev(q·2^batch + i) for block q, so
//    that rev(g) runs through 2^batch consecutive points.
constexpr unsigned kRegMaxStages = kNttPassMaxStages;  // 36 KiB of shared memory
constexpr unsigned kRegBits = kNttPointBits;
constexpr unsigned kRegMinBlocks = kNttPassMinBlocks;

enum class Layout { kPlain, kColumns, kReversed };

template <class Fr, bool Dit, Layout L>
__global__ void __launch_bounds__(1 << (kRegMaxStages - kRegBits), kRegMinBlocks)
    pass_reg_kernel(const Fr* in, Fr* out, const Fr* tw, unsigned log_n, unsigned pass_t_lo, unsigned stages,
                    unsigned batch, PowTable<Fr> scale) {
  constexpr unsigned kRegPoints = 1u << kRegBits;
  constexpr bool kReversed = L == Layout::kReversed;
  extern __shared__ uint4 shared_raw[];
  Fr* s = reinterpret_cast<Fr*>(shared_raw);
  const unsigned t_lo = kReversed ? 0 : pass_t_lo;
  const unsigned b = L == Layout::kPlain ? 0 : batch;
  const unsigned tid = threadIdx.x, threads = 1u << (stages + b - kRegBits);
  const unsigned own = tid & ((1u << b) - 1), sub_tid = tid >> b;  // the thread's sub-transform, and its rank there
  const size_t first = (size_t)blockIdx.x << b;                  // kReversed: q·2^batch
  const size_t high = first >> t_lo;
  const size_t low = (first & ((size_t(1) << t_lo) - 1)) | (L == Layout::kColumns ? own : 0);
  // Position of point l of sub-transform i (kPlain and kColumns: the thread's own).
  auto global = [&](unsigned l, unsigned i) {
    if (kReversed) return (reverse_index(first | i, log_n - stages) << stages) | l;
    return (high << (t_lo + stages)) | ((size_t)l << t_lo) | low;
  };
  auto slot = [&](unsigned l, unsigned i) { return padded((l << b) | i); };
  Fr v[kRegPoints];

  // Rounds: DIT covers local stages upwards from 0, DIF downwards from S-1.
  unsigned done = 0, c = 0;
  for (unsigned round = 0; done < stages; ++round) {
    const unsigned k = min(kRegBits, stages - done);
    const unsigned a = Dit ? done : stages - done - k;  // the round's lowest stage
    c = min(a, stages - kRegBits);
    const unsigned lo = sub_tid & ((1u << c) - 1), hi = sub_tid >> c;
    auto lidx = [&](unsigned m) { return (hi << (c + kRegBits)) | (m << c) | lo; };
    if (round == 0) {
      if (L != Layout::kColumns && t_lo == 0) {
#pragma unroll
        for (unsigned m = 0; m < kRegPoints; ++m) {
          const unsigned e = m * threads + tid;
          if (kReversed) {  // e = (r, i): point rev(r) of sub-transform i, at rev(global) below
            const unsigned i = e & ((1u << b) - 1), r = e >> b;
            const size_t src = ((size_t)r << (log_n - stages)) | first | i;
            s[slot((unsigned)reverse_index(r, stages), i)] = in[src];
          } else {
            s[padded(e)] = in[global(e, 0)];
          }
        }
        __syncthreads();
#pragma unroll
        for (unsigned m = 0; m < kRegPoints; ++m) v[m] = s[slot(lidx(m), own)];
      } else {
#pragma unroll
        for (unsigned m = 0; m < kRegPoints; ++m) v[m] = in[global(lidx(m), own)];
      }
    } else {
#pragma unroll
      for (unsigned m = 0; m < kRegPoints; ++m) v[m] = s[slot(lidx(m), own)];
    }
    // The round's stages are register bits q in [a - c, a - c + k).
    const unsigned q0 = a - c;
#pragma unroll
    for (unsigned step = 0; step < kRegBits; ++step) {
      const unsigned q = Dit ? step : kRegBits - 1 - step;
      if (q < q0 || q >= q0 + k) continue;
      const unsigned u = c + q;  // local stage
      const unsigned shift = log_n - (t_lo + u) - 1;
      const bool trivial = t_lo + u == 0;
#pragma unroll
      for (unsigned m = 0; m < kRegPoints; ++m) {
        if (m & (1u << q)) continue;
        const unsigned m1 = m | (1u << q);
        const size_t j = ((size_t)(lidx(m) & ((1u << u) - 1)) << t_lo) | low;
        if (Dit) {
          const Fr t = trivial ? v[m1] : v[m1] * tw[j << shift];
          v[m1] = v[m] - t;
          v[m] = v[m] + t;
        } else {
          const Fr d = v[m] - v[m1];
          v[m] = v[m] + v[m1];
          v[m1] = trivial ? d : d * tw[j << shift];
        }
      }
    }
    done += k;
    if (done < stages) {  // to the next round's owners
      __syncthreads();  // every thread has read this round's points
#pragma unroll
      for (unsigned m = 0; m < kRegPoints; ++m) s[slot(lidx(m), own)] = v[m];
      __syncthreads();
    }
  }
  // v[m] holds local point lidx(m) of the last round (its c).
  const unsigned lo = sub_tid & ((1u << c) - 1), hi = sub_tid >> c;
  auto lidx = [&](unsigned m) { return (hi << (c + kRegBits)) | (m << c) | lo; };
  auto put = [&](unsigned l, unsigned i, const Fr& val) {
    const size_t g = global(l, i);
    out[g] = scale.lo ? val * scale.at(reverse_index(g, log_n)) : val;
  };
  if (L != Layout::kColumns && t_lo == 0) {
    __syncthreads();
#pragma unroll
    for (unsigned m = 0; m < kRegPoints; ++m) s[slot(lidx(m), own)] = v[m];
    __syncthreads();
#pragma unroll
    for (unsigned m = 0; m < kRegPoints; ++m) {  // e = (i, l): runs of 2^S points
      const unsigned e = m * threads + tid, l = e & ((1u << stages) - 1), i = e >> stages;
      put(l, i, s[slot(l, i)]);
    }
  } else {
#pragma unroll
    for (unsigned m = 0; m < kRegPoints; ++m) put(lidx(m), own, v[m]);
  }
}

// x[i] <-> x[rev(i)], each point multiplied by scale.at(its index before the
// swap) when ScaleSource, or after it otherwise.
//
// Tiled: write i = [a | m | b] with a and b of kTileBits bits each (the top and
// bottom bits); rev(i) = [rev(b) | rev(m) | rev(a)], so the 2^(2k) points of
// tile m (every a, b) go to tile rev(m), row and column swapped and reversed.
// A block takes the pair m <= rev(m): it loads both tiles with rows of 2^k
// consecutive points (coalesced), and writes each into the other's place, so
// device memory is read and written once, in runs of 2^k points. Rows in
// shared memory are padded by one point against bank conflicts.
constexpr unsigned kTileBits = 4;

template <class Fr, bool ScaleSource>
__global__ void bit_reverse_tiled_kernel(Fr* x, unsigned log_n, unsigned k, PowTable<Fr> scale) {
  extern __shared__ uint4 shared_raw[];
  Fr* s = reinterpret_cast<Fr*>(shared_raw);
  const unsigned mid_bits = log_n - 2 * k, side = 1u << k, row = side + 1, tile = side * side;
  const size_t m = blockIdx.x, mr = reverse_index(m, mid_bits);
  if (mr < m) return;
  const unsigned tid = threadIdx.x;
  auto global = [&](size_t mid, unsigned a, unsigned b) {
    return ((size_t)a << (log_n - k)) | (mid << k) | b;
  };
  const unsigned count = mr == m ? 1 : 2;
  // Tile t (t = 0: m, t = 1: mr) is held at s + t·side·row.
  for (unsigned t = 0; t < count; ++t)
    for (unsigned e = tid; e < tile; e += blockDim.x) {
      const unsigned a = e >> k, b = e & (side - 1);
      s[t * side * row + a * row + b] = x[global(t ? mr : m, a, b)];
    }
  __syncthreads();
  for (unsigned t = 0; t < count; ++t) {
    // Tile t goes to the other one's place (its own when m = rev(m)).
    const size_t src_mid = t ? mr : m, dst_mid = t ? m : mr;
    for (unsigned e = tid; e < tile; e += blockDim.x) {
      const unsigned a2 = e >> k, b2 = e & (side - 1);
      const unsigned a = (unsigned)reverse_index(b2, k), b = (unsigned)reverse_index(a2, k);
      const Fr v = s[t * side * row + a * row + b];
      const size_t dst = global(dst_mid, a2, b2);
      if (!scale.lo) {
        x[dst] = v;
      } else {
        const size_t src = global(src_mid, a, b);
        x[dst] = v * scale.at(ScaleSource ? src : dst);
      }
    }
  }
}

// The same permutation one point pair a thread, gathering x[rev(i)]: for
// transforms too small to tile.
template <class Fr, bool ScaleSource>
__global__ void bit_reverse_kernel(Fr* x, unsigned log_n, PowTable<Fr> scale) {
  const size_t n = size_t(1) << log_n;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const size_t j = reverse_index(i, log_n);
    if (j < i) continue;
    const Fr xi = x[i], xj = x[j];
    if (!scale.lo) {
      x[i] = xj;
      x[j] = xi;
    } else if (ScaleSource) {
      x[i] = xj * scale.at(j);
      if (j != i) x[j] = xi * scale.at(i);
    } else {
      x[i] = xj * scale.at(i);
      if (j != i) x[j] = xi * scale.at(j);
    }
  }
}

unsigned grid_for(size_t n, unsigned threads) {
  int dev = 0, sms = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return (unsigned)std::max<size_t>(1, std::min<size_t>((n + threads - 1) / threads, (size_t)sms * 32));
}

// The limits ntt_block_bits chooses from.
SmLimits sm_limits_of_current_device() {
  int dev = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  const auto get = [dev](cudaDeviceAttr attr) {
    int v = 0;
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, dev));
    return v;
  };
  SmLimits sm;
  sm.shared_per_sm = (size_t)get(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  sm.shared_per_block = (size_t)get(cudaDevAttrMaxSharedMemoryPerBlock);
  sm.shared_reserved_per_block = (size_t)get(cudaDevAttrReservedSharedMemoryPerBlock);
  sm.max_threads = (unsigned)get(cudaDevAttrMaxThreadsPerMultiProcessor);
  sm.max_blocks = (unsigned)get(cudaDevAttrMaxBlocksPerMultiprocessor);
  sm.registers = (unsigned)get(cudaDevAttrMaxRegistersPerMultiprocessor);
  return sm;
}

}  // namespace

template <class Fr>
struct DeviceDomain<Fr>::Tables {
  DeviceBuffer<Fr> twiddles[2];  // [0] ω^j, [1] ω^-j, j < n/2
  // Power tables (lo, hi) for: coset g^i; g^i/n; g^-i/n; 1/n.
  DeviceBuffer<Fr> pow_lo[4], pow_hi[4];
  enum Kind { kCoset, kCosetOverN, kInvCosetOverN, kOverN };
  PowTable<Fr> pow(Kind k) const { return {pow_lo[k].data(), pow_hi[k].data()}; }
};

template <class Fr>
DeviceDomain<Fr>::DeviceDomain(const Domain<Fr>& domain, unsigned block_bits)
    : domain_(domain),
      block_bits_(block_bits ? std::clamp(block_bits, kNttPointBits, kNttPassMaxStages)
                             : ntt_block_bits(sm_limits_of_current_device())),
      tables_(std::make_unique<Tables>()) {
  const size_t n = domain.size();
  const size_t half = std::max<size_t>(1, n / 2);
  // The twiddles expanded on the device from two small tables: at 2^22 the
  // host's n/2 powers and their upload were a part of a one-shot proof's
  // 112-125 ms before its key's points went up (H100), and at 2^27 they are
  // 2 GiB a direction.
  DeviceBuffer<Fr> lo[2], hi[2];  // freed after the synchronization below
  for (int d = 0; d < 2; ++d) {
    upload_pow_table(d ? domain.omega_inv() : domain.omega(), Fr::one(), half, lo[d], hi[d]);
    tables_->twiddles[d] = DeviceBuffer<Fr>(half);
    const PowTable<Fr> table{lo[d].data(), hi[d].data()};
    powers_kernel<<<grid_for(half, 256), 256>>>(tables_->twiddles[d].data(), half, table);
    CUZK_CUDA_CHECK_LAUNCH();
  }
  const Fr g = domain.coset_shift(), gi = domain.coset_shift_inv(), ni = domain.size_inv();
  const struct {
    Fr base, scale;
  } kinds[4] = {{g, Fr::one()}, {g, ni}, {gi, ni}, {Fr::one(), ni}};
  for (int k = 0; k < 4; ++k)
    upload_pow_table(kinds[k].base, kinds[k].scale, n + 1, tables_->pow_lo[k], tables_->pow_hi[k]);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class Fr>
DeviceDomain<Fr>::~DeviceDomain() = default;

template <class Fr>
size_t DeviceDomain<Fr>::device_bytes(size_t n) {
  const size_t twiddles = 2 * std::max<size_t>(1, n / 2);
  const size_t powers = 4 * ((size_t(1) << kPowLowBits) + (n >> kPowLowBits) + 1);
  return (twiddles + powers) * sizeof(Fr);
}

namespace {

// At most 2^3 sub-transforms a block in the kColumns and kReversed layouts:
// runs of up to 256 bytes.
constexpr unsigned kBatchBits = 3;

// One pass_reg_kernel launch: 2^(stages + batch) points a block (at most
// 2^kRegMaxStages: 36 KiB of shared memory, under the 48 KiB a kernel gets
// without asking, on every architecture).
template <class Fr, bool Dit, Layout L>
void launch_reg_pass(const Fr* in, Fr* out, const Fr* tw, unsigned log_n, unsigned t_lo, unsigned stages,
                     unsigned batch, PowTable<Fr> scale, cudaStream_t stream) {
  const unsigned points = 1u << (stages + batch);
  const size_t blocks = (size_t(1) << log_n) / points;
  static_assert(sizeof(Fr) * 9 / 8 == kNttSharedBytesPerPoint);
  const size_t smem = sizeof(Fr) * (points + points / 8);
  pass_reg_kernel<Fr, Dit, L><<<(unsigned)blocks, points >> kRegBits, smem, stream>>>(in, out, tw, log_n, t_lo, stages, batch, scale);
  CUZK_CUDA_CHECK_LAUNCH();
}

// All stages of one transform direction, split into near-equal passes of at
// most kRegMaxStages (each then has at least kRegBits stages), the passes with
// fewer stages batching columns up to the domain's block size; the last pass of a DIF run may scale its output (see pass_kernel).
// A transform of fewer than 2^kRegBits points is one pass_kernel pass. With a
// scratch (DIT, two passes or more), the first pass reads x in bit-reversed
// order (see pass_reg_kernel) and the passes run x -> scratch -> ... -> x.
template <class Fr, bool Dit>
void run_passes(const DeviceDomain<Fr>& d, Fr* x, int direction, PowTable<Fr> last_scale, cudaStream_t stream,
                Fr* scratch = nullptr) {
  const unsigned log_n = d.log_size();
  if (log_n == 0) return;
  const Fr* tw = d.tables().twiddles[direction].data();
  if (log_n < kRegBits) {
    pass_kernel<Fr, Dit><<<1, 1u << (log_n - 1), sizeof(Fr) << log_n, stream>>>(x, tw, log_n, 0, log_n, last_scale);
    CUZK_CUDA_CHECK_LAUNCH();
    return;
  }
  const unsigned passes = (log_n + kRegMaxStages - 1) / kRegMaxStages;
  unsigned done = 0;
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned stages = (log_n - done) / (passes - p);
    // DIT runs stages upwards from 0, DIF downwards from log_n - 1.
    const unsigned t_lo = Dit ? done : log_n - done - stages;
    const bool first = p == 0, last = p + 1 == passes;
    const PowTable<Fr> scale = last ? last_scale : PowTable<Fr>{};
    Fr* out = scratch && !last ? scratch : x;
    const Fr* in = scratch && !first ? scratch : x;
    // Batch bits that keep at most 2^block_bits points a block (ntt_block.hpp).
    const unsigned room = d.block_bits() > stages ? d.block_bits() - stages : 0;
    if (Dit && scratch && first)  // (kReversed is for DIT only: DIF instantiates kPlain here, never launched)
      launch_reg_pass<Fr, Dit, Dit ? Layout::kReversed : Layout::kPlain>(
          in, out, tw, log_n, t_lo, stages, std::min({kBatchBits, room, log_n - stages}), scale, stream);
    else if (const unsigned batch = std::min({kBatchBits, room, t_lo}); batch > 0)
      launch_reg_pass<Fr, Dit, Layout::kColumns>(in, out, tw, log_n, t_lo, stages, batch, scale, stream);
    else
      launch_reg_pass<Fr, Dit, Layout::kPlain>(in, out, tw, log_n, t_lo, stages, 0, scale, stream);
    done += stages;
  }
}

template <class Fr, bool ScaleSource>
void bit_reverse(const DeviceDomain<Fr>& d, Fr* x, PowTable<Fr> scale, cudaStream_t stream) {
  const unsigned log_n = d.log_size();
  if (log_n >= 2 * kTileBits) {
    constexpr unsigned threads = 256;
    const unsigned side = 1u << kTileBits;
    const size_t smem = 2 * sizeof(Fr) * side * (side + 1);
    bit_reverse_tiled_kernel<Fr, ScaleSource>
        <<<(unsigned)(size_t(1) << (log_n - 2 * kTileBits)), threads, smem, stream>>>(x, log_n, kTileBits, scale);
    CUZK_CUDA_CHECK_LAUNCH();
    return;
  }
  constexpr unsigned threads = 256;
  bit_reverse_kernel<Fr, ScaleSource><<<grid_for(d.size(), threads), threads, 0, stream>>>(x, log_n, scale);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class Fr>
void ntt(const DeviceDomain<Fr>& d, Fr* x, cudaStream_t stream, Fr* scratch) {
  // One pass has nowhere to put what it reads out of order.
  if (d.log_size() <= kRegMaxStages) scratch = nullptr;
  if (!scratch) bit_reverse<Fr, true>(d, x, {}, stream);
  run_passes<Fr, true>(d, x, 0, {}, stream, scratch);
}

template <class Fr>
void coset_ntt(const DeviceDomain<Fr>& d, Fr* x, cudaStream_t stream) {
  using T = typename DeviceDomain<Fr>::Tables;
  bit_reverse<Fr, true>(d, x, d.tables().pow(T::kCoset), stream);
  run_passes<Fr, true>(d, x, 0, {}, stream);
}

template <class Fr>
void intt(const DeviceDomain<Fr>& d, Fr* x, cudaStream_t stream) {
  using T = typename DeviceDomain<Fr>::Tables;
  run_passes<Fr, false>(d, x, 1, {}, stream);
  bit_reverse<Fr, false>(d, x, d.tables().pow(T::kOverN), stream);
}

template <class Fr>
void coset_intt(const DeviceDomain<Fr>& d, Fr* x, cudaStream_t stream) {
  using T = typename DeviceDomain<Fr>::Tables;
  run_passes<Fr, false>(d, x, 1, {}, stream);
  bit_reverse<Fr, false>(d, x, d.tables().pow(T::kInvCosetOverN), stream);
}

template <class Fr>
void coset_evaluations(const DeviceDomain<Fr>& d, Fr* x, cudaStream_t stream) {
  using T = typename DeviceDomain<Fr>::Tables;
  const auto scale = d.tables().pow(T::kCosetOverN);
  if (d.log_size() == 0) {
    bit_reverse<Fr, false>(d, x, scale, stream);  // one point: just the scale
    return;
  }
  run_passes<Fr, false>(d, x, 1, scale, stream);
  run_passes<Fr, true>(d, x, 0, {}, stream);
}

namespace {

// (a·b − c)·factor, (ab − c)·factor and a·b: the quotient's last step in one
// kernel, or in two (pointwise_product, then pointwise_difference).
template <class Fr, bool Scaled>
struct QuotientOp {
  Fr factor;
  __device__ Fr operator()(const Fr& a, const Fr& b, const Fr& c) const {
    const Fr h = a * b - c;
    return Scaled ? h * factor : h;
  }
};
template <class Fr, bool Scaled>
struct DifferenceOp {
  Fr factor;
  __device__ Fr operator()(const Fr& ab, const Fr& c) const {
    const Fr h = ab - c;
    return Scaled ? h * factor : h;
  }
};
template <class Fr>
struct ProductOp {
  __device__ Fr operator()(const Fr& a, const Fr& b) const { return a * b; }
};

// a[i] = Op(a[i], in[i]...) in place, with no multiplication by a factor of 1.
template <template <class, bool> class Op, class Fr, class... In>
void launch_scaled(cudaStream_t stream, Fr* a, size_t n, const Fr& factor, const In*... in) {
  using cuda::launch_map;
  if (factor == Fr::one())
    launch_map(stream, a, n, Op<Fr, false>{factor}, static_cast<const Fr*>(a), in...);
  else
    launch_map(stream, a, n, Op<Fr, true>{factor}, static_cast<const Fr*>(a), in...);
}

}  // namespace

template <class Fr>
void quotient_pointwise(Fr* a, const Fr* b, const Fr* c, size_t n, cudaStream_t stream, const Fr& factor) {
  launch_scaled<QuotientOp>(stream, a, n, factor, b, c);
}

template <class Fr>
void pointwise_product(Fr* a, const Fr* b, size_t n, cudaStream_t stream) {
  cuda::launch_map(stream, a, n, ProductOp<Fr>{}, static_cast<const Fr*>(a), b);
}

template <class Fr>
void pointwise_difference(Fr* a, const Fr* c, size_t n, cudaStream_t stream, const Fr& factor) {
  launch_scaled<DifferenceOp>(stream, a, n, factor, c);
}

#define CUZK_NTT_CUDA_INSTANTIATE(Fr)                                                               \
  template class DeviceDomain<Fr>;                                                                  \
  template void ntt<Fr>(const DeviceDomain<Fr>&, Fr*, cudaStream_t, Fr*);                           \
  template void intt<Fr>(const DeviceDomain<Fr>&, Fr*, cudaStream_t);                               \
  template void coset_ntt<Fr>(const DeviceDomain<Fr>&, Fr*, cudaStream_t);                          \
  template void coset_intt<Fr>(const DeviceDomain<Fr>&, Fr*, cudaStream_t);                         \
  template void coset_evaluations<Fr>(const DeviceDomain<Fr>&, Fr*, cudaStream_t);                  \
  template void quotient_pointwise<Fr>(Fr*, const Fr*, const Fr*, size_t, cudaStream_t, const Fr&);  \
  template void pointwise_product<Fr>(Fr*, const Fr*, size_t, cudaStream_t);                        \
  template void pointwise_difference<Fr>(Fr*, const Fr*, size_t, cudaStream_t, const Fr&);
CUZK_NTT_CUDA_INSTANTIATE(ff::bn254::Fr)
CUZK_NTT_CUDA_INSTANTIATE(ff::bls12_381::Fr)

}  // namespace cuzk::poly::gpu
