// The host parallel loop: every task once, worker numbers within the count it
// promises, and failures (of any type) rethrown to the caller instead of
// ending the process; on one pool, from many callers at once and nested,
// within the threads it promises.
#include "cuzk/util/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

// More CPU threads than this machine may have, so that callers and helpers
// interleave in every test; set before any loop creates the pool.
constexpr unsigned kCpuThreads = 6;
const auto* const kPoolSize = ::testing::AddGlobalTestEnvironment([] {
  struct Size : ::testing::Environment {
    void SetUp() override { set_cpu_threads(kCpuThreads); }
  };
  return new Size;
}());

// A few microseconds of work, so that tasks overlap across threads.
uint64_t spin(uint64_t x) {
  for (int i = 0; i < 2000; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

// The process's threads, less the one ThreadSanitizer runs beside them
// (scripts/tsan.sh).
size_t threads_alive() {
#if defined(__SANITIZE_THREAD__)
  constexpr size_t kSanitizers = 1;
#else
  constexpr size_t kSanitizers = 0;
#endif
  return (size_t)std::distance(std::filesystem::directory_iterator("/proc/self/task"), {}) - kSanitizers;
}

struct NotAStdException {
  int code;
};

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
  EXPECT_EQ(parallel_workers(1000, 0), kCpuThreads);
  EXPECT_EQ(parallel_workers(1000, 100), kCpuThreads);
}

TEST(ParallelTasks, TheThreadsArgumentCapsTheThreadsOfACall) {
  for (unsigned cap : {1u, 2u, 3u, 5u}) {
    std::mutex mu;
    std::set<std::thread::id> ids;
    std::atomic<bool> worker_in_range{true};
    std::atomic<uint64_t> sink{0};
    parallel_tasks(400, cap, [&](size_t t, size_t worker) {
      if (worker >= cap) worker_in_range = false;
      sink += spin(t);
      std::lock_guard lock(mu);
      ids.insert(std::this_thread::get_id());
    });
    EXPECT_LE(ids.size(), cap);
    EXPECT_TRUE(worker_in_range) << "cap " << cap;
  }
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
  // A non-std type from a pool thread: the caller's own tasks never throw,
  // and wait until a pool thread has taken a task, which throws.
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> helper_ran{false};
  bool caught = false;
  try {
    parallel_tasks(600, 0, [&](size_t t) {
      if (std::this_thread::get_id() != caller) {
        helper_ran = true;
        throw NotAStdException{int(t)};
      }
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (!helper_ran && std::chrono::steady_clock::now() < until) std::this_thread::yield();
      spin(t);
    });
  } catch (const NotAStdException& e) {
    caught = true;
    EXPECT_GE(e.code, 0);
  }
  ASSERT_TRUE(helper_ran) << "no pool thread took a task in 30 s";
  EXPECT_TRUE(caught) << "a pool thread's exception did not reach the caller";
}

// Many callers on one pool, each with loops nested in its tasks, get their own
// results and their own exceptions, and the process never holds more threads
// than the pool's, the callers' and the main thread.
TEST(ParallelTasks, ConcurrentAndNestedCallsShareThePool) {
  constexpr size_t kCallers = 8, kRounds = 6, kOuter = 12, kInner = 200;
  const size_t limit = 1 + kCallers + (cpu_threads() - 1);
  std::atomic<size_t> most_alive{0};
  std::atomic<int> wrong{0};
  const auto note_alive = [&] {
    const size_t n = threads_alive();
    for (size_t m = most_alive.load(); n > m && !most_alive.compare_exchange_weak(m, n);) {
    }
  };
  const auto caller = [&](size_t id) {
    for (size_t round = 0; round < kRounds; ++round) {
      // sum over outer tasks o of sum over inner tasks i of (o * kInner + i + id)
      std::vector<uint64_t> sums(kOuter, 0);
      parallel_tasks(kOuter, 0, [&](size_t o) {
        std::atomic<uint64_t> sum{0};
        parallel_tasks(kInner, 0, [&](size_t i) {
          if (i % 50 == 0) note_alive();
          spin(i);
          sum += o * kInner + i + id;
        });
        sums[o] = sum;
      });
      for (size_t o = 0; o < kOuter; ++o)
        if (sums[o] != o * kInner * kInner + kInner * (kInner - 1) / 2 + kInner * id) ++wrong;
      // An exception thrown in a nested loop reaches this caller, as itself.
      try {
        parallel_tasks(kOuter, 0, [&](size_t o) {
          parallel_tasks(kInner, 0, [&](size_t i) {
            if (o == round && i == 2 * id) throw NotAStdException{int(id)};
          });
        });
        ++wrong;
      } catch (const NotAStdException& e) {
        if (e.code != (int)id) ++wrong;
      }
    }
  };
  std::vector<std::thread> callers;
  for (size_t id = 0; id < kCallers; ++id) callers.emplace_back(caller, id);
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(most_alive.load(), 1u);
  EXPECT_LE(most_alive.load(), limit);
  EXPECT_LE(threads_alive(), 1 + (cpu_threads() - 1));
}

// With every pool thread blocked in another call, a new call does not wait for
// one: its caller runs all of its tasks.
TEST(ParallelTasks, ACallFinishesOnItsCallerWhenThePoolIsBusy) {
  const size_t busy = cpu_threads();  // the pool's threads and one caller
  std::mutex mu;
  std::condition_variable cv;
  size_t blocked = 0;
  bool release = false;
  std::thread occupier([&] {
    parallel_tasks(busy, 0, [&](size_t) {
      std::unique_lock lock(mu);
      ++blocked;
      cv.notify_all();
      cv.wait(lock, [&] { return release; });
    });
  });
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return blocked == busy; }))
        << blocked << " of " << busy << " tasks started";
  }
  std::set<std::thread::id> ids;
  std::atomic<uint64_t> sum{0};
  parallel_tasks(1000, 0, [&](size_t t) {
    sum += t;
    std::lock_guard lock(mu);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(sum.load(), 999u * 1000 / 2);
  EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  occupier.join();
}

}  // namespace
}  // namespace cuzk
