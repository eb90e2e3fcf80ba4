// The proving pipeline (docs/ARCHITECTURE.md, "The GPU data path"): jobs of K
// partitions each flow through
//
//   synthesis threads ──► ready queue ──► workers (prove_start) ──► finalizers (prove_finish)
//
// A synthesis thread takes the next partition, leases one host buffer for its
// witness (and a/b/c, where the backend wants them from the host) from the
// pool, waiting while the pool's budget is used up: the backpressure that
// keeps synthesis from running ahead of the provers. A partition whose inputs
// lie in its caller's memory already is lent instead (Lent): no buffer, no
// copy on a GPU, and the memory handed back as soon as it is uploaded. A worker hands it to the
// backend (backend.hpp: the CPU, or GPUs with two workers each), which gives
// the buffer back as soon as it has read it; a finalizer draws r and s (or
// takes the job's), assembles and verifies, so the worker is free for the
// next partition. Each stage is a span in the Recorder. A partition that
// fails (an unsatisfied witness, a proof that does not verify, anything its
// source throws, host memory running out) fails alone, with its message; the
// others go on. A job may be cancelled, and may have a deadline (JobOptions).
// A worker whose device faults (DeviceFault) retires and its partition is
// synthesized again for the workers left; when none is left, every partition
// fails, until readmit_workers() after the device's recovery.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "cuzk/engine/backend.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/groth16/prover.hpp"

namespace cuzk::engine {

// A partition's inputs lent from its caller's memory instead of synthesized:
// the pieces (HostInputs: w in pieces, a, b, c of the given rows, or none for
// a key with its circuit's rows, which then evaluate them: on the GPU where
// abc_on_gpu_for, else on the host from w's copy into a pool buffer) and
// `hold`, which the engine lets go of as soon as no stage reads them (after
// their upload on a GPU, after their copy into a pool buffer, or when the
// partition fails or stops first): the caller's notification that its memory
// is free again.
template <class E>
struct Lent {
  groth16::HostInputs<typename E::Fr> inputs;
  std::shared_ptr<const void> hold;
};

// One partition's source. Made from a function that writes w (n_vars values)
// and a, b, c (domain_size each) into the pool buffer's spans it is given
// (where the backend computes a, b, c itself the three spans are empty and
// only w is written); or, by lending(), from one that lends memory the
// inputs already lie in. A lent partition's values are checked below the
// modulus where they are read (on the GPU after the upload, or in the CPU
// backend's copy), its sizes by check_shape when it is lent.
template <class E>
class Synthesize {
 public:
  using Fr = typename E::Fr;
  using Write = std::function<void(std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c)>;
  using Lend = std::function<Lent<E>()>;

  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Synthesize> && std::is_constructible_v<Write, F>)
  Synthesize(F write) : write_(std::move(write)) {}
  static Synthesize lending(Lend lend) {
    Synthesize s;
    s.lend_ = std::move(lend);
    return s;
  }

  bool lends() const { return bool(lend_); }
  void operator()(std::span<Fr> w, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) const { write_(w, a, b, c); }
  Lent<E> lend() const { return lend_(); }
  // The same source, with `first` called as it starts (a service marks its
  // job running).
  Synthesize starting_with(std::function<void()> first) && {
    Synthesize s;
    if (lend_) {
      s.lend_ = [first, lend = std::move(lend_)] {
        first();
        return lend();
      };
    } else {
      s.write_ = [first, write = std::move(write_)](std::span<Fr> w, std::span<Fr> a, std::span<Fr> b,
                                                     std::span<Fr> c) {
        first();
        write(w, a, b, c);
      };
    }
    return s;
  }

 private:
  Synthesize() = default;
  Write write_;
  Lend lend_;
};

// How a partition ended.
enum class Outcome : uint8_t {
  proved,             // proof set, verified
  failed,             // a stage threw: cause holds what
  cancelled,          // its job was cancelled first
  deadline_exceeded,  // its job's deadline passed first
  shut_down,          // the engine stopped first
};

template <class E>
struct PartitionResult {
  uint32_t job = 0, partition = 0;
  Outcome outcome = Outcome::failed;
  std::optional<groth16::Proof<E>> proof;  // set when the partition was proved and verified
  std::vector<typename E::Fr> publics;
  std::string error;         // why there is no proof, one line
  std::exception_ptr cause;  // what a failed stage threw
  PhaseTimes times;          // a phase never reached took no time
};

// What a caller may set for one job. Both are checked between the stages of
// each partition: a partition not yet done when its job is cancelled or past
// its deadline fails with "cancelled: ..." or "deadline exceeded: ..." without
// further work, and what a stage under way produces is dropped. A source that
// runs long should poll the same token and return or throw early.
// Partitions of higher priority start synthesis first; equal priorities in
// submission order.
struct JobOptions {
  std::stop_token cancel;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  int priority = 0;
};

struct EngineOptions {
  unsigned synthesis_threads = 2;
  size_t host_budget = size_t(1) << 30;  // bytes of witness and a/b/c buffers
  // Threads running prove_finish (assembly and verification): more than one
  // where the workers hand over partitions faster than one thread verifies.
  unsigned finalizer_threads = 1;
};

