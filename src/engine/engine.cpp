#include "cuzk/engine/engine.hpp"

#include <algorithm>
#include <functional>
#include <iterator>

#include "cuzk/ec/curves.hpp"
#include "cuzk/util/exception_message.hpp"

namespace cuzk::engine {

// What one submit() queued: partitions proved with one key under one
// JobOptions and reported to one on_partition; PartitionResult::job and the
// spans carry its id.
template <class E>
struct Engine<E>::Batch {
  uint32_t id = 0;
  groth16::SharedKey<E> key;
  std::vector<Synthesize<E>> sources;
  std::vector<groth16::Randomness<typename E::Fr>> randomness;  // per partition, or none: drawn fresh
  JobOptions options;
  std::function<void(const PartitionResult<E>&)> on_partition;
  // Why its partitions should stop now (cancelled, deadline_exceeded),
  // or proved when they should go on.
  Outcome stopped() const;
  double submitted = 0;  // recorder seconds
  std::mutex mu;  // one on_partition call at a time
  size_t remaining = 0;
};

namespace {

// The phases' times from the moments they started and the moment it ended.
template <class Moments>
PhaseTimes phase_times(const Moments& t, double done) {
  const auto span = [](double from, double to) { return from > 0 && to >= from ? to - from : 0.0; };
  PhaseTimes p;
  p[Phase::queue] = span(t.submitted, t.synthesis_start);
  p[Phase::synthesis] = span(t.synthesis_start, t.synthesized);
  p[Phase::prove] = span(t.synthesized, t.proved);
  p[Phase::finish] = span(t.proved, done);
  p[Phase::total] = span(t.submitted, done);
  return p;
}

}  // namespace

template <class E>
struct Engine<E>::Task {
  std::shared_ptr<Batch> batch;
  uint32_t partition = 0;
  Moments times;
};

template <class E>
struct Engine<E>::Ready {
  Task task;
  HeldInputs<E> host;
};

template <class E>
struct Engine<E>::Pending {
  Task task;
  groth16::PendingProof<E> proof;
};

namespace {

const char* stop_message(Outcome why) {
  switch (why) {
    case Outcome::cancelled: return "cancelled: the job was cancelled before this partition was proved";
    case Outcome::deadline_exceeded:
      return "deadline exceeded: the job's deadline passed before this partition was proved";
    default: return "cancelled: the engine was shut down before this partition was proved";
  }
}

template <class E>
std::unique_ptr<Backend<E>> with_a_worker(std::unique_ptr<Backend<E>> backend) {
  if (!backend || backend->workers() == 0) throw std::invalid_argument("the engine needs a backend with a worker");
  return backend;
}


}  // namespace

template <class E>
Outcome Engine<E>::Batch::stopped() const {
  if (options.cancel.stop_requested()) return Outcome::cancelled;
  if (std::chrono::steady_clock::now() >= options.deadline) return Outcome::deadline_exceeded;
  return Outcome::proved;
}

template <class E>
Engine<E>::Engine(EngineOptions options, Recorder& recorder, std::unique_ptr<Backend<E>> backend,
                  std::unique_ptr<HostMemory> memory)
    : options_(options), recorder_(recorder), backend_(with_a_worker(std::move(backend))) {
  pool_ = std::make_shared<BufferPool>(memory ? std::move(memory) : backend_->host_memory(), options.host_budget);
  start_threads();
}

template <class E>
Engine<E>::Engine(EngineOptions options, Recorder& recorder, std::unique_ptr<Backend<E>> backend,
                  std::shared_ptr<BufferPool> pool)
    : options_(options), recorder_(recorder), backend_(with_a_worker(std::move(backend))), pool_(std::move(pool)) {
  if (!pool_) throw std::invalid_argument("the engine needs a buffer pool");
  start_threads();
}

template <class E>
void Engine<E>::start_threads() {
  if (options_.synthesis_threads == 0 || options_.finalizer_threads == 0)
    throw std::invalid_argument("the engine needs at least one synthesis thread and one finalizer");
  try {
    for (unsigned i = 0; i < options_.synthesis_threads; ++i)
      threads_.emplace_back([this, i] { synthesis_loop((int)i); });
    retired_.assign(backend_->workers(), false);
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
void Engine<E>::submit(groth16::SharedKey<E> key, std::vector<Synthesize<E>> partitions, JobOptions options,
                       std::function<void(const PartitionResult<E>&)> on_partition,
                       std::vector<groth16::Randomness<Fr>> randomness) {
  if (!key) throw std::invalid_argument("submit: no key");
  if (!on_partition) throw std::invalid_argument("submit: no on_partition");
  if (!randomness.empty() && randomness.size() != partitions.size())
    throw std::invalid_argument("submit: " + std::to_string(randomness.size()) + " pairs of r and s for " +
                                std::to_string(partitions.size()) + " partitions");
  auto batch = std::make_shared<Batch>();
  batch->randomness = std::move(randomness);
  batch->key = std::move(key);
  batch->options = std::move(options);
  batch->sources = std::move(partitions);
  batch->on_partition = std::move(on_partition);
  batch->remaining = batch->sources.size();
  batch->submitted = recorder_.now();
  std::unique_lock lock(mu_);
  if (stopping_) throw std::logic_error("the engine has been shut down");
  batch->id = next_job_++;
  // Once the lock goes, the job's last partition may complete (and release
  // its key and sources) and no_workers_ may change: what follows reads
  // copies taken under the lock.
  const size_t n = batch->sources.size();
  if (no_workers_) {
    const std::exception_ptr fault = no_workers_;
    lock.unlock();
    for (uint32_t p = 0; p < n; ++p) complete_failed(Task{batch, p, {}}, "prove", fault);
    return;
  }
  const groth16::SharedKey<E> batch_key = batch->key;
  const uint32_t id = batch->id;
  enqueue(batch);
  work_.notify_all();
  lock.unlock();
  if (n > 0) backend_->prefetch(batch_key, id, recorder_);
}

template <class E>
void Engine<E>::enqueue(const std::shared_ptr<Batch>& batch) {
  const int priority = batch->options.priority;
  auto at = std::find_if(tasks_.begin(), tasks_.end(),
                         [&](const Task& t) { return t.batch->options.priority < priority; });
  std::vector<Task> tasks;
  tasks.reserve(batch->sources.size());
  for (uint32_t p = 0; p < batch->sources.size(); ++p) {
    Task t{batch, p, {}};
    t.times.submitted = batch->submitted;
    tasks.push_back(std::move(t));
  }
  tasks_.insert(at, std::make_move_iterator(tasks.begin()), std::make_move_iterator(tasks.end()));
}

template <class E>
void Engine<E>::purge_stopped() {
  std::vector<std::pair<Task, Outcome>> stopped;
  {
    std::lock_guard lock(mu_);
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      const Outcome why = it->batch->stopped();
      if (why == Outcome::proved) {
        ++it;
        continue;
      }
      stopped.emplace_back(std::move(*it), why);
      it = tasks_.erase(it);
    }
  }
  for (auto& [t, why] : stopped) complete_stopped(t, why);
}

template <class E>
typename Engine<E>::Depths Engine<E>::depths() const {
  std::lock_guard lock(mu_);
  return {tasks_.size(), synthesizing_, ready_.size(), proving_, pending_.size() + finishing_};
}

template <class E>
void Engine<E>::complete(Batch& batch, uint32_t partition, const Moments& times,
                         std::optional<groth16::Proof<E>> proof, std::vector<Fr> publics, Outcome outcome,
                         std::string error, std::exception_ptr cause) {
  PartitionResult<E> r{batch.id, partition, outcome, std::move(proof), std::move(publics), std::move(error),
                       std::move(cause), phase_times(times, recorder_.now())};
  std::lock_guard lock(batch.mu);
  if (--batch.remaining == 0) {
    // No stage uses them any more; the caller may count on their release.
    batch.key.reset();
    batch.sources.clear();
    batch.randomness.clear();
  }
  try {
    batch.on_partition(r);
  } catch (...) {
    // An observer's failure is its own: the partition's result stands.
  }
}

template <class E>
void Engine<E>::complete_stopped(const Task& t, Outcome why, std::vector<Fr> publics) {
  complete(*t.batch, t.partition, t.times, std::nullopt, std::move(publics), why, stop_message(why));
}

template <class E>
void Engine<E>::complete_failed(const Task& t, const char* stage, std::exception_ptr cause) {
  std::string message = stage + (": " + exception_message(cause));
  complete(*t.batch, t.partition, t.times, std::nullopt, {}, Outcome::failed, std::move(message), std::move(cause));
}

template <class E>
typename Engine<E>::Ready Engine<E>::synthesize(const Track& track, Task& t) {
  const Synthesize<E>& source = t.batch->sources[t.partition];
  const groth16::ProvingKey<E>& key = t.batch->key->key();
  Ready ready{t, {}};
  double start = recorder_.now();
  // A pool buffer that `fill` writes the inputs into; the wait for it is not
  // synthesis.
  const auto into_buffer = [&](bool abc_on_gpu, const auto& fill) {
    ready.host.buffer = pool_->acquire(partition_buffer_bytes(*t.batch->key, abc_on_gpu), stop_.get_token());
    const auto parts = partition_spans(ready.host.buffer, *t.batch->key, abc_on_gpu);
    start = recorder_.now();
    fill(parts);
    ready.host.inputs = groth16::HostInputs<Fr>::whole(parts.w, parts.a, parts.b, parts.c);
  };
  if (!source.lends()) {
    into_buffer(backend_->abc_on_gpu(), [&](const PartitionSpans<E>& p) { source(p.w, p.a, p.b, p.c); });
  } else {
    Lent<E> lent = source.lend();
    lent.inputs.check_shape(key.n_vars(), key.domain_size());
    const bool abc_given = lent.inputs.has_abc();
    if (backend_->reads_lent() && (abc_given || abc_on_gpu_for(*t.batch->key, backend_->abc_on_gpu()))) {
      ready.host.inputs = std::move(lent.inputs);
      ready.host.lent = std::move(lent.hold);
    } else {
      // The CPU prover works on a, b, c in place, and the host evaluates a,
      // b, c from the key's rows out of w in a buffer: one copy, the values
      // checked on the way; the caller's memory goes back right after.
      if (!abc_given && key.coefs.empty())
        throw std::invalid_argument("a partition lent without a, b and c, for a key without its circuit's rows");
      into_buffer(false, [&](const PartitionSpans<E>& p) {
        groth16::copy_checked(lent.inputs, p.w, p.a, p.b, p.c, 0);
        if (!abc_given) t.batch->key->evaluate_abc(p.w, p.a, p.b, p.c, 0);
      });
    }
  }
  t.times.synthesized = recorder_.now();
  recorder_.record(Span{Stage::synthesis, track, t.batch->id, t.partition, start, t.times.synthesized});
  ready.task = t;
  return ready;
}

template <class E>
void Engine<E>::synthesis_loop(int index) {
  const Track track{Track::Kind::synthesis, -1, index};
  for (;;) {
    Task t;
    Outcome stopped;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;  // shutdown() cancels what is left
      t = std::move(tasks_.front());
      tasks_.pop_front();
      stopped = t.batch->stopped();
      if (stopped == Outcome::proved) ++synthesizing_;
    }
    if (stopped != Outcome::proved) {
      complete_stopped(t, stopped);
      continue;
    }
    std::optional<Ready> ready;
    std::exception_ptr failure;
    bool shut_down = false;
    t.times.synthesis_start = recorder_.now();
    try {
      ready = synthesize(track, t);
    } catch (const PoolCancelled&) {
      shut_down = true;
    } catch (...) {
      failure = std::current_exception();
    }
    std::unique_lock lock(mu_);
    --synthesizing_;
    work_.notify_all();
    // A source interrupted by the job's token fails because of it: the job's
    // reason is the partition's.
    stopped = t.batch->stopped();
    if (stopped == Outcome::proved && (shut_down || (ready && stopping_))) stopped = Outcome::shut_down;
    const char* failed_stage = "synthesis";
    if (stopped == Outcome::proved && ready && no_workers_) {
      failure = no_workers_;
      failed_stage = "prove";
      ready.reset();
    }
    if (stopped == Outcome::proved && ready) {
      try {
        ready_.push_back(std::move(*ready));
        continue;
      } catch (...) {
        failure = std::current_exception();
      }
    }
    lock.unlock();
    ready.reset();  // the buffer goes back before the partition is reported: its job may be the last
    if (stopped != Outcome::proved) complete_stopped(t, stopped);
    else complete_failed(t, failed_stage, failure);
  }
}

template <class E>
void Engine<E>::worker_loop(unsigned index) {
  for (;;) {
    std::optional<Ready> r;
    Outcome stopped;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [&] { return stopping_ || (!retired_[index] && !ready_.empty()); });
      if (stopping_) return;
      r.emplace(std::move(ready_.front()));
      ready_.pop_front();
      stopped = r->task.batch->stopped();
      if (stopped == Outcome::proved) ++proving_;
    }
    Task t = r->task;
    if (stopped != Outcome::proved) {
      r.reset();  // the buffer goes back before the partition is reported
      complete_stopped(t, stopped);
      continue;
    }
    std::optional<groth16::PendingProof<E>> proof;
    std::exception_ptr failure;
    try {
      WorkItem<E> item{t.batch->key, t.batch->id, t.partition, std::move(r->host)};
      r.reset();
      proof = backend_->prove(index, item, recorder_);
      t.times.proved = recorder_.now();
    } catch (const DeviceFault&) {
      after_fault(index, std::move(t), std::current_exception());
      continue;
    } catch (...) {
      failure = std::current_exception();
    }
    std::unique_lock lock(mu_);
    --proving_;
    work_.notify_all();
    if (proof) {
      try {
        pending_.push_back({t, std::move(*proof)});
        continue;
      } catch (...) {
        failure = std::current_exception();
      }
    }
    lock.unlock();
    complete_failed(t, "prove", failure);
  }
}

