// Multi-scalar multiplication on the host: sum_i k_i P_i.
//
// Real Groth16 witnesses are full of 0s and 1s (booleans, bit decompositions),
// so scalars are first sorted three ways: 0 is skipped, 1 is added straight
// into a per-thread sum, and only the rest go through Pippenger's bucket method
// with signed c-bit digits (digits in [-2^(c-1), 2^(c-1)], so half the buckets;
// a negative digit adds -P, which costs nothing in affine). Work is split into
// (window, chunk of points) tasks so that every thread has work whether the
// MSM is short and wide or long and narrow; each task keeps its own buckets,
// in affine coordinates, filled by batches of additions that share one field
// inversion (with an XYZZ overflow sum per bucket for what a batch cannot
// take), and reduces them with a running sum.
//
// Variable time in the scalars: MSM scalars are the witness and h, which the
// proof itself hides behind r and s; they are never key material.
#pragma once

#include <span>

#include "cuzk/ec/point.hpp"

namespace cuzk::msm {

// The window width for n non-trivial scalars split over `chunks` bucket sets
// (exposed for tests and benchmarks).
unsigned pippenger_window(size_t n, size_t chunks = 1);

// sum_i scalars[i] * bases[i]; scalars are field elements in Montgomery form
// (their canonical value is the multiplier). Bases may contain infinity and
// repeats. threads = 0 uses every hardware thread. The spans must have equal
// lengths (std::invalid_argument otherwise).
template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> bases, std::span<const typename C::Fr> scalars,
                    unsigned threads = 0);

}  // namespace cuzk::msm
