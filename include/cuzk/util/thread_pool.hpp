// The process's CPU threads: one bounded pool that every parallel loop
// (util/parallel.hpp) hands its work to, so that synthesis, CPU MSMs and
// verification running at once share cpu_threads() threads instead of each
// starting its own.
//
// A call never waits for a pool thread that has not started on it: the caller
// runs its own share, takes back the help that no thread picked up, and waits
// only for helpers already running. So calls may nest and run concurrently
// without deadlock, even when every pool thread is busy, and a pool whose
// threads could not be started (no memory, a thread limit) still finishes
// every call on the callers' threads.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

class ThreadPool {
 public:
  using Work = void (*)(void* context, size_t worker) noexcept;

  // At most `threads` pool threads, each started when work first finds no
  // idle one.
  explicit ThreadPool(unsigned threads);
  // Stops and joins the threads; no run() may be in progress.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  // work(context, 0) on the calling thread, and work(context, w) for
  // w = 1, 2, ... (at most `helpers` of them) on pool threads that come free
  // before the first of these calls returns; returns once every one started
  // has returned. work must return only when its call has nothing left to
  // hand out (its workers share one task counter), which is why help not
  // taken by then is withdrawn.
  void run(size_t helpers, Work work, void* context) noexcept;

 private:
  struct Call;
  void serve() noexcept;
  void push(Call& call) noexcept;
  void unlink(Call& call) noexcept;

  const unsigned size_;
  std::mutex mu_;
  std::condition_variable wake_;  // idle threads wait here for a wakeup
  std::condition_variable done_;  // callers wait here for their helpers
  Call* head_ = nullptr;           // calls with help not yet taken, oldest first
  Call* tail_ = nullptr;
  size_t idle_ = 0;     // threads waiting on wake_ with no wakeup granted
  size_t wakeups_ = 0;  // wakeups granted and not yet taken
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// The pool of the process, created at its first use with cpu_threads() - 1
// threads (the caller of a loop is the other one) and kept until the process
// exits, so a loop running during exit still finds it.
ThreadPool& cpu_pool();

// How many threads one parallel loop uses at most, its caller's included:
// std::thread::hardware_concurrency() unless set_cpu_threads chose otherwise.
unsigned cpu_threads();

// Sets cpu_threads() (0: hardware_concurrency()) for a program that bounds its
// CPU use (--threads). Only before the pool's first use: a later call with
// another value throws std::logic_error, since the pool does not resize.
void set_cpu_threads(unsigned threads);

}  // namespace cuzk
