// The host's one parallel loop: plain std::threads, no OpenMP or TBB.
//
// Failures stay with the caller: the first exception a task throws (of any
// type) stops the handing out of tasks and is rethrown by the call once every
// thread has stopped; a thread that cannot be started (no memory, a thread
// limit) leaves its tasks to the threads that did start, the caller's own
// among them. Nothing here ends the process.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace cuzk {

// The threads parallel_tasks runs `tasks` tasks on, taken `grain` at a time,
// with at most `threads` threads (0: one per hardware thread).
inline size_t parallel_workers(size_t tasks, unsigned threads, size_t grain = 1) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min<size_t>(threads, (tasks + grain - 1) / grain));
}

// fn(task) or fn(task, worker) for every task in [0, tasks), on
// parallel_workers(tasks, threads, grain) threads numbered from 0 (the caller
// is worker 0). Threads take the next `grain` tasks as they finish the last,
// so tasks of uneven cost still balance.
template <class Fn>
void parallel_tasks(size_t tasks, unsigned threads, Fn&& fn, size_t grain = 1) {
  const size_t workers = parallel_workers(tasks, threads, grain);
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr failure;
  const auto work = [&](size_t worker) noexcept {
    try {
      for (size_t b; (b = next.fetch_add(grain, std::memory_order_relaxed)) < tasks;)
        for (size_t t = b, e = std::min(tasks, b + grain); t < e; ++t) {
          if constexpr (std::is_invocable_v<Fn&, size_t, size_t>) fn(t, worker);
          else fn(t);
        }
    } catch (...) {
      next.store(tasks);
      std::lock_guard lock(mu);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(workers - 1);
    for (size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  } catch (...) {
    // Fewer threads: those started and this one take every task.
  }
  work(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

// fn(begin, end, chunk_index) over [0, n) split into one chunk per hardware
// thread (chunks of at least 1024), for one-off bulk work.
template <class Fn>
void parallel_chunks(size_t n, Fn fn) {
  const size_t chunks = parallel_workers((n + 1023) / 1024, 0);
  parallel_tasks(chunks, (unsigned)chunks, [&](size_t t) { fn(n * t / chunks, n * (t + 1) / chunks, t); });
}

template <class Fn>
void parallel_for(size_t n, Fn fn) {
  parallel_chunks(n, [&](size_t b, size_t e, size_t) {
    for (size_t i = b; i < e; ++i) fn(i);
  });
}

}  // namespace cuzk
