#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "pippenger_cuda.cuh"

namespace cuzk::msm::gpu {

unsigned window_bits(size_t n) {
  // Per window: one bucket addition per term, and about three full additions
  // per bucket to weight and sum them. Windows number ceil(257 / c) (the digit
  // offset needs bits + 2). c stays within [6, 20], and [6, 21] from 2^26
  // terms: the model's c = 21 is measured there only, where it beat two chunks
  // of c = 20 (docs/PERFORMANCE.md); larger windows multiply the buckets to
  // weight.
  const unsigned max_c = n >= (size_t(1) << 26) ? 21 : 20;
  unsigned best = 6;
  double best_cost = 0;
  for (unsigned c = 6; c <= max_c; ++c) {
    const double windows = (257.0 + c - 1) / c;
    const double cost = windows * ((double)n + 3.0 * (double)(size_t(1) << (c - 1)));
    if (c == 6 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

namespace detail {

size_t sort_pairs(void* temp, size_t temp_bytes, uint32_t* keys, uint32_t* keys_out, uint32_t* vals,
                  uint32_t* vals_out, size_t n, unsigned key_bits, cudaStream_t stream) {
  // DoubleBuffer lets the sort ping-pong between the two buffers instead of
  // needing a third; when it ends in the input buffer, one copy moves it.
  cub::DoubleBuffer<uint32_t> k(keys, keys_out), v(vals, vals_out);
  CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, n, 0, (int)key_bits, stream));
  if (temp && k.selector == 0) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(keys_out, keys, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(vals_out, vals, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream));
  }
  return temp_bytes;
}

template <class Fr>
struct IsSignificant {
  const Fr* scalars;
  __device__ bool operator()(uint32_t i) const {
    const Fr s = scalars[i];
    return !s.is_zero() && !(s == Fr::one());
  }
};

template <class Fr>
struct IsOne {
  const Fr* scalars;
  __device__ bool operator()(uint32_t i) const { return scalars[i] == Fr::one(); }
};

// The indices of the significant scalars and of the ones, each in order, and
// their numbers in counts[0] and counts[1], with CUB's three-way partition
// (the zeros are dropped). temp = nullptr returns the temporary storage it
// needs.
template <class Fr>
size_t partition(void* temp, size_t temp_bytes, const Fr* scalars, size_t n, uint32_t* significant, uint32_t* ones,
                 uint32_t* counts, cudaStream_t stream) {
  CUZK_CUDA_CHECK(cub::DevicePartition::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), significant, ones,
                                           thrust::make_discard_iterator(), counts, (int64_t)n,
                                           IsSignificant<Fr>{scalars}, IsOne<Fr>{scalars}, stream));
  return temp_bytes;
}

// words: the two lists' lengths, then per bound the entries of each list
// before it (written here), then the bounds. The lists are in order, so that
// is the first position whose index is at least the bound, by bisection.
__global__ void positions_kernel(const uint32_t* significant, const uint32_t* ones, size_t bounds, uint32_t* words) {
  const size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= bounds) return;
  const uint32_t bound = words[2 + 2 * bounds + b];
  const uint32_t* lists[2] = {significant, ones};
  for (int l = 0; l < 2; ++l) {
    uint32_t lo = 0, hi = words[l];
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (lists[l][mid] < bound) lo = mid + 1;
      else hi = mid;
    }
    words[2 + 2 * b + l] = lo;
  }
}

}  // namespace detail

template <class Fr>
Classified<Fr>::Classified(const Fr* d_scalars, size_t n) : scalars_(d_scalars), n_(n) {
  if (n >= (size_t(1) << 31))
    throw std::invalid_argument("msm: " + std::to_string(n) + " terms; the GPU MSM takes fewer than 2^31");
}

template <class Fr>
Classified<Fr> Classified<Fr>::all(const Fr* d_scalars, size_t n) {
  return Classified(d_scalars, n);
}

template <class Fr>
Classified<Fr>::Classified(const Fr* d_scalars, size_t n, std::span<const size_t> bounds, cudaStream_t stream,
                           Arena& arena)
    : Classified(d_scalars, n) {
  using namespace detail;
  bounds_.assign(bounds.begin(), bounds.end());
  bounds_.push_back(0);
  bounds_.push_back(n);
  std::sort(bounds_.begin(), bounds_.end());
  bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
  if (bounds_.back() > n)
    throw std::invalid_argument("msm: bound " + std::to_string(bounds_.back()) + " past the " + std::to_string(n) +
                                " scalars");
  const size_t nb = bounds_.size();
  significant_before_.assign(nb, 0);
  ones_before_.assign(nb, 0);
  if (n == 0) return;

  significant_ = arena.take(n * sizeof(uint32_t));
  ones_ = arena.take(n * sizeof(uint32_t));
  const size_t temp = partition<Fr>(nullptr, 0, d_scalars, n, nullptr, nullptr, nullptr, stream);
  const size_t words = 2 + 3 * nb, words_at = (temp + 7) / 8 * 8;
  auto scratch = arena.take(words_at + words * sizeof(uint32_t));
  auto* d_words = reinterpret_cast<uint32_t*>(scratch.as<char>() + words_at);
  auto host = results_arena().take(words * sizeof(uint32_t));
  auto* h_words = host.as<uint32_t>();
  for (size_t b = 0; b < nb; ++b) h_words[2 + 2 * nb + b] = (uint32_t)bounds_[b];
  cuda::InFlight work(stream);  // after the blocks that the copies use
  CUZK_CUDA_CHECK(cudaMemcpyAsync(d_words + 2 + 2 * nb, h_words + 2 + 2 * nb, nb * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice, stream));
  partition<Fr>(scratch.as<void>(), temp, d_scalars, n, significant_.as<uint32_t>(), ones_.as<uint32_t>(), d_words,
                stream);
  positions_kernel<<<blocks_for(nb), kThreads, 0, stream>>>(significant_.as<uint32_t>(), ones_.as<uint32_t>(), nb,
                                                            d_words);
  CUZK_CUDA_CHECK_LAUNCH();
  CUZK_CUDA_CHECK(cudaMemcpyAsync(h_words, d_words, (2 + 2 * nb) * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  work.finish();
  work.wait();
  for (size_t b = 0; b < nb; ++b) {
    significant_before_[b] = h_words[2 + 2 * b];
    ones_before_[b] = h_words[3 + 2 * b];
  }
}

template <class Fr>
typename Classified<Fr>::Range Classified<Fr>::range(size_t begin, size_t end) const {
  if (begin > end || end > n_)
    throw std::invalid_argument("msm: range [" + std::to_string(begin) + ", " + std::to_string(end) + ") of " +
                                std::to_string(n_) + " scalars");
  if (bounds_.empty()) return {begin, end, 0, 0};  // all()
  const auto at = [&](size_t x) {
    const auto it = std::lower_bound(bounds_.begin(), bounds_.end(), x);
    if (it == bounds_.end() || *it != x)
      throw std::invalid_argument("msm: " + std::to_string(x) + " is not a bound of the classified scalars");
    return size_t(it - bounds_.begin());
  };
  const size_t b = at(begin), e = at(end);
  return {significant_before_[b], significant_before_[e], ones_before_[b], ones_before_[e]};
}

template class Classified<ff::bn254::Fr>;
template class Classified<ff::bls12_381::Fr>;

}  // namespace cuzk::msm::gpu
