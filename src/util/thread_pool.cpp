#include "cuzk/util/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

namespace cuzk {

// One run() call, on its caller's stack. Every field is guarded by the pool's
// mutex; the call is in the queue exactly while `waiting` > 0.
struct ThreadPool::Call {
  Work work;
  void* context;
  size_t waiting;      // help offered that no thread has taken yet
  size_t taken = 0;    // help taken; the helpers are workers 1..taken
  size_t running = 0;  // help taken and not yet returned
  Call* prev = nullptr;
  Call* next = nullptr;
};

ThreadPool::ThreadPool(unsigned threads) : size_(threads) { threads_.reserve(threads); }

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::push(Call& call) noexcept {
  call.prev = tail_;
  (tail_ ? tail_->next : head_) = &call;
  tail_ = &call;
}

void ThreadPool::unlink(Call& call) noexcept {
  (call.prev ? call.prev->next : head_) = call.next;
  (call.next ? call.next->prev : tail_) = call.prev;
  call.prev = call.next = nullptr;
}

void ThreadPool::run(size_t helpers, Work work, void* context) noexcept {
  if (helpers == 0 || size_ == 0) return work(context, 0);
  Call call{work, context, helpers};
  {
    std::lock_guard lock(mu_);
    push(call);
    const size_t wake = std::min(idle_, helpers);
    idle_ -= wake;
    wakeups_ += wake;
    for (size_t i = 0; i < wake; ++i) wake_.notify_one();
    // A thread that cannot start leaves its share to the caller.
    for (size_t more = helpers - wake; more > 0 && threads_.size() < size_; --more) {
      try {
        threads_.emplace_back([this] { serve(); });
      } catch (...) {
        break;
      }
    }
  }
  work(context, 0);
  std::unique_lock lock(mu_);
  if (call.waiting > 0) {
    call.waiting = 0;
    unlink(call);
  }
  done_.wait(lock, [&] { return call.running == 0; });
}

void ThreadPool::serve() noexcept {
  std::unique_lock lock(mu_);
  for (;;) {
    if (head_) {
      Call& call = *head_;
      const size_t worker = ++call.taken;
      ++call.running;
      if (--call.waiting == 0) unlink(call);
      lock.unlock();
      call.work(call.context, worker);
      lock.lock();
      // Nothing is left to hand out, so help not yet taken would find nothing.
      if (call.waiting > 0) {
        call.waiting = 0;
        unlink(call);
      }
      if (--call.running == 0) done_.notify_all();
      continue;
    }
    if (stopping_) return;
    ++idle_;
    wake_.wait(lock, [&] { return wakeups_ > 0 || stopping_; });
    if (wakeups_ > 0)
      --wakeups_;
    else
      --idle_;
  }
}

namespace {

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Never destroyed: see cpu_pool().
struct CpuPool {
  std::mutex mu;
  std::atomic<unsigned> threads{0};  // 0 until set_cpu_threads
  std::atomic<ThreadPool*> pool{nullptr};
};
CpuPool& cpu() {
  static CpuPool* const state = new CpuPool;
  return *state;
}

}  // namespace

unsigned cpu_threads() {
  const unsigned n = cpu().threads.load(std::memory_order_relaxed);
  return n ? n : hardware_threads();
}

ThreadPool& cpu_pool() {
  CpuPool& s = cpu();
  if (ThreadPool* p = s.pool.load(std::memory_order_acquire)) return *p;
  std::lock_guard lock(s.mu);
  if (!s.pool.load(std::memory_order_relaxed)) s.pool.store(new ThreadPool(cpu_threads() - 1), std::memory_order_release);
  return *s.pool.load(std::memory_order_relaxed);
}

void set_cpu_threads(unsigned threads) {
  CpuPool& s = cpu();
  const unsigned n = threads ? threads : hardware_threads();
  std::lock_guard lock(s.mu);
  if (const ThreadPool* p = s.pool.load(std::memory_order_relaxed); p && p->size() + 1 != n)
    throw std::logic_error("set_cpu_threads(" + std::to_string(n) + "): the CPU pool already runs " +
                           std::to_string(p->size() + 1) + " threads");
  s.threads.store(n, std::memory_order_relaxed);
}

}  // namespace cuzk
