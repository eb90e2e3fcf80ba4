#include <algorithm>

#include "service_impl.hpp"

namespace cuzk::service {

namespace {

ErrorKind kind_of(engine::Outcome outcome, const std::exception_ptr& cause) {
  switch (outcome) {
    case engine::Outcome::proved: return ErrorKind::none;
    case engine::Outcome::cancelled: return ErrorKind::cancelled;
    case engine::Outcome::deadline_exceeded: return ErrorKind::deadline_exceeded;
    case engine::Outcome::shut_down: return ErrorKind::cancelled;
    case engine::Outcome::failed: {
      const ErrorKind k = classify(cause);
      return k == ErrorKind::none ? ErrorKind::internal : k;
    }
  }
  return ErrorKind::internal;
}

// A failure's message is its cause's own (the readers and the prover name the
// files and what is wrong); a stop's is the engine's.
template <class E>
PartitionOutcome outcome_of(const engine::PartitionResult<E>& r) {
  PartitionOutcome out;
  out.times = r.times;
  out.error_kind = r.proof ? ErrorKind::none : kind_of(r.outcome, r.cause);
  if (out.ok()) {
    out.proved = Proved<E>{*r.proof, r.publics};
  } else {
    out.error = r.cause ? message_of(r.cause) : r.error;
    out.cause = r.cause;
  }
  return out;
}

}  // namespace

const char* job_state_name(JobState s) {
  switch (s) {
    case JobState::queued: return "queued";
    case JobState::running: return "running";
    case JobState::done: return "done";
  }
  return "done";
}

void PartitionOutcome::rethrow() const {
  if (!cause) throw Error(error_kind, error);
  try {
    std::rethrow_exception(cause);
  } catch (...) {
    std::throw_with_nested(Error(error_kind, error));
  }
}

size_t JobOutcome::failed() const {
  return (size_t)std::count_if(partitions.begin(), partitions.end(), [](const auto& p) { return !p.ok(); });
}

template <class E>
JobId Service::Impl::submit(const KeyRef& key, const groth16::SharedKey<E>& prepared, std::vector<PartitionInput> inputs,
             SubmitOptions so) {
  if (inputs.empty()) throw Error(ErrorKind::invalid_argument, "a job needs at least one partition");
  auto job = std::make_shared<Job>();
  job->key = key;
  job->options = so;
  job->submitted = Clock::now();
  job->outcomes.resize(inputs.size());
  // Admission by count first, before any witness is read.
  const size_t n = inputs.size();
  admit(n, 0);
  std::vector<engine::Synthesize<E>> sources;
  std::vector<groth16::Randomness<typename E::Fr>> randomness;
  try {
    for (auto& in : inputs) {
      auto source = as_error(
          [&] { return detail::make_source<E>(std::move(in), prepared, key->info.source, options, key->shapes); });
      if (source.randomness ? randomness.size() != sources.size() : !randomness.empty())
        throw Error(ErrorKind::invalid_argument, "either every partition of a job gives its r and s or none does");
      if (source.randomness) randomness.push_back(*source.randomness);
      job->bytes += source.bytes;
      sources.push_back(std::move(source.synthesize).starting_with([job] {
        job->started.store(true, std::memory_order_relaxed);
      }));
    }
    inputs.clear();
    admit(0, job->bytes);
  } catch (...) {
    release(n, 0);
    throw;
  }
  engine::JobOptions eo;
  eo.cancel = job->cancel.get_token();
  eo.deadline = so.deadline;
  eo.priority = so.priority;
  {
    std::lock_guard lock(mu);
    job->id = next_job++;
    jobs[job->id] = job;
    ++counters.jobs_submitted;
  }
  // add() made the engine with the key's curve.
  engine::Engine<E>& eng = *existing_engine<E>();
  try {
    eng.submit(
        prepared, std::move(sources), eo,
        [this, job](const engine::PartitionResult<E>& r) { partition_done(*job, r); }, std::move(randomness));
  } catch (...) {
    std::lock_guard lock(mu);
    jobs.erase(job->id);
    release_locked(n, job->bytes);
    throw Error(ErrorKind::unavailable, "the service is shutting down");
  }
  return job->id;
}

void Service::Impl::admit(size_t partitions, size_t bytes) {
  std::lock_guard lock(mu);
  if (draining) {
    ++counters.jobs_rejected;
    throw Error(ErrorKind::unavailable, "the service is draining and takes no new jobs");
  }
  if (pending_partitions + partitions > options.max_pending_partitions) {
    ++counters.jobs_rejected;
    throw Error(ErrorKind::resource_exhausted,
                "too many partitions pending: " + std::to_string(pending_partitions) + " queued or running, " +
                    std::to_string(partitions) + " more asked, at most " +
                    std::to_string(options.max_pending_partitions) + "; retry later");
  }
  if (pending_bytes + bytes > options.max_pending_bytes) {
    ++counters.jobs_rejected;
    throw Error(ErrorKind::resource_exhausted,
                "too many witness bytes pending: " + std::to_string(pending_bytes) + " held, " +
                    std::to_string(bytes) + " more asked, at most " + std::to_string(options.max_pending_bytes) +
                    "; retry later");
  }
  pending_partitions += partitions;
  pending_bytes += bytes;
}

void Service::Impl::release(size_t partitions, size_t bytes) {
  std::lock_guard lock(mu);
  release_locked(partitions, bytes);
}

void Service::Impl::release_locked(size_t partitions, size_t bytes) {
  pending_partitions -= std::min(pending_partitions, partitions);
  pending_bytes -= std::min(pending_bytes, bytes);
  changed.notify_all();
}

template <class E>
void Service::Impl::partition_done(Job& job, const engine::PartitionResult<E>& r) {
  PartitionOutcome out = outcome_of(r);
  std::vector<PartitionObserver> observers_now;
  {
    std::lock_guard lock(mu);
    observers_now = observers;
  }
  const PartitionEvent event{job.id, r.partition, job.key->info.id, E::id, out};
  for (const auto& observe : observers_now) observe(event);
  std::unique_lock lock(mu);
  if (out.ok()) ++counters.partitions_proved;
  else ++counters.partitions_failed[(size_t)out.error_kind], ++job.failed;
  job.outcomes[r.partition] = std::move(out);
  ++job.done;
  release_locked(1, job.finished() ? job.bytes : 0);
  if (job.finished()) {
    finished.push_back(job.id);
    forget_oldest_unawaited();
    lock.unlock();
    if (job.options.on_finished) job.options.on_finished(job.id);
  }
}

// Beyond max_unawaited_jobs finished jobs, the oldest go.
void Service::Impl::forget_oldest_unawaited() {
  while (finished.size() > options.max_unawaited_jobs) {
    jobs.erase(finished.front());
    finished.pop_front();
  }
}

std::optional<JobOutcome> Service::Impl::await(JobId id, std::optional<Clock::duration> timeout) {
  std::unique_lock lock(mu);
  const auto it = jobs.find(id);
  if (it == jobs.end()) throw Error(ErrorKind::not_found, "no job " + std::to_string(id) + " (unknown, or already awaited)");
  const std::shared_ptr<Job> job = it->second;
  const auto done = [&] { return job->finished(); };
  if (timeout) {
    if (!changed.wait_for(lock, *timeout, done)) return std::nullopt;
  } else {
    changed.wait(lock, done);
  }
  if (jobs.erase(id) == 0)  // another await took it meanwhile
    throw Error(ErrorKind::not_found, "no job " + std::to_string(id) + " (unknown, or already awaited)");
  finished.erase(std::remove(finished.begin(), finished.end(), id), finished.end());
  changed.notify_all();  // for wait_until_collected
  return JobOutcome{id, job->key->info.id, job->key->info.curve, std::move(job->outcomes)};
}

bool Service::Impl::cancel(JobId id) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(mu);
    const auto it = jobs.find(id);
    if (it == jobs.end()) return false;
    job = it->second;
  }
  job->cancel.request_stop();
  purge_stopped();
  return true;
}

void Service::Impl::drain() {
  std::unique_lock lock(mu);
  draining = true;
  changed.wait(lock, [&] {
    return std::all_of(jobs.begin(), jobs.end(), [](const auto& j) { return j.second->finished(); });
  });
}

JobId Service::submit(const std::string& key_id, std::vector<PartitionInput> partitions, SubmitOptions options) {
  const KeyRef key = impl_->find_key(key_id);
  return std::visit(
      [&](const auto& prepared) { return impl_->submit(key, prepared, std::move(partitions), std::move(options)); },
      key->prepared);
}

std::optional<JobOutcome> Service::await(JobId id, std::optional<Clock::duration> timeout) {
  return impl_->await(id, timeout);
}

bool Service::cancel(JobId id) { return impl_->cancel(id); }

void Service::drain() { impl_->drain(); }

size_t Service::wait_until_collected(Clock::time_point until) {
  std::unique_lock lock(impl_->mu);
  impl_->changed.wait_until(lock, until, [&] { return impl_->jobs.empty(); });
  return impl_->jobs.size();
}

}  // namespace cuzk::service
