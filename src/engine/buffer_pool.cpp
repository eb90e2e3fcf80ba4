#include "cuzk/engine/buffer_pool.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <new>

#include "cuzk/util/bulk_vector.hpp"
#include "cuzk/util/secure_zero.hpp"
#include "cuzk/util/thread_pool.hpp"

namespace cuzk::engine {

namespace {

// Mappings of their own (huge_pages): out of core dumps like the pinned ones.
class PageableMemory final : public HostMemory {
 public:
  void* allocate(size_t bytes) override {
    if (void* p = huge_pages(bytes)) return p;
    throw std::bad_alloc();
  }
  void release(void* p, size_t bytes) override { release_huge_pages(p, bytes); }
  const char* name() const override { return "pageable"; }
};

}  // namespace

std::unique_ptr<HostMemory> pageable_memory() { return std::make_unique<PageableMemory>(); }

BufferPool::BufferPool(std::unique_ptr<HostMemory> memory, size_t budget_bytes)
    : memory_(std::move(memory)), budget_(budget_bytes), scrubber_([this] { scrub_loop(); }) {}

BufferPool::~BufferPool() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  scrub_ready_.notify_all();
  scrubber_.join();  // after it has zeroed every buffer given back
  for (auto& [bytes, p] : free_) memory_->release(p, bytes);
}

void BufferPool::scrub_loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    scrub_ready_.wait(lock, [&] { return closing_ || !dirty_.empty(); });
    if (dirty_.empty()) return;  // closing, and nothing left to zero
    const auto [p, bytes] = dirty_.front();
    dirty_.pop_front();
    zeroing_ = bytes;
    lock.unlock();
    secure_zero_parallel(p, bytes, std::max(1u, cpu_threads() / kScrubShare));
    lock.lock();
    zeroing_ = 0;
    keep_or_release(p, bytes);
  }
}

bool BufferPool::being_zeroed(size_t cls) const {
  const auto of_class = [&](size_t bytes) { return bytes != 0 && (cls == 0 || bytes == cls); };
  return of_class(zeroing_) ||
         std::any_of(dirty_.begin(), dirty_.end(), [&](const auto& d) { return of_class(d.second); });
}

size_t BufferPool::size_class(size_t bytes) {
  constexpr size_t min_class = size_t(1) << 20;
  if (bytes <= min_class) return min_class;
  // step = 2^(k-3) for 2^k <= bytes < 2^(k+1): bytes rounded up to a multiple
  // of it is m·step with 8 <= m <= 16.
  const size_t step = std::bit_floor(bytes) >> 3;
  return (bytes + step - 1) / step * step;
}

BufferPool::Lease BufferPool::acquire(size_t bytes, std::stop_token stop) {
  const size_t cls = size_class(bytes);
  std::unique_lock lock(mu_);
  return cls > budget_ ? acquire_alone(lock, cls, stop) : acquire_within_budget(lock, cls, stop);
}

bool BufferPool::wait_for_return(std::unique_lock<std::mutex>& lock, const std::stop_token& stop) {
  const uint64_t seen = returns_;
  returned_.wait(lock, stop, [&] { return cancelled_ || returns_ != seen; });
  return !cancelled_ && !stop.stop_requested();
}

BufferPool::Lease BufferPool::acquire_within_budget(std::unique_lock<std::mutex>& lock, size_t cls,
                                                    const std::stop_token& stop) {
  bool waited = false;
  for (;;) {
    if (cancelled_ || stop.stop_requested()) throw PoolCancelled();
    bool for_scrub = false;
    if (alone_waiting_ == 0) {
      if (auto it = free_.find(cls); it != free_.end()) {
        void* p = it->second;
        free_.erase(it);
        ++counters_.reuses;
        counters_.bytes_leased += cls;
        return Lease(this, p, cls);
      }
      // One of the class being zeroed is worth the wait: it is milliseconds
      // away, and a new pinned buffer half a second per GiB.
      for_scrub = being_zeroed(cls);
      if (!for_scrub) {
        // Free buffers of other classes make room, largest first.
        while (counters_.bytes_held + cls > budget_ && !free_.empty()) {
          const auto last = std::prev(free_.end());
          memory_->release(last->second, last->first);
          counters_.bytes_held -= last->first;
          ++counters_.releases;
          free_.erase(last);
        }
        if (counters_.bytes_held + cls <= budget_) return allocate(lock, cls);
        for_scrub = being_zeroed();  // the room is being zeroed
      }
    }
    if (!waited) ++(for_scrub ? counters_.scrub_waits : counters_.waits), waited = true;
    if (!wait_for_return(lock, stop)) throw PoolCancelled();
  }
}

