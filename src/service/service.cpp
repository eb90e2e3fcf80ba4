#include "cuzk/service/service.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/trace.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/zkey.hpp"
#include "cuzk/util/stoppable_sleep.hpp"
#include "cuzk/util/timing.hpp"
#include "sources.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/engine/cuda_backend.hpp"
#include "cuzk/service/selfcheck.hpp"
#endif

namespace cuzk::service {

namespace {

using ec::Bls12_381;
using ec::Bn254;
using AnyKey = std::variant<groth16::SharedKey<Bn254>, groth16::SharedKey<Bls12_381>>;

// The curve E of a ProvingKey<E> or PreparedKey<E>.
template <class T>
struct CurveOf;
template <template <class> class K, class E>
struct CurveOf<K<E>> {
  using type = E;
};
template <class T>
using curve_of = typename CurveOf<std::decay_t<T>>::type;

struct Key {
  KeyInfo info;
  AnyKey prepared;
  mutable detail::NativeShapes shapes;
};
using KeyRef = std::shared_ptr<const Key>;

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

StageTimes stage_times(const engine::PartitionTimes& t) {
  // A stage never reached leaves its time 0: it then took no time.
  const auto span = [](double from, double to) { return from > 0 && to >= from ? to - from : 0.0; };
  StageTimes s;
  s.queue = span(t.submitted, t.synthesis_start);
  s.synthesis = span(t.synthesis_start, t.synthesized);
  s.prove = span(t.synthesized, t.proved);
  s.finish = span(t.proved, t.done);
  s.total = span(t.submitted, t.done);
  return s;
}

// A failure's message is its cause's own (the readers and the prover name the
// files and what is wrong); a stop's is the engine's.
template <class E>
PartitionOutcome outcome_of(const engine::PartitionResult<E>& r) {
  PartitionOutcome out;
  out.times = stage_times(r.times);
  out.error_kind = r.proof ? ErrorKind::none : kind_of(r.outcome, r.cause);
  if (out.ok()) {
    out.proved = Proved<E>{*r.proof, r.publics};
  } else {
    out.error = r.cause ? message_of(r.cause) : r.error;
    out.cause = r.cause;
  }
  return out;
}

size_t default_pending_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? size_t(pages) * size_t(page) / 4 : size_t(4) << 30;
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

struct Service::Impl {
  struct Job {
    JobId id = 0;
    KeyRef key;
    SubmitOptions options;
    Clock::time_point submitted;
    size_t bytes = 0;
    std::stop_source cancel;
    std::atomic<bool> started{false};
    // Guarded by Impl::mu.
    std::vector<PartitionOutcome> outcomes;
    size_t done = 0, failed = 0;
    bool finished() const { return done == outcomes.size(); }
  };

  template <class E>
  struct Side {
    std::unique_ptr<engine::Engine<E>> engine;
  };

  explicit Impl(ServiceOptions o)
      : options(std::move(o)),
        where(resolve_placement(options.placement)),
        recorder(options.record_timing_lines, options.spans_kept) {
    if (options.max_pending_bytes == 0) options.max_pending_bytes = default_pending_bytes();
    pool = std::make_shared<engine::BufferPool>(host_memory(), options.host_budget);
    housekeeping = std::jthread([this](std::stop_token stop) { keep_house(stop); });
  }

  // Every 100 ms: partitions queued in jobs past their deadline are reported
  // (not only when a synthesis thread reaches them), and faulted GPUs are
  // brought back when due.
  void keep_house(std::stop_token stop) {
    while (sleep_unless_stopped(stop, std::chrono::milliseconds(100))) {
      purge_stopped();
#if defined(CUZK_HAVE_CUDA)
      if (where.backend == BackendKind::cuda && options.gpu_recovery_interval.count() > 0) recover_gpus();
#endif
    }
  }

#if defined(CUZK_HAVE_CUDA)
  // A GPU seen faulted is reset and self-checked gpu_recovery_interval later
  // (engine::recover_gpu), and again at that interval until it passes; then
  // the engines take its workers back.
  void recover_gpus() {
    for (int d : where.gpus) {
      if (!engine::gpu_faulted(d)) continue;
      const auto now = Clock::now();
      auto due = recovery_due.try_emplace(d, now + options.gpu_recovery_interval).first;
      if (now < due->second) continue;
      std::string why;
      const bool back = engine::recover_gpu(d, [] { return gpu_self_check(); }, &why);
      {
        std::lock_guard l(mu);
        recovery_errors[d] = back ? "" : why;
      }
      if (back) {
        recovery_due.erase(due);
        each_engine([](auto& e) { e.readmit_workers(); });
      } else {
        due->second = Clock::now() + options.gpu_recovery_interval;
      }
    }
  }

