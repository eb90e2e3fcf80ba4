// Zeroing of secrets (the prover's r and s, and what is derived from them)
// that the compiler may not drop as a dead store: explicit_bzero, as blst's
// vec_zero does with a volatile pointer and a compiler barrier.
#pragma once

#include <cstddef>
#include <string.h>

namespace cuzk {

inline void secure_zero(void* p, size_t bytes) { explicit_bzero(p, bytes); }

// Zeroes `value` in place; for trivially copyable secrets about to go.
template <class T>
void secure_zero(T& value) {
  secure_zero(static_cast<void*>(&value), sizeof value);
}

}  // namespace cuzk