BufferPool::Lease BufferPool::acquire_alone(std::unique_lock<std::mutex>& lock, size_t cls,
                                            const std::stop_token& stop) {
  ++alone_waiting_;
  bool waited = false;
  for (;;) {
    if (cancelled_ || stop.stop_requested()) {
      --alone_waiting_;
      returned_.notify_all();
      throw PoolCancelled();
    }
    if (counters_.bytes_leased == 0 && !being_zeroed()) {
      release_free();
      --alone_waiting_;
      return allocate(lock, cls);
    }
    if (!waited) ++(counters_.bytes_leased ? counters_.waits : counters_.scrub_waits), waited = true;
    wait_for_return(lock, stop);  // the loop's first test throws when cancelled or stopped
  }
}

void BufferPool::release_free() {
  for (auto& [bytes, p] : free_) {
    memory_->release(p, bytes);
    counters_.bytes_held -= bytes;
    ++counters_.releases;
  }
  free_.clear();
}

BufferPool::Lease BufferPool::allocate(std::unique_lock<std::mutex>& lock, size_t cls) {
  counters_.bytes_held += cls;  // reserved before the slow allocation, outside the lock
  counters_.bytes_leased += cls;
  ++counters_.allocations;
  lock.unlock();
  try {
    return Lease(this, memory_->allocate(cls), cls);
  } catch (...) {
    lock.lock();
    counters_.bytes_held -= cls;
    counters_.bytes_leased -= cls;
    --counters_.allocations;
    ++returns_;
    returned_.notify_all();
    throw;
  }
}

void BufferPool::give_back(void* p, size_t bytes) {
  // The buffer held a client's witness and what was computed from it: none of
  // it may outlive the lease, in the pool or in memory given back. The
  // scrubber zeroes it; where the queue cannot take it (out of memory), this
  // thread does.
  {
    std::lock_guard lock(mu_);
    counters_.bytes_leased -= bytes;
    try {
      dirty_.emplace_back(p, bytes);
      scrub_ready_.notify_one();
      return;
    } catch (const std::bad_alloc&) {
    }
  }
  secure_zero_parallel(p, bytes);
  std::lock_guard lock(mu_);
  keep_or_release(p, bytes);
}

void BufferPool::keep_or_release(void* p, size_t bytes) {
  bool kept = false;
  if (bytes <= budget_) {  // else served alone: not kept
    try {
      free_.emplace(bytes, p);
      kept = true;
    } catch (const std::bad_alloc&) {
      // No memory for the free list's node: a lease's destructor must not
      // throw, so the buffer goes back to the system instead.
    }
  }
  if (!kept) {
    memory_->release(p, bytes);
    counters_.bytes_held -= bytes;
  }
  ++returns_;
  returned_.notify_all();
}

void BufferPool::cancel() {
  std::lock_guard lock(mu_);
  cancelled_ = true;
  returned_.notify_all();
}

void BufferPool::raise_budget(size_t bytes) {
  std::lock_guard lock(mu_);
  if (bytes <= budget_) return;
  budget_ = bytes;
  ++returns_;  // waiters may fit now
  returned_.notify_all();
}

size_t BufferPool::budget() const {
  std::lock_guard lock(mu_);
  return budget_;
}

BufferPool::Counters BufferPool::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

}  // namespace cuzk::engine
