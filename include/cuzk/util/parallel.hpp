// The host's parallel loops: tasks handed to the process's CPU pool
// (util/thread_pool.hpp), with the calling thread as one of the workers; no
// OpenMP or TBB.
//
// Failures stay with the caller: the first exception a task throws (of any
// type) stops the handing out of tasks and is rethrown by the call once every
// worker has stopped; pool threads that are busy or could not be started
// leave their tasks to the workers that came, the caller's own among them.
// Nothing here ends the process.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <type_traits>

#include "cuzk/util/thread_pool.hpp"

namespace cuzk {

// The workers parallel_tasks runs `tasks` tasks on, taken `grain` at a time:
// at most `threads` (0: cpu_threads()), and never more than cpu_threads().
inline size_t parallel_workers(size_t tasks, unsigned threads, size_t grain = 1) {
  threads = threads == 0 ? cpu_threads() : std::min(threads, cpu_threads());
  return std::max<size_t>(1, std::min<size_t>(threads, (tasks + grain - 1) / grain));
}

// fn(task) or fn(task, worker) for every task in [0, tasks), on at most
// parallel_workers(tasks, threads, grain) threads, worker numbers below that
// count (the caller is worker 0). Workers take the next `grain` tasks as they
// finish the last, so tasks of uneven cost still balance.
template <class Fn>
void parallel_tasks(size_t tasks, unsigned threads, Fn&& fn, size_t grain = 1) {
  const size_t workers = parallel_workers(tasks, threads, grain);
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr failure;
  auto work = [&](size_t worker) noexcept {
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
  using Work = decltype(work);
  if (workers == 1)
    work(0);
  else
    cpu_pool().run(workers - 1, [](void* w, size_t worker) noexcept { (*static_cast<Work*>(w))(worker); }, &work);
  if (failure) std::rethrow_exception(failure);
}

// fn(begin, end) over [0, n) in blocks of `block` elements (the last may be
// shorter), each one task, on at most `threads` threads: for work whose
// blocks share something of their own, such as one inversion.
template <class Fn>
void parallel_blocks(size_t n, size_t block, unsigned threads, Fn fn) {
  parallel_tasks((n + block - 1) / block, threads, [&](size_t t) { fn(t * block, std::min(n, (t + 1) * block)); });
}

// fn(begin, end, chunk_index) over [0, n) split into one chunk per CPU thread
// (chunks of at least 1024), for one-off bulk work.
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
