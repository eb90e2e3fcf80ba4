#include "cuzk/engine/engine.hpp"

#include "cuzk/ec/curves.hpp"

namespace cuzk::engine {

template <class E>
struct Engine<E>::Job {
  uint32_t id = 0;
  groth16::SharedKey<E> key;
  std::vector<Synthesize<E>> sources;
  JobOptions options;
  // Why the job's partitions should stop now, or null.
  const char* stopped() const;
  std::mutex mu;
  std::vector<PartitionResult<E>> results;
  size_t remaining = 0;
  std::promise<std::vector<PartitionResult<E>>> done;
};

template <class E>
struct Engine<E>::Task {
  std::shared_ptr<Job> job;
  uint32_t partition = 0;
};

template <class E>
struct Engine<E>::Ready {
  Task task;
  BufferPool::Lease buffer;  // w, then a, b, c when they come from the host
};

template <class E>
struct Engine<E>::Pending {
  Task task;
  groth16::PendingProof<E> proof;
};

namespace {

constexpr const char* kCancelled = "cancelled: the engine was shut down before this partition was proved";
constexpr const char* kJobCancelled = "cancelled: the job was cancelled before this partition was proved";
constexpr const char* kDeadline = "deadline exceeded: the job's deadline passed before this partition was proved";

template <class E>
std::unique_ptr<Backend<E>> checked(std::unique_ptr<Backend<E>> backend) {
  if (!backend || backend->workers() == 0) throw std::invalid_argument("the engine needs a backend with a worker");
  return backend;
}

// What the exception being handled says, whatever its type.
std::string current_error() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return "out of host memory";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

template <class E>
const char* Engine<E>::Job::stopped() const {
  if (options.cancel.stop_requested()) return kJobCancelled;
  if (std::chrono::steady_clock::now() >= options.deadline) return kDeadline;
  return nullptr;
}

template <class E>
Engine<E>::Engine(EngineOptions options, Recorder& recorder, std::unique_ptr<Backend<E>> backend,
                  std::unique_ptr<HostMemory> memory)
    : options_(options),
      recorder_(recorder),
      backend_(checked(std::move(backend))),
      pool_(memory ? std::move(memory) : backend_->host_memory(), options.host_budget) {
  if (options_.synthesis_threads == 0 || options_.finalizer_threads == 0)
    throw std::invalid_argument("the engine needs at least one synthesis thread and one finalizer");
  try {
    for (unsigned i = 0; i < options_.synthesis_threads; ++i)
      threads_.emplace_back([this, i] { synthesis_loop((int)i); });
    for (unsigned i = 0; i < backend_->workers(); ++i) threads_.emplace_back([this, i] { worker_loop(i); });
    for (unsigned i = 0; i < options_.finalizer_threads; ++i)
      threads_.emplace_back([this, i] { finalizer_loop((int)i); });
  } catch (...) {
    shutdown();  // the threads that started stop, and are joined as threads_ goes
    throw;
  }
}

template <class E>
Engine<E>::~Engine() {
  shutdown();
  threads_.clear();  // joins, while every member they use still exists
}

template <class E>
std::future<std::vector<PartitionResult<E>>> Engine<E>::submit(groth16::SharedKey<E> key,
                                                               std::vector<Synthesize<E>> partitions,
                                                               JobOptions options) {
  if (!key) throw std::invalid_argument("submit: no key");
  auto job = std::make_shared<Job>();
  job->key = std::move(key);
  job->options = std::move(options);
  job->sources = std::move(partitions);
  job->remaining = job->sources.size();
  auto future = job->done.get_future();
  std::lock_guard lock(mu_);
  if (stopping_) throw std::logic_error("the engine has been shut down");
  job->id = next_job_++;
  job->results.resize(job->sources.size());
  for (uint32_t p = 0; p < job->results.size(); ++p) {
    job->results[p].job = job->id;
    job->results[p].partition = p;
    tasks_.push_back({job, p});
  }
  if (job->sources.empty()) job->done.set_value({});
  work_.notify_all();
  return future;
}

template <class E>
void Engine<E>::complete(Job& job, uint32_t partition, std::optional<groth16::Proof<E>> proof,
                         std::vector<Fr> publics, std::string error) {
  bool last;
  {
    std::lock_guard lock(job.mu);
    auto& r = job.results[partition];
    r.proof = std::move(proof);
    r.publics = std::move(publics);
    r.error = std::move(error);
    last = --job.remaining == 0;
  }
  if (!last) return;
  // No stage uses them any more; the caller may count on their release.
  job.key.reset();
  job.sources.clear();
  job.done.set_value(std::move(job.results));
}

template <class E>
void Engine<E>::synthesis_loop(int index) {
  const Track track{Track::Kind::synthesis, -1, index};
  for (;;) {
    Task t;
    const char* stopped = nullptr;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;  // shutdown() cancels what is left
      t = std::move(tasks_.front());
      tasks_.pop_front();
      stopped = t.job->stopped();
      if (!stopped) ++synthesizing_;
    }
    if (stopped) {
      complete(*t.job, t.partition, std::nullopt, {}, stopped);
      continue;
    }
    std::optional<Ready> ready;
    std::string error;
    try {
      const bool host_abc = backend_->host_abc();
      BufferPool::Lease buffer = pool_.acquire(partition_buffer_bytes(*t.job->key, host_abc));
      const auto parts = partition_spans(buffer, *t.job->key, host_abc);
      const double start = recorder_.now();
      t.job->sources[t.partition](parts.w, parts.a, parts.b, parts.c);
      recorder_.record(Span{Stage::synthesis, track, t.job->id, t.partition, start, recorder_.now()});
      ready = Ready{t, std::move(buffer)};
    } catch (const PoolCancelled&) {
      error = kCancelled;
    } catch (...) {
      error = "synthesis: " + current_error();
    }
    std::unique_lock lock(mu_);
    --synthesizing_;
    work_.notify_all();
    // A source interrupted by the job's token fails because of it: the job's
    // reason is the partition's.
    if (const char* why = t.job->stopped()) {
      ready.reset();
      error = why;
    }
    if (ready && stopping_) error = kCancelled;
    if (ready && !stopping_) {
      try {
        ready_.push_back(std::move(*ready));
        continue;
      } catch (const std::bad_alloc&) {
        error = "synthesis: out of host memory";
      }
    }
    lock.unlock();
    ready.reset();  // the buffer goes back before the partition is reported: its job may be the last
    complete(*t.job, t.partition, std::nullopt, {}, error);
  }
}

template <class E>
void Engine<E>::worker_loop(unsigned index) {
  for (;;) {
    std::optional<Ready> r;
    const char* stopped = nullptr;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
      if (stopping_) return;
      r.emplace(std::move(ready_.front()));
      ready_.pop_front();
      stopped = r->task.job->stopped();
      if (!stopped) ++proving_;
    }
    const Task t = r->task;
    if (stopped) {
      r.reset();  // the buffer goes back before the partition is reported
      complete(*t.job, t.partition, std::nullopt, {}, stopped);
      continue;
    }
    std::optional<groth16::PendingProof<E>> proof;
    std::string error;
    try {
      WorkItem<E> item{t.job->key, t.job->id, t.partition, std::move(r->buffer)};
      r.reset();
      proof = backend_->prove(index, item, recorder_);
    } catch (...) {
      error = "prove: " + current_error();
    }
    std::unique_lock lock(mu_);
    --proving_;
    work_.notify_all();
    if (proof) {
      try {
        pending_.push_back({t, std::move(*proof)});
        continue;
      } catch (const std::bad_alloc&) {
        error = "prove: out of host memory";
      }
    }
    lock.unlock();
    complete(*t.job, t.partition, std::nullopt, {}, error);
  }
}

