// A block of memory on loan from an owner that keeps and reuses its blocks (the
// device arena, the host buffer pool): the block goes back to the owner when
// the lease is destroyed. Only the owner makes leases; it declares
// `friend class Lease<Owner>` so that the lease can call its give_back.
#pragma once

#include <cstddef>
#include <utility>

namespace cuzk {

template <class Owner>
class Lease {
 public:
  Lease() = default;
  Lease(Lease&& o) noexcept
      : owner_(std::exchange(o.owner_, nullptr)), data_(std::exchange(o.data_, nullptr)), bytes_(o.bytes_) {}
  Lease& operator=(Lease&& o) noexcept {
    std::swap(owner_, o.owner_);
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease() {
    if (owner_) owner_->give_back(data_, bytes_);
  }

  void* data() const { return data_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  // What the owner handed out: at least what was asked for.
  size_t bytes() const { return bytes_; }

 private:
  friend Owner;
  Lease(Owner* owner, void* data, size_t bytes) : owner_(owner), data_(data), bytes_(bytes) {}
  Owner* owner_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace cuzk
