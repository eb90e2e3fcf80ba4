// A plain std::thread parallel loop for one-off bulk work (building inputs,
// host references for device results) on many-core machines; no OpenMP or TBB.
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace cuzk {

// fn(begin, end, chunk_index) over [0, n) split into one chunk per hardware thread.
template <class Fn>
void parallel_chunks(size_t n, Fn fn) {
  const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), (n + 1023) / 1024));
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    const size_t b = n * t / threads, e = n * (t + 1) / threads;
    pool.emplace_back([=, &fn] { fn(b, e, t); });
  }
  for (auto& th : pool) th.join();
}

template <class Fn>
void parallel_for(size_t n, Fn fn) {
  parallel_chunks(n, [&](size_t b, size_t e, size_t) {
    for (size_t i = b; i < e; ++i) fn(i);
  });
}

// fn(task) for task in [0, tasks) on `threads` threads (0: one per hardware
// thread), each thread taking the next task as it finishes the last, so tasks
// of uneven cost still balance.
template <class Fn>
void parallel_tasks(size_t tasks, unsigned threads, Fn fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = (unsigned)std::min<size_t>(threads, tasks);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t t; (t = next.fetch_add(1)) < tasks;) fn(t);
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker);
  if (threads) worker();
  for (auto& th : pool) th.join();
}

}  // namespace cuzk