template <class E>
void Engine<E>::finalizer_loop(int index) {
  const Track track{Track::Kind::finalizer, -1, index};
  for (;;) {
    std::optional<Pending> p;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return !pending_.empty() || (stopping_ && proving_ == 0); });
      if (pending_.empty()) return;
      p.emplace(std::move(pending_.front()));
      pending_.pop_front();
    }
    const Task& t = p->task;
    if (const char* why = t.job->stopped()) {
      complete(*t.job, t.partition, std::nullopt, std::move(p->proof.publics), why);
      continue;
    }
    const double start = recorder_.now();
    groth16::FinishTimes ft;
    const auto record = [&] {
      recorder_.record(Span{Stage::finish, track, t.job->id, t.partition, start, start + ft.assemble});
      recorder_.record(Span{Stage::verify, track, t.job->id, t.partition, start + ft.assemble,
                            start + ft.assemble + ft.verify});
    };
    std::optional<groth16::Proof<E>> proof;
    std::string error;
    try {
      proof = groth16::prove_finish(*t.job->key, p->proof, &ft);
    } catch (...) {
      error = "finish: " + current_error();
    }
    record();
    complete(*t.job, t.partition, std::move(proof), std::move(p->proof.publics), std::move(error));
  }
}

template <class E>
void Engine<E>::shutdown() {
  std::deque<Task> cancelled;
  std::deque<Ready> unproved;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    cancelled.swap(tasks_);
    unproved.swap(ready_);
    work_.notify_all();
  }
  pool_.cancel();
  for (Task& t : cancelled) complete(*t.job, t.partition, std::nullopt, {}, kCancelled);
  for (Ready& r : unproved) {
    r.buffer = {};  // back to the pool before the job can be reported done
    complete(*r.task.job, r.task.partition, std::nullopt, {}, kCancelled);
  }
}

template class Engine<ec::Bn254>;
template class Engine<ec::Bls12_381>;

}  // namespace cuzk::engine
