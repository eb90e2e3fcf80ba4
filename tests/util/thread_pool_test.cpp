// The pool under the parallel loops: a call's helpers are numbered from 1, each
// runs at most once, and a pool with no threads (none could start) leaves the
// whole call to its caller; the process's pool takes its size once.
#include "cuzk/util/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

struct Calls {
  std::atomic<int> count[8] = {};
  std::atomic<bool> caller_was_0{false};
  std::thread::id caller = std::this_thread::get_id();
  // The caller's call returns only once a helper has come (run() withdraws
  // the help not taken when the first call returns), or after 30 s.
  bool wait_for_a_helper = true;
  std::mutex mu;
  std::condition_variable helper_came;
  bool helped = false;
};

void record(void* c, size_t worker) noexcept {
  auto& calls = *static_cast<Calls*>(c);
  if (worker < 8) ++calls.count[worker];
  std::unique_lock lock(calls.mu);
  if (worker != 0) {
    calls.helped = true;
    calls.helper_came.notify_all();
    return;
  }
  if (std::this_thread::get_id() == calls.caller) calls.caller_was_0 = true;
  if (calls.wait_for_a_helper) calls.helper_came.wait_for(lock, std::chrono::seconds(30), [&] { return calls.helped; });
}

TEST(ThreadPool, HelpersAreNumberedFromOneAndRunAtMostOnce) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  for (int round = 0; round < 5; ++round) {
    Calls calls;
    pool.run(5, record, &calls);
    EXPECT_TRUE(calls.caller_was_0);
    EXPECT_EQ(calls.count[0], 1);
    // Helpers 1..k for some 1 ≤ k ≤ min(helpers, size): no gaps, none twice.
    size_t k = 0;
    while (k + 1 < 8 && calls.count[k + 1] == 1) ++k;
    EXPECT_GE(k, 1u) << "round " << round << ": no pool thread came in 30 s";
    EXPECT_LE(k, 3u);
    for (size_t w = k + 1; w < 8; ++w) EXPECT_EQ(calls.count[w], 0) << "worker " << w;
  }
}

// What a pool whose threads could not be started does: the caller runs the
// call alone, and it returns.
TEST(ThreadPool, WithNoThreadsTheCallerRunsTheWholeCall) {
  ThreadPool pool(0);
  Calls calls;
  calls.wait_for_a_helper = false;
  pool.run(4, record, &calls);
  EXPECT_TRUE(calls.caller_was_0);
  EXPECT_EQ(calls.count[0], 1);
  for (size_t w = 1; w < 8; ++w) EXPECT_EQ(calls.count[w], 0) << "worker " << w;
}

// In a fresh process (a death test's), where no loop has created the pool.
TEST(CpuPool, TakesItsSizeOnceBeforeFirstUse) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto check = [] {
    const auto expect = [](bool ok, const char* what) {
      if (!ok) {
        std::fprintf(stderr, "failed: %s\n", what);
        std::exit(1);
      }
    };
    set_cpu_threads(0);
    expect(cpu_threads() == std::max(1u, std::thread::hardware_concurrency()), "0 means every hardware thread");
    set_cpu_threads(3);
    expect(cpu_threads() == 3, "set before first use");
    expect(cpu_pool().size() == 2, "the pool is one thread fewer (the caller of a loop is the other)");
    bool refused = false;
    try {
      set_cpu_threads(5);
    } catch (const std::logic_error&) {
      refused = true;
    }
    expect(refused && cpu_threads() == 3, "another size after first use is refused");
    set_cpu_threads(3);
    expect(&cpu_pool() == &cpu_pool(), "one pool");
    std::exit(0);
  };
  EXPECT_EXIT(check(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace cuzk
