// The host buffer pool: size classes, reuse in steady state, the budget as
// backpressure, cancellation, failure, and a concurrent run that must balance.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <optional>
#include <random>
#include <stop_token>
#include <thread>
#include <vector>

#include "cuzk/engine/buffer_pool.hpp"
#include "seed.hpp"
#include "vm_flags.hpp"

namespace cuzk::engine {
namespace {

constexpr size_t MiB = size_t(1) << 20;

// What the memory below has handed out; it outlives the pool that owns the memory.
bool all_zero(const void* p, size_t bytes) {
  const auto* b = static_cast<const unsigned char*>(p);
  return std::all_of(b, b + bytes, [](unsigned char c) { return c == 0; });
}

struct Counts {
  std::atomic<long> outstanding{0}, allocations{0};
  std::atomic<long> released_unzeroed{0};  // buffers given to the system with a byte not zero
  std::atomic<bool> fail{false};
};

// Heap memory that counts what it hands out, can be told to fail, and counts
// the buffers the pool gives back to it unzeroed (a witness left in freed
// memory).
struct CountingMemory final : HostMemory {
  std::shared_ptr<Counts> counts;
  explicit CountingMemory(std::shared_ptr<Counts> c) : counts(std::move(c)) {}
  void* allocate(size_t bytes) override {
    if (counts->fail) throw std::bad_alloc();
    ++counts->outstanding, ++counts->allocations;
    return ::operator new(bytes);
  }
  void release(void* p, size_t bytes) override {
    if (!all_zero(p, bytes)) ++counts->released_unzeroed;
    --counts->outstanding;
    ::operator delete(p);
  }
  const char* name() const override { return "counting"; }
};

struct Pool {
  std::shared_ptr<Counts> memory = std::make_shared<Counts>();
  std::unique_ptr<BufferPool> pool;
  explicit Pool(size_t budget) : pool(std::make_unique<BufferPool>(std::make_unique<CountingMemory>(memory), budget)) {}
};

TEST(BufferPool, SizeClasses) {
  EXPECT_EQ(BufferPool::size_class(1), MiB);
  EXPECT_EQ(BufferPool::size_class(MiB), MiB);
  EXPECT_EQ(BufferPool::size_class(MiB + 1), 9 * MiB / 8);
  EXPECT_EQ(BufferPool::size_class(9 * MiB / 8), 9 * MiB / 8);
  EXPECT_EQ(BufferPool::size_class(15 * MiB / 8 + 1), 2 * MiB);
  EXPECT_EQ(BufferPool::size_class(3 * MiB), 3 * MiB);
  EXPECT_EQ(BufferPool::size_class(3 * MiB + 1), 13 * MiB / 4);
  // A 2^27 BLS12-381 partition's w, a, b and c: 16 GiB and a little, in 18 GiB.
  EXPECT_EQ(BufferPool::size_class((size_t(16) << 30) + 4096), size_t(18) << 30);
  std::mt19937_64 rng(test::test_seed());
  for (int i = 0; i < 10000; ++i) {
    const size_t n = MiB + rng() % (size_t(1) << 34);
    const size_t c = BufferPool::size_class(n);
    ASSERT_GE(c, n);
    ASSERT_LE(c - n, c / 9) << n;  // at most an eighth of the request wasted
    ASSERT_EQ(BufferPool::size_class(c), c) << n;  // a class is its own class
  }
}

// A lease's buffer is zeroed when it comes back, before the pool hands it out
// again or gives it to the system. before: the next lease read the last
// partition's witness and products
TEST(BufferPool, AReturnedBufferIsZeroed) {
  Pool p(64 * MiB);
  void* first = nullptr;
  {
    const auto lease = p.pool->acquire(5 * MiB);
    first = lease.data();
    std::memset(lease.data(), 0x5a, lease.bytes());
  }
  const auto again = p.pool->acquire(5 * MiB);
  ASSERT_EQ(again.data(), first) << "the kept buffer, reused";
  EXPECT_TRUE(all_zero(again.data(), again.bytes()));
}

// The zeroing is the scrubber's: buffers given back just before the pool
// ends are zeroed before they are freed, the ones served alone (over the
// budget, not kept) too; and a request of a class being zeroed waits for that
// buffer rather than allocating another.
TEST(BufferPool, EveryBufferIsZeroedBeforeItIsFreed) {
  Pool p(16 * MiB);
  {
    std::vector<BufferPool::Lease> leases;
    for (size_t s : {4 * MiB, 4 * MiB, 6 * MiB, 20 * MiB}) {  // the last one alone
      if (s > 16 * MiB) leases.clear();
      leases.push_back(p.pool->acquire(s));
      std::memset(leases.back().data(), 0xa5, leases.back().bytes());
    }
  }
  EXPECT_EQ(p.memory->released_unzeroed, 0) << "the buffer served alone is zeroed before it is freed";
  {
    auto again = p.pool->acquire(20 * MiB);  // released the 20 MiB one: allocated again
    std::memset(again.data(), 0x3c, again.bytes());
  }
  void* kept = nullptr;
  {
    auto lease = p.pool->acquire(4 * MiB);
    std::memset(lease.data(), 0x77, lease.bytes());
    kept = lease.data();
  }
  {
    const auto same = p.pool->acquire(4 * MiB);
    EXPECT_EQ(same.data(), kept) << "the buffer being zeroed, not a new one";
    EXPECT_TRUE(all_zero(same.data(), same.bytes()));
    EXPECT_EQ(p.pool->counters().waits, 0u) << "a wait for the zeroing is not backpressure";
    auto last = p.pool->acquire(2 * MiB);
    std::memset(last.data(), 0x11, last.bytes());
    std::memset(same.data(), 0x22, same.bytes());
  }
  p.pool.reset();  // the buffers just given back, likely not yet zeroed
  EXPECT_EQ(p.memory->released_unzeroed, 0);
  EXPECT_EQ(p.memory->outstanding, 0);
}

// before: pageable buffers came from the heap, and a core carried them
TEST(BufferPool, PageableBuffersStayOutOfCoreDumps) {
  BufferPool pool(pageable_memory(), 64 * MiB);
  const auto lease = pool.acquire(5 * MiB);
  EXPECT_TRUE(test::out_of_core_dumps(lease.data())) << test::vm_flags_of(lease.data());
}

TEST(BufferPool, SteadyStateAllocatesNothing) {
  Pool p(64 * MiB);
  const size_t sizes[] = {5 * MiB, 12 * MiB, 12 * MiB, 700 * 1024};
  for (int round = 0; round < 10; ++round) {
    std::vector<BufferPool::Lease> leases;
    for (size_t s : sizes) {
      leases.push_back(p.pool->acquire(s));
      ASSERT_GE(leases.back().bytes(), s);
      std::memset(leases.back().data(), round, s);  // the memory is really there
    }
  }
  const auto c = p.pool->counters();
  EXPECT_EQ(c.allocations, 4u);
  EXPECT_EQ(c.reuses, 36u);
  EXPECT_EQ(c.waits, 0u);
  EXPECT_EQ(c.bytes_leased, 0u);
  EXPECT_EQ(p.memory->allocations, 4);
}

TEST(BufferPool, WaitsForALeaseWhenTheBudgetIsUsed) {
  Pool p(8 * MiB);
  auto a = p.pool->acquire(4 * MiB);
  std::optional<BufferPool::Lease> b = p.pool->acquire(4 * MiB);
  auto third = std::async(std::launch::async, [&] { return p.pool->acquire(4 * MiB); });
  EXPECT_EQ(third.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout) << "should wait";
  b.reset();
  ASSERT_EQ(third.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  const auto lease = third.get();
  const auto c = p.pool->counters();
  EXPECT_EQ(c.waits, 1u);
  EXPECT_EQ(c.allocations, 2u);
  EXPECT_EQ(c.reuses, 1u);
  EXPECT_LE(c.bytes_held, 8 * MiB);
}

TEST(BufferPool, FreesOtherClassesToMakeRoom) {
  Pool p(4 * MiB);
  { auto small = p.pool->acquire(2 * MiB); }
  auto big = p.pool->acquire(4 * MiB);
  const auto c = p.pool->counters();
  EXPECT_EQ(c.releases, 1u);
  EXPECT_EQ(c.allocations, 2u);
  EXPECT_EQ(c.bytes_held, 4 * MiB);
  EXPECT_EQ(p.memory->outstanding, 1);
}

TEST(BufferPool, CancelWakesWaiters) {
  Pool p(4 * MiB);
  auto held = p.pool->acquire(4 * MiB);
  auto waiter = std::async(std::launch::async, [&] { return p.pool->acquire(MiB); });
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  p.pool->cancel();
  EXPECT_THROW(waiter.get(), PoolCancelled);
  EXPECT_THROW(p.pool->acquire(MiB), PoolCancelled);
}

// One user of a shared pool stops its own waits without cancelling the pool
// for the others.
TEST(BufferPool, AStopTokenEndsOneWait) {
  Pool p(4 * MiB);
  auto held = p.pool->acquire(4 * MiB);
  std::stop_source stop;
  auto waiter = std::async(std::launch::async, [&] { return p.pool->acquire(MiB, stop.get_token()); });
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  stop.request_stop();
  EXPECT_THROW(waiter.get(), PoolCancelled);
  held = {};
  EXPECT_NE(p.pool->acquire(MiB).data(), nullptr) << "the pool itself goes on";
}

// Raising the budget lets a waiter in, and a request that was over the old
// budget is then served within it (kept for reuse).
TEST(BufferPool, RaisingTheBudgetServesWaiters) {
  Pool p(4 * MiB);
  auto held = p.pool->acquire(4 * MiB);
  auto waiter = std::async(std::launch::async, [&] { return p.pool->acquire(2 * MiB); });
  EXPECT_EQ(waiter.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  p.pool->raise_budget(6 * MiB);
  EXPECT_EQ(p.pool->budget(), 6 * MiB);
  EXPECT_NE(waiter.get().data(), nullptr);
  p.pool->raise_budget(MiB);
  EXPECT_EQ(p.pool->budget(), 6 * MiB) << "a budget is only raised";
  held = {};
  { auto again = p.pool->acquire(4 * MiB); }
  EXPECT_EQ(p.pool->counters().reuses, 1u);
}

// A request over the whole budget (a key larger than the one the budget was
// sized for) waits until nothing else is leased, the requests after it wait
// behind it, and its buffer is freed when it comes back.
TEST(BufferPool, ServesARequestOverItsBudgetAlone) {
  Pool p(4 * MiB);
  std::optional<BufferPool::Lease> small = p.pool->acquire(MiB);
  auto big = std::async(std::launch::async, [&] { return p.pool->acquire(5 * MiB); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (p.pool->counters().waits == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(p.pool->counters().waits, 1u) << "the large request waits for the small lease";
  auto after = std::async(std::launch::async, [&] { return p.pool->acquire(MiB); });
  EXPECT_EQ(after.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout) << "behind the large one";
  small.reset();
  std::optional<BufferPool::Lease> large = big.get();
  EXPECT_GE(large->bytes(), 5 * MiB);
  EXPECT_EQ(p.memory->outstanding, 1) << "the small buffer was freed to make room";
  EXPECT_EQ(after.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout) << "while it is out";
  large.reset();
  const auto lease = after.get();
  EXPECT_EQ(p.memory->outstanding, 1) << "the large buffer is not kept";
  EXPECT_LE(p.pool->counters().bytes_held, 4 * MiB);
}

TEST(BufferPool, SurvivesAllocationFailure) {
  Pool p(8 * MiB);
  p.memory->fail = true;
  EXPECT_THROW(p.pool->acquire(MiB), std::bad_alloc);
  auto c = p.pool->counters();
  EXPECT_EQ(c.bytes_held, 0u);
  EXPECT_EQ(c.allocations, 0u);
  p.memory->fail = false;
  auto ok = p.pool->acquire(8 * MiB);  // the failed attempt left its budget behind
  EXPECT_EQ(p.pool->counters().bytes_held, 8 * MiB);
}

TEST(BufferPool, ConcurrentUseBalances) {
  Pool p(32 * MiB);
  std::atomic<bool> over_budget{false};
  std::vector<std::thread> threads;
  const uint64_t seed = test::test_seed();
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(seed + t);
      for (int i = 0; i < 200; ++i) {
        auto lease = p.pool->acquire(MiB + rng() % (6 * MiB));
        static_cast<volatile char*>(lease.data())[0] = 1;
        if (p.pool->counters().bytes_held > 32 * MiB) over_budget = true;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_FALSE(over_budget);
  const auto c = p.pool->counters();
  EXPECT_EQ(c.bytes_leased, 0u);
  EXPECT_EQ(c.allocations + c.reuses, 1600u);
  EXPECT_EQ(p.memory->outstanding, (long)c.allocations - (long)c.releases);
  p.pool.reset();
  EXPECT_EQ(p.memory->outstanding, 0) << "the pool must free what it kept";
  EXPECT_EQ(p.memory->released_unzeroed, 0);
}

}  // namespace
}  // namespace cuzk::engine
