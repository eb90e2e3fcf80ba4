// Multi-scalar multiplication on the GPU: sum_i k_i P_i for bases and scalars
// in device memory, G1 and G2 of both curves.
//
// Pippenger's bucket method with signed c-bit digits:
//   1. the scalars are classified (Classified below): a CUB partition lists the
//      significant ones, neither 0 nor 1, and the ones, and the host reads
//      their numbers: a witness is mostly bits, and the bucket method then
//      runs over the m significant scalars alone, with c chosen from m (13% of
//      a Filecoin-like witness), instead of sorting a skipped pair per window
//      for every 0 and 1 and weighting buckets sized for all n. One
//      classification serves every MSM over the same scalars (a proof's A, B1,
//      B2 and C over the witness), and random scalars (h) skip it;
//   2. one thread per significant scalar converts it out of Montgomery form
//      and writes one (bucket, point) pair per window;
//   3. a CUB radix sort orders the pairs by (window, bucket);
//   4. the sorted list is cut into equal segments, one per thread, each adding
//      its run of points into XYZZ bucket sums; runs that cross a segment edge
//      are finished by the same pass over the (much shorter) list of partial
//      sums, so a bucket that holds millions of points (real witnesses are
//      skewed) costs no more than as many small ones;
//   5. per window, segments of buckets are weighted and summed in parallel
//      (sum_j j·B_j), and the windows are combined with c doublings each on
//      the host, which also adds the batch-added sum of the points whose scalar
//      is 1.
// Scalars of 1 are summed by a parallel tree of additions over their list, not
// through buckets: a witness with millions of 1s would otherwise pile them all
// into one bucket. Inputs with more significant scalars than the scratch
// memory allows are processed in chunks.
//
// Variable time in the scalars, which are the witness and h (hidden by r and s
// in the proof), never key material.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <span>
#include <vector>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/point.hpp"

namespace cuzk::msm::gpu {

// The window width for an n-term MSM (exposed for tests and benchmarks).
unsigned window_bits(size_t n);

// Scalars in device memory (Montgomery form, as everywhere in cuzk),
// classified once for any number of MSMs over ranges of them: the indices of the
// significant scalars (neither 0 nor 1) and of the ones, each list in order,
// and how many of each lie before every bound a range may start or end at,
// read back in one copy. The lists come from the arena and go back to it with
// this object: keep it until the last MSM over it is enqueued (on the same
// stream, so whatever takes the lists next runs after those MSMs).
template <class Fr>
class Classified {
 public:
  // Classifies d_scalars[0, n) on `stream` and waits for it, and so for the
  // work queued before it: the one wait of the MSMs over it. Ranges may start
  // and end at 0, n and the given bounds (each at most n). Throws
  // std::invalid_argument for n >= 2^31 or a bound past n.
  Classified(const Fr* d_scalars, size_t n, std::span<const size_t> bounds, cudaStream_t stream,
             cuda::Arena& arena);
  // No classification and no wait: every scalar goes through the buckets, a
  // range may be any. For random scalars (h), in which a select would find
  // every one significant. Throws std::invalid_argument for n >= 2^31.
  static Classified all(const Fr* d_scalars, size_t n);

  // Positions in the two lists of [begin, end)'s significant scalars and ones.
  struct Range {
    size_t significant_begin, significant_end, ones_begin, ones_end;
  };
  // Throws std::invalid_argument unless begin <= end are bounds.
  Range range(size_t begin, size_t end) const;

  const Fr* scalars() const { return scalars_; }
  // nullptr after all(): the list is then 0, 1, ..., n − 1.
  const uint32_t* significant() const { return significant_.template as<uint32_t>(); }
  const uint32_t* ones() const { return ones_.template as<uint32_t>(); }

 private:
  Classified(const Fr* d_scalars, size_t n);
  const Fr* scalars_;
  size_t n_;
  cuda::Arena::Block significant_, ones_;
  std::vector<size_t> bounds_;  // sorted, with 0 and n; empty after all()
  std::vector<uint32_t> significant_before_, ones_before_;  // per bound
};

// An MSM enqueued on a stream: enqueue() returns with the MSM queued, and
// wait() blocks until the GPU is done and combines the windows on the host.
// Scratch comes from the arena and goes back to it when enqueue() returns:
// whatever takes it next runs on the same stream, after this MSM.
template <class C>
class Msm {
 public:
  using Fr = typename C::Fr;

  // d_bases and d_scalars hold n elements each in device memory and must stay
  // valid until wait(). Classifies the scalars first, so it waits for the
  // work queued before it on the stream, then for the classification. Throws
  // std::invalid_argument for n >= 2^31. max_chunk (0: 2^26 on G1, 2^25 on
  // G2) caps the significant scalars processed at once; fewer are taken when
  // the device is short of memory. Tests lower it to exercise the chunked
  // path on small inputs.
  static Msm enqueue(const ec::Affine<C>* d_bases, const Fr* d_scalars, size_t n, cudaStream_t stream,
                     cuda::Arena& arena, size_t max_chunk = 0);
  // sum_{i in [begin, end)} k_i P_{i − begin} over classified scalars, without
  // waiting: d_bases holds end − begin points. The scalars must stay valid
  // until wait(); `scalars` itself only until this returns. Throws
  // std::invalid_argument unless begin and end are bounds of `scalars`.
  static Msm enqueue(const ec::Affine<C>* d_bases, const Classified<Fr>& scalars, size_t begin, size_t end,
                     cudaStream_t stream, cuda::Arena& arena, size_t max_chunk = 0);

  Msm(Msm&&) noexcept;
  Msm& operator=(Msm&&) noexcept;
  ~Msm();

  ec::Jacobian<C> wait();

  // Device scratch of one chunk of m significant scalars (its digits, sort,
  // buckets and partial sums): what a memory plan reserves for an MSM that
  // runs in chunks of m.
  static size_t scratch_bytes(size_t m);

  struct State;  // defined in the .cu

 private:
  explicit Msm(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// Convenience for tests and benchmarks: uploads host spans, runs, waits.
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const typename C::Fr> scalars);

}  // namespace cuzk::msm::gpu
