// The host parallel loop: every task once, worker numbers within the count it
// promises, and failures (of any type) rethrown to the caller instead of
// ending the process.
#include "cuzk/util/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace cuzk {
namespace {

TEST(ParallelTasks, RunsEveryTaskOnceOnItsWorkers) {
  for (size_t grain : {1, 3, 64}) {
    const size_t tasks = 1000;
    const size_t workers = parallel_workers(tasks, 4, grain);
    EXPECT_EQ(workers, 4u);
    std::vector<std::atomic<int>> runs(tasks);
    std::atomic<bool> worker_in_range{true};
    parallel_tasks(
        tasks, 4,
        [&](size_t t, size_t worker) {
          ++runs[t];
          if (worker >= workers) worker_in_range = false;
        },
        grain);
    for (size_t t = 0; t < tasks; ++t) ASSERT_EQ(runs[t], 1) << "task " << t << ", grain " << grain;
    EXPECT_TRUE(worker_in_range);
  }
  EXPECT_EQ(parallel_workers(5, 8, 2), 3u);
  EXPECT_EQ(parallel_workers(0, 8), 1u);
}

TEST(ParallelTasks, AThrowingTaskIsRethrownToTheCaller) {
  for (unsigned threads : {1u, 4u}) {
    std::atomic<size_t> ran{0};
    EXPECT_THROW(parallel_tasks(10000, threads,
                                [&](size_t t) {
                                  ++ran;
                                  if (t == 17) throw std::runtime_error("task 17");
                                }),
                 std::runtime_error);
    // Tasks stop being handed out after a failure: on one thread, none after it.
    if (threads == 1) {
      EXPECT_EQ(ran.load(), 18u);
    }
  }
  // Anything thrown comes back as itself, from any worker.
  EXPECT_THROW(parallel_tasks(64, 4, [](size_t t) {
                 if (t % 16 == 15) throw 42;
               }),
               int);
  EXPECT_THROW(parallel_for(1 << 16, [](size_t i) {
                 if (i == 40000) throw std::bad_alloc();
               }),
               std::bad_alloc);
}

}  // namespace
}  // namespace cuzk
