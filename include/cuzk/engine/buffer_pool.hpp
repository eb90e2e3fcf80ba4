// Host buffers for the hot path, allocated once and reused (docs/ARCHITECTURE.md, "Pinned
// host memory only"). Pinned memory costs about half a second per GiB to
// allocate and the driver serialises those calls, so a pipeline that allocated
// per partition would stall its own GPU; the pool keeps every buffer it has
// made and hands it out again.
//
// Requests are rounded up to a size class (eight a doubling: m·2^k bytes for
// m from 8 to 15, at least 1 MiB: at most an eighth wasted, where classes of
// 2^k and 3·2^(k-1) wasted a third, 8 GiB of a 2^27 partition's 16 GiB and a
// little), and a free buffer of the class is reused.
// The pool holds at most `budget` bytes, leased and free together. When a new
// buffer would exceed it, free buffers of other classes are released first,
// and if that is not enough the caller waits until a lease comes back: that is
// the pipeline's backpressure, so synthesis never runs ahead of memory.
//
// A request larger than the whole budget (a key bigger than the one the budget
// was sized for) is served alone: it waits until nothing else is leased, the
// requests after it wait behind it, and its buffer is freed when it comes
// back, so the pool holds at most the budget or that one buffer.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <stdexcept>
#include <thread>
#include <utility>

#include "cuzk/util/lease.hpp"

namespace cuzk::engine {

// Where the pool's buffers come from: pinned (page-locked) on the GPU path,
// pageable memory for the CPU backend and for `--pageable` comparisons. Both are
// kept out of core dumps (MADV_DONTDUMP).
class HostMemory {
 public:
  virtual ~HostMemory() = default;
  virtual void* allocate(size_t bytes) = 0;  // throws on failure
  virtual void release(void* p, size_t bytes) = 0;
  virtual const char* name() const = 0;
};

// Anonymous mappings of their own (page aligned).
std::unique_ptr<HostMemory> pageable_memory();

class PoolCancelled : public std::runtime_error {
 public:
  PoolCancelled() : std::runtime_error("the buffer pool was shut down while waiting for memory") {}
};

class BufferPool {
 public:
  // A buffer on loan. Destroyed, it goes to the pool's scrubber thread, which
  // zeroes it (on a quarter of the CPU threads, kScrubShare) before the pool
  // hands it out again or gives it to the system: the thread that gives a
  // buffer back (a GPU worker with a proof under way) does not pay for the
  // zeroing, and the zeroing leaves it and synthesis most of the cores.
  using Lease = ::cuzk::Lease<BufferPool>;
  // A quarter of the CPU threads zero a 2^27 partition's 13.6 GiB buffer in
  // well under the seconds a GPU takes to prove one (one thread: 16 GiB in
  // 1.7 s, 16 threads: 0.22 s; docs/SECURITY.md); on every thread the
  // zeroing, which starts as the proof's kernels begin, competes with that
  // proof's host steps and with the next partition's synthesis.
  static constexpr unsigned kScrubShare = 4;

  struct Counters {
    size_t allocations = 0;  // buffers made
    size_t reuses = 0;       // leases served by a kept buffer
    size_t releases = 0;     // kept buffers freed to make room for another class
    size_t waits = 0;        // acquisitions that had to wait for a lease to return
    size_t scrub_waits = 0;  // acquisitions that waited for a returned buffer's zeroing
    size_t bytes_held = 0;   // leased and free together, <= budget but for a request served alone
    size_t bytes_leased = 0;
  };

  BufferPool(std::unique_ptr<HostMemory> memory, size_t budget_bytes);
  // Every lease must have been returned; the buffers still being zeroed are
  // zeroed before they are freed.
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // The size class a request of `bytes` is served from.
  static size_t size_class(size_t bytes);

  // A buffer of at least `bytes`, waiting for leases to return while the budget
  // is used up. Throws PoolCancelled once cancel() has been called or `stop`
  // is requested (what one of several users of a shared pool stops with).
  Lease acquire(size_t bytes, std::stop_token stop = {});
  // Wakes every waiter with PoolCancelled, and makes later acquire() throw it.
  void cancel();
  // Raises the budget to `bytes` if it is lower: a pool shared by keys of
  // different sizes grows with the largest.
  void raise_budget(size_t bytes);
  size_t budget() const;

  Counters counters() const;
  const char* memory_name() const { return memory_->name(); }

 private:
  friend class ::cuzk::Lease<BufferPool>;
  void give_back(void* p, size_t bytes);
  // The two ways acquire() serves a size class, with mu_ held by `lock`.
  Lease acquire_within_budget(std::unique_lock<std::mutex>& lock, size_t cls, const std::stop_token& stop);
  Lease acquire_alone(std::unique_lock<std::mutex>& lock, size_t cls, const std::stop_token& stop);
  // Waits for a lease to come back; false when cancelled or stopped.
  bool wait_for_return(std::unique_lock<std::mutex>& lock, const std::stop_token& stop);
  // A new buffer of `cls` bytes, allocated outside the lock.
  Lease allocate(std::unique_lock<std::mutex>& lock, size_t cls);
  void release_free();  // every free buffer
  // A zeroed buffer back in the pool (or to the system), with mu_ held.
  void keep_or_release(void* p, size_t bytes);
  // Whether a returned buffer of class `cls` (any class: 0) is not yet
  // zeroed, with mu_ held.
  bool being_zeroed(size_t cls = 0) const;
  void scrub_loop();

  std::unique_ptr<HostMemory> memory_;
  size_t budget_;
  mutable std::mutex mu_;
  std::condition_variable_any returned_;
  uint64_t returns_ = 0;  // leases given back (or allocations undone): what waiters wait for
  std::multimap<size_t, void*> free_;  // size class -> buffer
  Counters counters_;
  size_t alone_waiting_ = 0;  // requests over the budget waiting to be served
  bool cancelled_ = false;
  // Returned buffers waiting for the scrubber, and the size class of the one
  // it is zeroing (0: none): a request of a class among them waits for it
  // instead of allocating another (being_zeroed).
  std::deque<std::pair<void*, size_t>> dirty_;
  size_t zeroing_ = 0;
  bool closing_ = false;
  std::condition_variable scrub_ready_;
  std::thread scrubber_;  // last: started once the members above exist
};

}  // namespace cuzk::engine
