// Row i of a, b and c from a key's A and B matrices in compressed rows
// (PreparedKey::Rows): a_i = A_i·w, b_i = B_i·w and c_i = a_i·b_i, which for a
// satisfying witness is C_i·w (snarkjs's buildABC). One body for the host's
// evaluate_abc and the GPU's kernel, which run it over every row.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/config.hpp"

namespace cuzk::groth16::detail {

template <class Fr, class Entry>
CUZK_HD_INLINE void abc_row(size_t i, const uint32_t* a_start, const Entry* a_entries, const uint32_t* b_start,
                            const Entry* b_entries, const Fr* w, Fr* a, Fr* b, Fr* c) {
  Fr sa = Fr::zero(), sb = Fr::zero();
  for (uint32_t k = a_start[i]; k < a_start[i + 1]; ++k) sa += a_entries[k].value * w[a_entries[k].signal];
  for (uint32_t k = b_start[i]; k < b_start[i + 1]; ++k) sb += b_entries[k].value * w[b_entries[k].signal];
  a[i] = sa;
  b[i] = sb;
  c[i] = sa * sb;
}

}  // namespace cuzk::groth16::detail
