// An allocator under which a vector's resize(n) default-initializes the new
// elements instead of value-initializing them: trivial values are left
// unwritten rather than zeroed. A large table filled on every core right after
// (a key's coefficient list: ~0.8 GB for a BN254 key of 2^22 constraints)
// then has its pages touched first by those cores, not zeroed by one thread.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

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

}  // namespace cuzk