template <class E>
void Engine<E>::after_fault(unsigned worker, Task t, std::exception_ptr fault) {
  std::deque<Task> unproved;
  std::deque<Ready> unready;
  {
    std::lock_guard lock(mu_);
    --proving_;
    if (!backend_->worker_usable(worker)) retired_[worker] = true;
    if (any_worker_left()) {
      t.times.synthesis_start = t.times.synthesized = 0;
      tasks_.push_front(std::move(t));  // first in line: it has waited longest
      work_.notify_all();
      return;
    }
    // No worker is left: nothing queued can be proved until one is readmitted.
    no_workers_ = fault;
    unproved.swap(tasks_);
    unready.swap(ready_);
    work_.notify_all();
  }
  complete_failed(t, "prove", fault);
  for (Task& u : unproved) complete_failed(u, "prove", fault);
  for (Ready& u : unready) {
    u.host.release();
    complete_failed(u.task, "prove", fault);
  }
}

template <class E>
void Engine<E>::readmit_workers() {
  std::lock_guard lock(mu_);
  for (unsigned w = 0; w < retired_.size(); ++w)
    if (retired_[w] && backend_->worker_usable(w)) retired_[w] = false;
  if (any_worker_left()) no_workers_ = nullptr;
  work_.notify_all();
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
      ++finishing_;
    }
    finish(track, *p);
    std::lock_guard lock(mu_);
    --finishing_;
  }
}

