#include <algorithm>
#include <sstream>
#include <unistd.h>

#include "cuzk/util/stoppable_sleep.hpp"
#include "service_impl.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/engine/cuda_backend.hpp"
#include "cuzk/service/selfcheck.hpp"
#endif

namespace cuzk::service {

size_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
}

Service::Impl::Impl(ServiceOptions o)
    : options(std::move(o)),
      where(resolve_placement(options.placement)),
      recorder(options.record_timing_lines, options.spans_kept, options.record_spans) {
  if (options.max_pending_bytes == 0) options.max_pending_bytes = physical_memory() / 4;
  pool = std::make_shared<engine::BufferPool>(host_memory(), options.host_budget);
  housekeeping = std::jthread([this](std::stop_token stop) { keep_house(stop); });
}

// Every 100 ms: partitions queued in jobs past their deadline are reported
// (not only when a synthesis thread reaches them), and faulted GPUs are
// brought back when due.
void Service::Impl::keep_house(std::stop_token stop) {
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
void Service::Impl::recover_gpus() {
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
bool Service::Impl::gpu_self_check() {
  return selfcheck_device(fresh_seed(), size_t(1) << 14, [](const std::string&, bool) {}) == 0;
}
#endif

std::unique_ptr<engine::HostMemory> Service::Impl::host_memory() const {
#if defined(CUZK_HAVE_CUDA)
  if (where.backend == BackendKind::cuda && !options.pageable) return engine::pinned_memory();
#endif
  return engine::pageable_memory();
}

template <class E>
std::unique_ptr<engine::Backend<E>> make_backend(const Placement& where, const ServiceOptions& options) {
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

template std::unique_ptr<engine::Backend<Bn254>> make_backend(const Placement&, const ServiceOptions&);
template std::unique_ptr<engine::Backend<Bls12_381>> make_backend(const Placement&, const ServiceOptions&);

// The engine of E's keys, made with the first of them.
template <class E>
engine::Engine<E>& Service::Impl::engine_for(const groth16::PreparedKey<E>& key) {
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
Service::Impl::Side<E>& Service::Impl::start_engine() {
  Side<E>& s = side<E>();
  if (!s.engine) {
    engine::EngineOptions eo;
    eo.synthesis_threads = options.synthesis_threads;
    eo.finalizer_threads = options.finalizer_threads;
    s.engine = std::make_unique<engine::Engine<E>>(eo, recorder, make_backend<E>(where, options), pool);
  }
  return s;
}

// The engine of the key in `path` started beside its reading: the curve is
// in the header, which is read first (a key whose header does not read
// starts nothing here, and its reading reports why).
std::future<void> Service::Impl::start_engine_for(const std::filesystem::path& path) {
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

void Service::Impl::purge_stopped() {
  if (auto* e = existing_engine<Bn254>()) e->purge_stopped();
  if (auto* e = existing_engine<Bls12_381>()) e->purge_stopped();
}

Status Service::Impl::status() {
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
      g.counters.merge(r.counters);
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
  s.keys = key_list();
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
    j.owner = job->options.owner;
    j.priority = job->options.priority;
    j.partitions = job->outcomes.size();
    j.done = job->done, j.failed = job->failed;
    j.state = job->finished() ? JobState::done
              : (job->done || job->started.load(std::memory_order_relaxed)) ? JobState::running
                                                                              : JobState::queued;
    j.age = std::chrono::duration<double>(now - job->submitted).count();
    s.jobs.push_back(std::move(j));
  }
  s.key_bytes = key_bytes_locked(), s.max_key_bytes = options.max_key_bytes;
  return s;
}

template engine::Engine<Bn254>& Service::Impl::engine_for(const groth16::PreparedKey<Bn254>&);
template engine::Engine<Bls12_381>& Service::Impl::engine_for(const groth16::PreparedKey<Bls12_381>&);

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

Status Service::status() const { return impl_->status(); }

std::optional<std::string> Service::owner(JobId id) const {
  std::lock_guard lock(impl_->mu);
  const auto it = impl_->jobs.find(id);
  if (it == impl_->jobs.end()) return std::nullopt;
  return it->second->options.owner;
}

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

}  // namespace cuzk::service