  // The arithmetic self-check on the current GPU, from a fresh seed.
  static bool gpu_self_check() {
    return selfcheck_device(fresh_seed(), size_t(1) << 14, [](const std::string&, bool) {}) == 0;
  }
#endif

  std::unique_ptr<engine::HostMemory> host_memory() const {
#if defined(CUZK_HAVE_CUDA)
    if (where.backend == BackendKind::cuda && !options.pageable) return engine::pinned_memory();
#endif
    return engine::pageable_memory();
  }

  template <class E>
  std::unique_ptr<engine::Backend<E>> make_backend() const {
    [[maybe_unused]] const bool on_gpu = abc_on_gpu(where, options.abc, true);
#if defined(CUZK_HAVE_CUDA)
    if (where.backend == BackendKind::cuda) {
      engine::CudaBackendOptions c;
      c.gpus = where.gpus;
      c.workers_per_gpu = options.workers_per_gpu;
      c.abc_on_gpu = on_gpu;
      c.key_budget = options.key_budget;
      return engine::cuda_backend<E>(c);
    }
#endif
    if (options.pageable)
      throw Error(ErrorKind::invalid_argument,
                  "--pageable compares against pinned buffers, which need the cuda backend");
    return engine::cpu_backend<E>(options.cpu_workers, options.threads);
  }

  template <class E>
  Side<E>& side() {
    if constexpr (std::is_same_v<E, Bn254>) return bn;
    else return bls;
  }

  // The engine of E's keys, made with the first of them.
  template <class E>
  engine::Engine<E>& engine_for(const groth16::PreparedKey<E>& key) {
    std::lock_guard lock(engines_mu);
    Side<E>& s = start_engine<E>();
    if (options.host_budget == 0)
      pool->raise_budget(engine::host_budget_for(key, options.synthesis_threads, s.engine->backend().workers(),
                                                 s.engine->backend().abc_on_gpu()));
    return *s.engine;
  }

  // The curve's engine, made on first use (on a GPU: its context, streams and
  // workers, a tenth of a second or more). engines_mu held.
  template <class E>
  Side<E>& start_engine() {
    Side<E>& s = side<E>();
    if (!s.engine) {
      engine::EngineOptions eo;
      eo.synthesis_threads = options.synthesis_threads;
      eo.finalizer_threads = options.finalizer_threads;
      s.engine = std::make_unique<engine::Engine<E>>(eo, recorder, make_backend<E>(), pool);
    }
    return s;
  }

  // The engine of the key in `path` started beside its reading: the curve is
  // in the header, which is read first (a key whose header does not read
  // starts nothing here, and its reading reports why).
  std::future<void> start_engine_for(const std::filesystem::path& path) {
    io::ZkeyHeader h;
    try {
      h = io::read_zkey_header(path);
    } catch (const io::FormatError&) {
      return {};
    }
    return std::async(std::launch::async, [this, curve = h.curve] {
      std::lock_guard lock(engines_mu);
      if (curve == ec::Curve::bn254)
        start_engine<Bn254>();
      else
        start_engine<Bls12_381>();
    });
  }

  template <class E>
  engine::Engine<E>* existing_engine() {
    std::lock_guard lock(engines_mu);
    return side<E>().engine.get();
  }