template <class E>
void Engine<E>::finish(const Track& track, Pending& p) {
  const Task& t = p.task;
  if (const Outcome why = t.batch->stopped(); why != Outcome::proved) {
    complete_stopped(t, why, std::move(p.proof.publics));
    return;
  }
  const double start = recorder_.now();
  StageTimes times;
  std::optional<groth16::Proof<E>> proof;
  std::exception_ptr failure;
  try {
    const auto& chosen = t.batch->randomness;
    proof = chosen.empty() ? groth16::prove_finish(*t.batch->key, p.proof, &times)
                           : groth16::prove_finish(*t.batch->key, p.proof, chosen[t.partition], &times);
  } catch (...) {
    failure = std::current_exception();
  }
  constexpr Stage kFinishStages[] = {Stage::finish, Stage::verify};
  record_end_to_end(recorder_, track, t.batch->id, t.partition, start, kFinishStages, times);
  if (failure) complete_failed(t, "finish", failure);
  else complete(*t.batch, t.partition, t.times, std::move(proof), std::move(p.proof.publics), Outcome::proved);
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
  stop_.request_stop();
  for (Task& t : cancelled) complete_stopped(t, Outcome::shut_down);
  for (Ready& r : unproved) {
    r.host.release();  // back to the pool, or the caller, before the job can be reported done
    complete_stopped(r.task, Outcome::shut_down);
  }
}

template class Engine<ec::Bn254>;
template class Engine<ec::Bls12_381>;

}  // namespace cuzk::engine
