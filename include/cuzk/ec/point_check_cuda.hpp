// A key's points checked on the GPU that holds them (point_check.hpp's
// check_point, the very code the host's key reader runs): a one-shot proof
// checks the millions of points of a key it has just uploaded there, in a
// fraction of a millisecond, instead of on the host before the upload.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuzk/ec/point.hpp"

namespace cuzk::ec::gpu {

// Enqueues on `stream` the check of `n` points in device memory: *first_bad
// (device memory, set above every index beforehand) is lowered to the index
// of the first point that check_point refuses, and left where none does.
template <class C>
void find_first_bad_point(const Affine<C>* points, size_t n, unsigned long long* first_bad, cudaStream_t stream);

}  // namespace cuzk::ec::gpu