  template <class E>
  KeyInfo add(std::string id, groth16::SharedKey<E> prepared, std::string source, uint64_t host_bytes) {
    if (id.empty()) throw Error(ErrorKind::invalid_argument, "a key needs an id");
    engine::report_stage("start engine", timed([&] { engine_for<E>(*prepared); }));
    auto key = std::make_shared<Key>();
    const auto& k = prepared->key();
    key->info = {id, std::move(source), E::id, k.n_vars(), k.n_public(), k.domain_size(), host_bytes, 0};
    key->prepared = std::move(prepared);
    KeyRef replaced;
    {
      std::lock_guard lock(mu);
      check_room_locked(id);
      auto& slot = keys[id];
      replaced = std::move(slot);
      slot = key;
    }
    if (replaced) forget(*replaced);
    return key->info;
  }

  // A new id past ServiceOptions::max_keys is refused (a replacement is not
  // a new key).
  void check_room_locked(const std::string& id) const {
    if (options.max_keys && keys.size() >= options.max_keys && !keys.count(id))
      throw Error(ErrorKind::resource_exhausted, "key " + id + ": " + std::to_string(keys.size()) +
                                                     " keys are loaded, the most this service holds (max_keys); evict one first");
  }
  void check_room(const std::string& id) const {
    std::lock_guard lock(mu);
    check_room_locked(id);
  }

  KeyInfo load(const io::Zkey& zkey, std::string id, std::string source, uint64_t host_bytes) {
    return zkey.visit([&](const auto& pk) {
      using E = curve_of<decltype(pk)>;
      groth16::SharedKey<E> prepared;
      engine::report_stage("prepare key", timed([&] { prepared = groth16::PreparedKey<E>::make(zkey.share<E>()); }));
      return add<E>(std::move(id), std::move(prepared), std::move(source), host_bytes);
    });
  }

  // Drops the engines' copies of a key that left the registry; jobs using it
  // keep theirs.
  void forget(const Key& key) {
    std::visit(
        [&](const auto& prepared) {
          using E = curve_of<decltype(*prepared)>;
          if (auto* e = existing_engine<E>()) e->forget(*prepared);
        },
        key.prepared);
  }

  KeyRef find_key(const std::string& id) {
    std::lock_guard lock(mu);
    const auto it = keys.find(id);
    if (it == keys.end()) throw Error(ErrorKind::not_found, "no key " + id + " is loaded");
    return it->second;
  }

