#include "cuzk/engine/buffer_pool.hpp"

#include <bit>
#include <iterator>
#include <new>
#include <string>

namespace cuzk::engine {

namespace {

class PageableMemory final : public HostMemory {
 public:
  void* allocate(size_t bytes) override { return ::operator new(bytes, std::align_val_t{64}); }
  void release(void* p, size_t) override { ::operator delete(p, std::align_val_t{64}); }
  const char* name() const override { return "pageable"; }
};

}  // namespace

std::unique_ptr<HostMemory> pageable_memory() { return std::make_unique<PageableMemory>(); }

BufferPool::BufferPool(std::unique_ptr<HostMemory> memory, size_t budget_bytes)
    : memory_(std::move(memory)), budget_(budget_bytes) {}

BufferPool::~BufferPool() {
  for (auto& [bytes, p] : free_) memory_->release(p, bytes);
}

size_t BufferPool::size_class(size_t bytes) {
  constexpr size_t min_class = size_t(1) << 20;
  if (bytes <= min_class) return min_class;
  const size_t pow2 = std::bit_ceil(bytes);  // 2^k >= bytes
  const size_t three_quarters = pow2 / 4 * 3;  // 3·2^(k-2)
  return bytes <= three_quarters ? three_quarters : pow2;
}

BufferPool::Lease BufferPool::acquire(size_t bytes) {
  const size_t cls = size_class(bytes);
  if (cls > budget_)
    throw std::invalid_argument("a host buffer of " + std::to_string(bytes >> 20) + " MiB does not fit the pool's " +
                                std::to_string(budget_ >> 20) + " MiB budget");
  std::unique_lock lock(mu_);
  bool waited = false;
  for (;;) {
    if (cancelled_) throw PoolCancelled();
    if (auto it = free_.find(cls); it != free_.end()) {
      void* p = it->second;
      free_.erase(it);
      ++counters_.reuses;
      counters_.bytes_leased += cls;
      return Lease(this, p, cls);
    }
    // Free buffers of other classes make room, largest first.
    while (counters_.bytes_held + cls > budget_ && !free_.empty()) {
      const auto last = std::prev(free_.end());
      memory_->release(last->second, last->first);
      counters_.bytes_held -= last->first;
      ++counters_.releases;
      free_.erase(last);
    }
    if (counters_.bytes_held + cls <= budget_) {
      counters_.bytes_held += cls;  // reserved before the slow allocation, outside the lock
      counters_.bytes_leased += cls;
      ++counters_.allocations;
      lock.unlock();
      try {
        return Lease(this, memory_->allocate(cls), cls);
      } catch (...) {
        std::lock_guard relock(mu_);
        counters_.bytes_held -= cls;
        counters_.bytes_leased -= cls;
        --counters_.allocations;
        returned_.notify_all();
        throw;
      }
    }
    if (!waited) ++counters_.waits, waited = true;
    returned_.wait(lock);
  }
}

void BufferPool::give_back(void* p, size_t bytes) {
  std::lock_guard lock(mu_);
  free_.emplace(bytes, p);
  counters_.bytes_leased -= bytes;
  returned_.notify_all();
}

void BufferPool::cancel() {
  std::lock_guard lock(mu_);
  cancelled_ = true;
  returned_.notify_all();
}

BufferPool::Counters BufferPool::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

}  // namespace cuzk::engine
