// Multi-scalar multiplication on the GPU: sum_i k_i P_i for bases and scalars
// in device memory, G1 and G2 of both curves.
//
// Pippenger's bucket method with signed c-bit digits:
//   1. a CUB select lists the significant scalars, those neither 0 nor 1, and
//      the host reads their number m: a witness is mostly bits, and the
//      bucket method then runs over those m alone, with c chosen from m (13%
//      of a Filecoin-like witness), instead of sorting a skipped pair per
//      window for every 0 and 1 and weighting buckets sized for all n;
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
// Scalars of 1 are summed by a parallel tree of additions, not through buckets:
// a witness with millions of 1s would otherwise pile them all into one bucket.
// Inputs with more significant scalars than the scratch memory allows are
// processed in chunks.
//
// Variable time in the scalars, which are the witness and h (hidden by r and s
// in the proof), never key material.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <span>

#include "cuzk/cuda/runtime.hpp"
#include "cuzk/ec/point.hpp"

namespace cuzk::msm::cuda {

// The window width for an n-term MSM (exposed for tests and benchmarks).
unsigned window_bits(size_t n);

// An MSM enqueued on a stream. enqueue() returns once the scalars are
// classified (so it waits for the work queued before it on the stream, then
// for one select), with the rest of the MSM queued; wait() blocks until the
// GPU is done and combines the windows on the host. Scratch comes from the
// arena and goes back to it when enqueue() returns: whatever takes it next
// runs on the same stream, after this MSM.
template <class C>
class Msm {
 public:
  // d_bases and d_scalars hold n elements each in device memory (scalars in
  // Montgomery form, as everywhere in cuzk) and must stay valid until wait().
  // Throws std::invalid_argument for n >= 2^31. max_chunk (0: 2^26 on G1, 2^25 on G2) caps
  // the significant scalars processed at once; fewer are taken when the
  // device is short of memory. Tests lower it to exercise the chunked path on
  // small inputs.
  static Msm enqueue(const ec::Affine<C>* d_bases, const typename C::Fr* d_scalars, size_t n, cudaStream_t stream,
                     ::cuzk::cuda::Arena& arena, size_t max_chunk = 0);

  Msm(Msm&&) noexcept;
  Msm& operator=(Msm&&) noexcept;
  ~Msm();

  ec::Jacobian<C> wait();

  struct State;  // defined in the .cu

 private:
  explicit Msm(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// Convenience for tests and benchmarks: uploads host spans, runs, waits.
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const typename C::Fr> scalars);

}  // namespace cuzk::msm::cuda