  template <class E>
  JobId submit(const KeyRef& key, const groth16::SharedKey<E>& prepared, std::vector<PartitionInput> inputs,
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
        sources.push_back([job, synthesize = std::move(source.synthesize)](auto w, auto a, auto b, auto c) {
          job->started.store(true, std::memory_order_relaxed);
          synthesize(w, a, b, c);
        });
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
      // The outcomes arrive through the callback; the future is not needed.
      (void)eng.submit(
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

  void admit(size_t partitions, size_t bytes) {
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

  void release(size_t partitions, size_t bytes) {
    std::lock_guard lock(mu);
    release_locked(partitions, bytes);
  }
  void release_locked(size_t partitions, size_t bytes) {
    pending_partitions -= std::min(pending_partitions, partitions);
    pending_bytes -= std::min(pending_bytes, bytes);
    changed.notify_all();
  }

  template <class E>
  void partition_done(Job& job, const engine::PartitionResult<E>& r) {
    PartitionOutcome out = outcome_of(r);
    std::vector<PartitionObserver> observers_now;
    {
      std::lock_guard lock(mu);
      observers_now = observers;
    }
    for (const auto& observe : observers_now) observe(job.key->info.id, E::id, out);
    std::lock_guard lock(mu);
    if (out.ok()) ++counters.partitions_proved;
    else ++counters.partitions_failed[(size_t)out.error_kind], ++job.failed;
    job.outcomes[r.partition] = std::move(out);
    ++job.done;
    release_locked(1, job.finished() ? job.bytes : 0);
    if (job.finished()) {
      finished.push_back(job.id);
      forget_oldest_unawaited();
    }
  }

  // Beyond max_unawaited_jobs finished jobs, the oldest go.
  void forget_oldest_unawaited() {
    while (finished.size() > options.max_unawaited_jobs) {
      jobs.erase(finished.front());
      finished.pop_front();
    }
  }

  std::optional<JobOutcome> await(JobId id, std::optional<Clock::duration> timeout) {
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
    return JobOutcome{id, job->key->info.id, job->key->info.curve, std::move(job->outcomes)};
  }

  bool cancel(JobId id) {
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

  void purge_stopped() {
    if (auto* e = existing_engine<Bn254>()) e->purge_stopped();
    if (auto* e = existing_engine<Bls12_381>()) e->purge_stopped();
  }

  void drain() {
    std::unique_lock lock(mu);
    draining = true;
    changed.wait(lock, [&] {
      return std::all_of(jobs.begin(), jobs.end(), [](const auto& j) { return j.second->finished(); });
    });
  }

  template <class F>
  void each_engine(F&& f) {
    std::lock_guard lock(engines_mu);
    if (bn.engine) f(*bn.engine);
    if (bls.engine) f(*bls.engine);
  }

  Status status() {
    Status s;
    s.backend = backend_name(where.backend);
    std::map<int, GpuStatus> gpus;
    each_engine([&](auto& e) {
      const auto d = e.depths();
      s.queued_partitions += d.queued;
      s.running_partitions += d.synthesizing + d.ready + d.proving + d.finishing;
      for (const auto& r : e.backend().gpu_reports()) {
        GpuStatus& g = gpus[r.device];
        g.device = r.device;
        g.healthy = g.healthy && r.healthy;
        if (!r.healthy) g.fault = r.fault;
        g.faults = r.faults, g.recoveries = r.recoveries;  // the GPU's, whichever engine reports them
        g.key_cache_bytes += r.key_bytes, g.key_budget = std::max<uint64_t>(g.key_budget, r.key_budget);
        g.key_uploads += r.key_uploads, g.key_hits += r.key_hits, g.key_evictions += r.key_evictions;
      }
    });
    for (int d : where.gpus) {
      GpuStatus& g = gpus[d];
      g.device = d;
      g.name = gpu_label(d);
    }
    for (auto& [_, g] : gpus) s.gpus.push_back(std::move(g));
    const auto pc = pool->counters();
    s.host_pool_bytes = pc.bytes_held, s.host_pool_budget = pool->budget();
    s.host_pool_allocations = pc.allocations, s.host_pool_waits = pc.waits;
    std::lock_guard lock(mu);
    for (auto& g : s.gpus)
      if (!g.healthy) g.recovery_error = recovery_errors[g.device];
    s.draining = draining;
    s.pending_bytes = pending_bytes;
    const auto now = Clock::now();
    for (const auto& [id, job] : jobs) {
      JobStatus j;
      j.id = id;
      j.key = job->key->info.id;
      j.label = job->options.label;
      j.priority = job->options.priority;
      j.partitions = job->outcomes.size();
      j.done = job->done, j.failed = job->failed;
      j.state = job->finished() ? JobState::done
                : (job->done || job->started.load(std::memory_order_relaxed)) ? JobState::running
                                                                                : JobState::queued;
      j.age = std::chrono::duration<double>(now - job->submitted).count();
      s.jobs.push_back(std::move(j));
    }
    s.keys = keys_locked();
    return s;
  }

  std::vector<KeyInfo> keys_locked() const {
    std::vector<KeyInfo> out;
    for (const auto& [id, key] : keys) {
      KeyInfo info = key->info;
      info.jobs = (uint64_t)std::count_if(jobs.begin(), jobs.end(), [&](const auto& j) {
        return j.second->key == key && !j.second->finished();
      });
      out.push_back(std::move(info));
    }
    return out;
  }

  ServiceOptions options;
  const Placement where;
  engine::Recorder recorder;
  std::shared_ptr<engine::BufferPool> pool;
  std::mutex engines_mu;  // the engines are made on first use
  Side<Bn254> bn;
  Side<Bls12_381> bls;

  mutable std::mutex mu;
  std::condition_variable changed;  // a job finished, or admission bounds freed
  std::map<std::string, KeyRef> keys;
  std::map<JobId, std::shared_ptr<Job>> jobs;
  std::deque<JobId> finished;  // finished jobs not yet awaited, oldest first
  JobId next_job = 1;
  size_t pending_partitions = 0, pending_bytes = 0;
  bool draining = false;
  Counters counters;
  std::vector<PartitionObserver> observers;
  std::map<int, std::string> recovery_errors;         // per GPU, the last failed recovery's reason
  std::map<int, Clock::time_point> recovery_due;      // per faulted GPU; keep_house's own
  std::jthread housekeeping;                          // keep_house
};

Service::Service(ServiceOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Service::~Service() {
  drain();
  impl_->housekeeping = {};  // stops and joins it: it calls into the engines
  // The engines stop (and join their threads) before the registry they call back into goes.
  std::lock_guard lock(impl_->engines_mu);
  impl_->bn.engine.reset();
  impl_->bls.engine.reset();
}

const ServiceOptions& Service::options() const { return impl_->options; }
const Placement& Service::placement() const { return impl_->where; }

KeyInfo Service::load_key(const std::filesystem::path& path, std::string id, PathFrom from) {
  const auto& o = impl_->options;
  if (id.empty()) id = path.stem().string();
  impl_->check_room(id);  // before the file is read
  const FileDescriptor fd =
      from == PathFrom::client ? open_allowed(path, o.key_dirs, o.any_path_without_dirs, "key")
                               : open_allowed(path, {}, true, "key");
  const auto residency = o.key_storage == KeyStorage::copy ? io::Residency::copy : io::Residency::map;
  std::future<void> starting = impl_->start_engine_for(path);
  const io::Zkey zkey = as_error([&] {
    const auto t0 = std::chrono::steady_clock::now();
    io::Zkey opened = io::Zkey::open_fd(fd.get(), path.string(), residency);
    engine::report_stage("open zkey", seconds_since(t0));
    return opened;
  });
  struct stat st {};
  const uint64_t bytes = o.key_storage == KeyStorage::copy && ::fstat(fd.get(), &st) == 0 ? (uint64_t)st.st_size : 0;
  return as_error([&] { return impl_->load(zkey, std::move(id), path.string(), bytes); });
}

KeyInfo Service::load_key_bytes(std::vector<uint8_t> bytes, std::string name, std::string id) {
  if (id.empty()) id = name;
  impl_->check_room(id);
  const uint64_t size = bytes.size();
  const io::Zkey zkey = as_error([&] { return io::Zkey::from_bytes(name, bytes); });
  bytes = {};  // from_bytes made its own copy
  return as_error([&] { return impl_->load(zkey, std::move(id), "<bytes> " + name, size); });
}

KeyInfo Service::add_key(std::string id, groth16::SharedKey<Bn254> key, std::string source) {
  return impl_->add<Bn254>(std::move(id), std::move(key), std::move(source), 0);
}
KeyInfo Service::add_key(std::string id, groth16::SharedKey<Bls12_381> key, std::string source) {
  return impl_->add<Bls12_381>(std::move(id), std::move(key), std::move(source), 0);
}

bool Service::evict(const std::string& id) {
  KeyRef key;
  {
    std::lock_guard lock(impl_->mu);
    const auto it = impl_->keys.find(id);
    if (it == impl_->keys.end()) return false;
    key = std::move(it->second);
    impl_->keys.erase(it);
  }
  impl_->forget(*key);
  return true;
}

std::vector<KeyInfo> Service::keys() const {
  std::lock_guard lock(impl_->mu);
  return impl_->keys_locked();
}

nlohmann::ordered_json Service::verifying_key(const std::string& id) const {
  const KeyRef key = impl_->find_key(id);
  return std::visit([](const auto& prepared) { return io::vk_to_json(prepared->vk()); }, key->prepared);
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

Status Service::status() const { return impl_->status(); }

Counters Service::counters() const {
  Counters c;
  {
    std::lock_guard lock(impl_->mu);
    c = impl_->counters;
  }
  c.stages = impl_->recorder.totals();
  return c;
}

std::vector<engine::Span> Service::spans() const { return impl_->recorder.spans(); }

std::string Service::describe() const {
  std::vector<std::string> parts;
  impl_->each_engine([&](auto& e) { parts.push_back(e.backend().describe()); });
  std::ostringstream out;
  for (size_t i = 0; i < parts.size(); ++i) out << (i ? "; " : "") << parts[i];
  return out.str();
}

void Service::on_partition(PartitionObserver observer) {
  std::lock_guard lock(impl_->mu);
  impl_->observers.push_back(std::move(observer));
}

void Service::drain() { impl_->drain(); }

}  // namespace cuzk::service