// A host budget that lets every stage hold a partition at once: each synthesis
// thread, and per worker one being proved and one queued for it.
template <class E>
size_t host_budget_for(const groth16::PreparedKey<E>& key, unsigned synthesis_threads, unsigned workers,
                       bool abc_on_gpu) {
  return BufferPool::size_class(partition_buffer_bytes(key, abc_on_gpu)) * (synthesis_threads + 2 * workers);
}

template <class E>
class Engine {
 public:
  using Fr = typename E::Fr;

  // memory: where the buffers come from; null means the backend's choice
  // (pinned for GPUs), pageable_memory() makes the pageable comparison.
  Engine(EngineOptions options, Recorder& recorder, std::unique_ptr<Backend<E>> backend,
         std::unique_ptr<HostMemory> memory = nullptr);
  // Buffers from a pool shared with other engines (one host budget for keys
  // of both curves); options.host_budget is then not used.
  Engine(EngineOptions options, Recorder& recorder, std::unique_ptr<Backend<E>> backend,
         std::shared_ptr<BufferPool> pool);
  // shutdown(), then waits for the threads.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues every partition of a job proved with `key`. on_partition is called
  // once with each partition's result as it is done, one at a time (from an
  // engine thread, or from this call when no worker is left; keep it short);
  // by the last call the job has let go of its key and sources. Throws
  // std::logic_error after shutdown().
  // randomness, when given, holds each partition's r and s (one per
  // partition, else std::invalid_argument); else they are drawn fresh.
  void submit(groth16::SharedKey<E> key, std::vector<Synthesize<E>> partitions, JobOptions options,
              std::function<void(const PartitionResult<E>&)> on_partition,
              std::vector<groth16::Randomness<Fr>> randomness = {});

  // Stops taking work: partitions not yet started fail with "cancelled",
  // those in flight finish, every partition's result is reported, and every
  // buffer returns to the pool.
  void shutdown();

  // Reports now, instead of when a synthesis thread reaches them, the queued
  // partitions of jobs that were cancelled or are past their deadline.
  void purge_stopped();

  // Takes back the retired workers whose device the backend reports usable
  // again (after engine::recover_gpu): they take partitions from now on.
  void readmit_workers();

  // Partitions in each stage now.
  struct Depths {
    size_t queued = 0, synthesizing = 0, ready = 0, proving = 0, finishing = 0;
  };
  Depths depths() const;

  BufferPool::Counters pool_counters() const { return pool_->counters(); }
  const char* memory_name() const { return pool_->memory_name(); }
  const Backend<E>& backend() const { return *backend_; }
  // Drops the backend's copies of a key (backend.hpp); safe while jobs use it.
  void forget(const groth16::PreparedKey<E>& key) { backend_->forget(key); }

 private:
  struct Batch;
  // When a partition passed each phase's start, in the recorder's seconds
  // (Recorder::now); 0 for one it never reached.
  struct Moments {
    double submitted = 0, synthesis_start = 0, synthesized = 0, proved = 0;
  };
  struct Task;
  struct Ready;
  struct Pending;

  void synthesis_loop(int index);
  // A partition's inputs: synthesized into a pool buffer, or lent (and for a
  // backend that does not read lent memory, copied into one).
  Ready synthesize(const Track& track, Task& t);
  void worker_loop(unsigned index);
  void finalizer_loop(int index);
  void start_threads();
  // After a DeviceFault on `worker`: the partition goes back to the queue for
  // the workers left, or fails when none is left; the worker retires when
  // its device is unusable.
  void after_fault(unsigned worker, Task t, std::exception_ptr fault);
  // Queues a job's tasks behind those of equal or higher priority.
  void enqueue(const std::shared_ptr<Batch>& batch);
  void finish(const Track& track, Pending& p);
  void complete(Batch& batch, uint32_t partition, const Moments& times, std::optional<groth16::Proof<E>> proof,
                std::vector<Fr> publics, Outcome outcome, std::string error = {}, std::exception_ptr cause = nullptr);
  void complete_stopped(const Task& t, Outcome why, std::vector<Fr> publics = {});
  // A stage ("synthesis", "prove", "finish") threw `cause`.
  void complete_failed(const Task& t, const char* stage, std::exception_ptr cause);

  EngineOptions options_;
  Recorder& recorder_;
  std::unique_ptr<Backend<E>> backend_;
  std::shared_ptr<BufferPool> pool_;
  std::stop_source stop_;  // ends waits for the pool's memory at shutdown
  uint32_t next_job_ = 0;
  mutable std::mutex mu_;
  std::condition_variable work_;  // any queue changed, or stopping
  std::deque<Task> tasks_;
  std::deque<Ready> ready_;
  std::deque<Pending> pending_;
  size_t synthesizing_ = 0, proving_ = 0, finishing_ = 0;
  std::vector<bool> retired_;  // per worker: out of rotation until readmit_workers()
  bool any_worker_left() const { return std::find(retired_.begin(), retired_.end(), false) != retired_.end(); }
  std::exception_ptr no_workers_;  // the last fault, once no worker is left
  bool stopping_ = false;
  std::vector<std::jthread> threads_;
};

}  // namespace cuzk::engine
