// Zeroing of secrets (the prover's r and s, and what is derived from them;
// witnesses and the buffers that held them) that the compiler may not drop as
// a dead store: explicit_bzero, as blst's
// vec_zero does with a volatile pointer and a compiler barrier.
#pragma once

#include <cstddef>
#include <string.h>

namespace cuzk {

inline void secure_zero(void* p, size_t bytes) { explicit_bzero(p, bytes); }

// The same on `threads` CPU threads (0: every one; util/parallel.hpp), for
// buffers of gigabytes (witnesses, the pooled partition buffers) that one
// thread would take seconds to clear.
void secure_zero_parallel(void* p, size_t bytes, unsigned threads = 0);

// Zeroes a buffer (secure_zero_parallel) when the scope it guards is left, by
// a return or a throw.
class ZeroOnExit {
 public:
  ZeroOnExit(void* p, size_t bytes) : p_(p), bytes_(bytes) {}
  ZeroOnExit(const ZeroOnExit&) = delete;
  ZeroOnExit& operator=(const ZeroOnExit&) = delete;
  ~ZeroOnExit() { secure_zero_parallel(p_, bytes_); }

 private:
  void* p_;
  size_t bytes_;
};

// Zeroes `value` in place; for trivially copyable secrets about to go.
template <class T>
void secure_zero(T& value) {
  secure_zero(static_cast<void*>(&value), sizeof value);
}

}  // namespace cuzk
