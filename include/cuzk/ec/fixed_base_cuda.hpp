// Fixed-base scalar multiplication on a GPU, from the table that
// ec/fixed_base.hpp builds on the host: one thread a scalar, one XYZZ mixed
// addition a non-zero digit, then batches of points to affine with one
// inversion each. The same points as FixedBase::mul, bit for bit (affine
// points are unique).
#pragma once

#include <cstdint>
#include <span>

#include "cuzk/ec/fixed_base.hpp"

namespace cuzk::ec::gpu {

// d_out[i] = [k_i]P for the P whose table is `table`, on the current device:
// the scalars are read from host memory, the points written to device memory
// (k.size() of them). Blocks until done, adding k.size() · weight to
// `progress` as it goes. Throws cuda::Error when the device fails or has no
// room for the table and a chunk's scratch (a few hundred MiB).
template <class C>
void fixed_base_mul(const FixedBaseTable<C>& table, std::span<const typename C::Fr> k, Affine<C>* d_out,
                    Progress* progress = nullptr, uint64_t weight = 1);

}  // namespace cuzk::ec::gpu
