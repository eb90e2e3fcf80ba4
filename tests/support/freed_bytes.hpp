// Whether a heap block was all zeros when it was freed: how a test sees that
// code zeroes a secret (a witness, a client's bytes) before it lets it go.
// It replaces the global operator delete (the sized ones, which std::allocator
// calls, watch), so exactly one source file of a test program includes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace cuzk::test {

enum class Freed { not_yet, zeroed, not_zeroed };

class FreedBytes {
 public:
  // Watches the block at `p` (one at a time) until it is freed.
  static void watch(const void* p) {
    state_ = Freed::not_yet;
    watched_ = p;
  }
  static Freed state() { return state_; }

  static void on_free(void* p, size_t n) noexcept {
    if (!p || p != watched_.load()) return;
    const auto* b = static_cast<const unsigned char*>(p);
    state_ = std::all_of(b, b + n, [](unsigned char c) { return c == 0; }) ? Freed::zeroed : Freed::not_zeroed;
    watched_ = nullptr;
  }

 private:
  static inline std::atomic<const void*> watched_{nullptr};
  static inline std::atomic<Freed> state_{Freed::not_yet};
};

}  // namespace cuzk::test

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t n) noexcept {
  cuzk::test::FreedBytes::on_free(p, n);
  std::free(p);
}
void operator delete(void* p, std::size_t n, std::align_val_t) noexcept {
  cuzk::test::FreedBytes::on_free(p, n);
  std::free(p);
}
