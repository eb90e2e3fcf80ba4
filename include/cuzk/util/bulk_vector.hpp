// Vectors for the bulk of a key (its points and coefficients: gigabytes, filled
// on every core right after they are made, then read many times):
//   - DefaultInitAllocator: resize(n) default-initializes the new elements
//     instead of value-initializing them, so trivial values are left unwritten
//     rather than zeroed by one thread, and the cores that fill the table
//     touch its pages first;
//   - HugePageAllocator: allocations of 2 MiB and more are anonymous mappings
//     on which the kernel may use huge pages (MADV_HUGEPAGE), so filling and
//     scanning them takes 512 times fewer page faults and TLB entries.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk {

template <class T, class Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
  using Traits = std::allocator_traits<Base>;

 public:
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

// Anonymous read-write pages for `bytes`, huge where the kernel allows; null
// when the mapping fails. Released with release_huge_pages.
void* huge_pages(size_t bytes) noexcept;
void release_huge_pages(void* p, size_t bytes) noexcept;

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    if (n * sizeof(T) < kHugePageBytes) return std::allocator<T>().allocate(n);
    if (void* p = huge_pages(n * sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kHugePageBytes) std::allocator<T>().deallocate(p, n);
    else release_huge_pages(p, n * sizeof(T));
  }
  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) noexcept {
    return true;
  }
};

template <class T>
using BulkVector = std::vector<T, DefaultInitAllocator<T, HugePageAllocator<T>>>;

}  // namespace cuzk
