// A plain std::thread parallel loop for one-off bulk work (building inputs,
// host references for device results) on many-core machines; no OpenMP or TBB.
#pragma once

#include <algorithm>
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

}  // namespace cuzk
