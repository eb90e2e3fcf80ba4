#include "cuzk/engine/cuda_backend.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/device_key_cache.hpp"
#include "cuzk/util/plural.hpp"

namespace cuzk::engine {

namespace {

namespace gpu = groth16::gpu;

// What one GPU shares across the process: engines of both curves prove on the
// same GPUs, so the kernel lock, the fault and the way back are per GPU, not
// per engine.
class SharedGpu {
 public:
  // A backend's state on this GPU, dropped before a reset and made again after.
  struct Member {
    virtual void drop() = 0;
    virtual void rebuild() = 0;
    // Device bytes its workers' arenas hold, in use or kept for reuse.
    virtual size_t scratch_held() const = 0;
  };

  // Device memory one proof holds from its uploads to its end, released on
  // destruction.
  class ProofMemory {
   public:
    ProofMemory(SharedGpu& gpu, size_t bytes, gpu::AbcSchedule schedule)
        : gpu_(&gpu), bytes_(bytes), schedule_(schedule) {}
    ProofMemory(ProofMemory&& o) noexcept
        : gpu_(std::exchange(o.gpu_, nullptr)), bytes_(o.bytes_), schedule_(o.schedule_) {}
    ProofMemory(const ProofMemory&) = delete;
    ProofMemory& operator=(const ProofMemory&) = delete;
    ~ProofMemory() {
      if (gpu_) gpu_->release_proof_memory(bytes_);
    }
    gpu::AbcSchedule schedule() const { return schedule_; }

   private:
    SharedGpu* gpu_;
    size_t bytes_;
    gpu::AbcSchedule schedule_;
  };

  // Reserves the device memory of one proof before its uploads: `together`
  // bytes where they fit beside the proofs in flight, else `in_turn` (a, b, c
  // one after another, gpu::AbcSchedule), else it waits for a proof to end.
  // A proof alone always proceeds. So the workers of a GPU overlap where two
  // proofs fit and take turns where one does. Memory for proofs is what the
  // device has free plus what the workers' arenas hold. Throws cuda::Error
  // naming the shortfall when not even a proof alone, in turn, fits.
  ProofMemory reserve_proof_memory(size_t together, size_t in_turn) {
    std::unique_lock lock(proof_mu_);
    for (;;) {
      size_t capacity = cuda::free_device_memory();
      {
        std::lock_guard members(members_mu_);
        for (const Member* m : members_) capacity += m->scratch_held();
      }
      if (in_turn > capacity)
        throw cuda::Error(
            "GPU " + std::to_string(device_) + ": a proof of this key needs " + std::to_string(in_turn >> 20) +
            " MiB of device memory beside the key, and the GPU has " + std::to_string(capacity >> 20) +
            " MiB for proofs" + (cuda::memory_limit() ? " under --gpu-memory" : "") + ": " +
            std::to_string((in_turn - capacity) >> 20) + " MiB short");
      const size_t room = proofs_ ? capacity - std::min(capacity, proof_reserved_) : capacity;
      const auto schedule = together <= room ? gpu::AbcSchedule::together
                            : in_turn <= room ? gpu::AbcSchedule::in_turn
                                              : std::optional<gpu::AbcSchedule>{};
      if (schedule) {
        const size_t bytes = *schedule == gpu::AbcSchedule::together ? together : in_turn;
        proof_reserved_ += bytes, ++proofs_;
        return ProofMemory(*this, bytes, *schedule);
      }
      proof_memory_freed_.wait(lock);
    }
  }

  explicit SharedGpu(int device) : device_(device) {}

  std::mutex kernel;        // the kernel region: a proof's kernels run alone on the GPU
  std::shared_mutex gate;   // shared by each proof on the GPU, exclusive during a recovery

  // The GPU's key budget, of `bytes` as the first backend on it asks: the
  // caches of both curves share it.
  std::shared_ptr<DeviceKeyBudget> key_budget(size_t bytes) {
    std::lock_guard l(mu_);
    if (!key_budget_) key_budget_ = std::make_shared<DeviceKeyBudget>(bytes);
    return key_budget_;
  }

  bool faulted() const { return faulted_.load(std::memory_order_acquire); }
  std::string fault_message() const {
    std::lock_guard l(mu_);
    return "GPU " + std::to_string(device_) + " faulted and was taken out of rotation: " + fault_;
  }
  void set_fault(const std::string& what) {
    std::lock_guard l(mu_);
    if (faulted_.load()) return;
    fault_ = what;
    ++faults_;
    faulted_.store(true, std::memory_order_release);
  }
  void report(GpuReport& r) const {
    std::lock_guard l(mu_);
    r.healthy = !faulted_.load();
    r.fault = r.healthy ? "" : fault_;
    r.counters.faults = faults_, r.counters.recoveries = recoveries_;
  }

  void join(Member* m) {
    std::lock_guard l(members_mu_);
    members_.push_back(m);
  }
  void leave(Member* m) {
    std::lock_guard l(members_mu_);
    std::erase(members_, m);
  }

  // With every gate held exclusively (recover_gpu). `sharing` holds the
  // logical GPUs whose CUDA device is this one's (this one among them), all of
  // whose state the reset ends: theirs is dropped and made again too.
  bool recover(const std::vector<SharedGpu*>& sharing, const std::function<bool()>& check, std::string& why) {
    std::vector<std::unique_lock<std::mutex>> held;
    for (SharedGpu* g : sharing) held.emplace_back(g->members_mu_);
    try {
      for (SharedGpu* g : sharing)
        for (Member* m : g->members_) m->drop();
      cuda::reset_device(device_);
      for (SharedGpu* g : sharing) {
        cuda::DeviceScope on(g->device_);
        for (Member* m : g->members_) m->rebuild();
      }
      cuda::DeviceScope on(device_);
      if (!check()) {
        why = "the arithmetic self-check failed after the reset";
        return false;
      }
    } catch (const std::exception& e) {
      why = e.what();
      return false;
    }
    std::lock_guard l(mu_);
    fault_.clear();
    ++recoveries_;
    faulted_.store(false, std::memory_order_release);
    return true;
  }

 private:
  void release_proof_memory(size_t bytes) {
    {
      std::lock_guard lock(proof_mu_);
      proof_reserved_ -= bytes, --proofs_;
    }
    proof_memory_freed_.notify_all();
  }

  const int device_;
  std::mutex proof_mu_;
  std::condition_variable proof_memory_freed_;
  size_t proof_reserved_ = 0;
  unsigned proofs_ = 0;
  mutable std::mutex mu_;
  std::atomic<bool> faulted_{false};
  std::string fault_;
  uint64_t faults_ = 0, recoveries_ = 0;
  std::shared_ptr<DeviceKeyBudget> key_budget_;
  std::mutex members_mu_;  // held over a recovery, so that no backend comes or goes in it
  std::vector<Member*> members_;
};

std::mutex shared_gpus_mu;
std::map<int, SharedGpu> shared_gpus;  // nodes: they never move

SharedGpu& shared_gpu(int device) {
  std::lock_guard lock(shared_gpus_mu);
  return shared_gpus.try_emplace(device, device).first->second;
}

class PinnedMemory final : public HostMemory {
 public:
  void* allocate(size_t bytes) override { return cuda::PinnedAllocator::allocate(bytes); }
  void release(void* p, size_t) override { cuda::PinnedAllocator::release(p); }
  const char* name() const override { return "pinned"; }
};

template <class E>
class CudaBackend final : public Backend<E> {
 public:
  using Residence = typename DeviceKeyCache<E>::Residence;

  explicit CudaBackend(const CudaBackendOptions& o) : options_(o) {
    if (o.gpus.empty() || o.workers_per_gpu == 0)
      throw std::invalid_argument("the GPU backend needs at least one GPU and one worker per GPU");
    for (int d : o.gpus) {
      cuda::check_device_supported(d);
      cuda::DeviceScope on(d);
      // Logical GPUs on one device (runtime.hpp) share its memory.
      const size_t budget =
          o.key_budget ? o.key_budget : cuda::free_device_memory() / 10 * 7 / cuda::devices_sharing(d);
      gpus_.push_back(std::make_unique<Gpu>(d, budget, gpu::DeviceKeyOptions{false, o.stream_chunk, o.abc_on_gpu},
                                            o.workers_per_gpu));
    }
    for (unsigned i = 0; i < o.workers_per_gpu; ++i)
      for (auto& g : gpus_) workers_.push_back(g->workers[i].get());
  }

  unsigned workers() const override { return (unsigned)workers_.size(); }
  bool abc_on_gpu() const override { return options_.abc_on_gpu; }
  bool reads_lent() const override { return true; }
  std::unique_ptr<HostMemory> host_memory() const override { return pinned_memory(); }
  std::string describe() const override {
    std::ostringstream out;
    size_t uploads = 0, streamed = 0;
    out << "GPU ";
    for (size_t i = 0; i < gpus_.size(); ++i) {
      const auto c = gpus_[i]->cache.counters();
      uploads += c.uploads, streamed += c.streamed;
      out << (i ? "," : "") << gpus_[i]->cache.device();
    }
    out << ": " << count(options_.workers_per_gpu, "worker") << " each; a/b/c "
        << (options_.abc_on_gpu ? "on the GPU" : "from the host") << "; " << count(uploads, "key upload") << ", "
        << streamed << " of them streamed";
    return out.str();
  }

  groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) override {
    SharedGpu& shared = workers_[worker]->gpu.shared;
    std::shared_lock in_use(shared.gate);
    if (shared.faulted()) throw DeviceFault(shared.fault_message());
    const int device = workers_[worker]->gpu.cache.device();
    try {
      if (cuda::logical_fault(device))
        throw cuda::Error("GPU " + std::to_string(device) + ": a fault injected into this logical GPU");
      return prove_on(*workers_[worker], item, recorder);
    } catch (const cuda::Error& e) {
      // A sticky error fails every later call on the device, so a second
      // call that fails too tells it from one that was the work's own (no
      // memory for this key, say).
      if (!cuda::device_failed(device)) throw;
      shared.set_fault(e.what());
      throw DeviceFault(shared.fault_message());
    }
  }

  bool worker_usable(unsigned worker) const override { return !workers_[worker]->gpu.shared.faulted(); }

  std::vector<GpuReport> gpu_reports() const override {
    std::vector<GpuReport> out;
    for (const auto& g : gpus_) {
      const auto c = g->cache.counters();
      GpuReport r;
      r.device = g->cache.device();
      g->shared.report(r);
      r.counters.key_cache_bytes = c.bytes, r.counters.key_budget_bytes = g->cache.budget();
      r.counters.key_uploads = c.uploads, r.counters.key_hits = c.hits, r.counters.key_evictions = c.evictions;
      out.push_back(std::move(r));
    }
    return out;
  }

  std::vector<KeyOnGpu> gpus_holding(const groth16::PreparedKey<E>& key) const override {
    std::vector<KeyOnGpu> out;
    for (const auto& g : gpus_)
      if (const auto r = g->cache.residence(key); r && *r != Residence::absent)
        out.push_back({g->cache.device(), *r == Residence::streamed});
    return out;
  }

 private:
  struct Gpu;
  struct GpuWorker;

  groth16::PendingProof<E> prove_on(GpuWorker& s, WorkItem<E>& item, Recorder& recorder) {
    Gpu& g = s.gpu;
    const int device = g.cache.device();
    const Track track{Track::Kind::worker, device, s.index}, copy{Track::Kind::copy, device, s.index};
    cuda::DeviceScope on(device);

    double t = recorder.now();
    bool uploaded = false;
    const auto key = g.cache.acquire(item.key, &uploaded);
    if (uploaded) record_upload(*key, copy, item.job, item.partition, t, recorder);

    // a, b, c from the host, or computed on the GPU from the key's rows
    // (abc_on_gpu_for): per partition, as its inputs come.
    const bool host_abc = item.host.inputs.has_abc();
    const size_t together = gpu::proof_device_bytes(*key, gpu::AbcSchedule::together);
    const auto memory = g.shared.reserve_proof_memory(
        together, host_abc ? gpu::proof_device_bytes(*key, gpu::AbcSchedule::in_turn) : together);
    const double upload_from = recorder.now();
    auto inputs = gpu::upload_inputs<E>(*key, *s.worker, item.host.inputs, memory.schedule());
    const size_t upload_bytes = inputs.bytes();
    const bool abc_in_turn = inputs.host_abc_pending();
    // Once the copies have ended: on the device now, so synthesis may refill
    // the buffer and a caller may reuse its memory; a, b, c going up in turn
    // are read until the proof's end. A pool buffer given back is zeroed by
    // the pool's scrubber, not here.
    const auto inputs_uploaded = [&](double seconds) {
      recorder.record(
          Span{Stage::upload, copy, item.job, item.partition, upload_from, upload_from + seconds, upload_bytes});
      if (!abc_in_turn) item.host.release();
    };
    // The kernels need only w to start: a, b, c, when they go up with it,
    // arrive behind the witness MSMs (the quotient waits for them on the
    // GPU), so a proof that finds the GPU free does not wait for their copies.
    // One that finds it busy waits for them and gives the buffer back before
    // it waits for the lock, so that a pipeline's buffers are not held there.
    inputs.wait_witness();
    t = recorder.now();
    std::unique_lock lock(g.lock, std::try_to_lock);
    const bool copies_waited = !lock.owns_lock();
    if (copies_waited) {
      inputs_uploaded(inputs.wait_uploaded());
      lock.lock();
    }
    const double locked = recorder.now();
    recorder.record(Span{Stage::lock_wait, track, item.job, item.partition, t, locked});
    auto pending = gpu::prove_start<E>(*key, *s.worker, std::move(inputs));
    if (!copies_waited) inputs_uploaded(pending.wait_uploaded());
    StageTimes times;
    auto proof = pending.wait(&times);
    const double done = recorder.now();
    lock.unlock();
    item.host.release();
    recorder.record(Span{Stage::lock_held, track, item.job, item.partition, locked, done});
    // The kernels ran back to back on the worker's stream and ended just
    // before wait() returned: lay them out backwards from there.
    // Without GPU a/b/c, that interval is only the wait for the upload.
    const double kernels = kernel_seconds(times);
    record_end_to_end(recorder, track, item.job, item.partition, std::max(locked, done - kernels),
                      gpu::kGpuKernelStages, times, host_abc ? std::optional(Stage::abc) : std::nullopt);
    return proof;
  }

  void forget(const groth16::PreparedKey<E>& key) override {
    for (auto& g : gpus_) g->cache.forget(key);
  }

  // A key that is not on a GPU yet goes up on a thread of its own, while the
  // job's first witness is read or synthesized (one after the other before:
  // a one-shot BN254 2^22 proof spent 0.18 s reading its witness, then 0.3 s
  // uploading its key). The first worker to need it waits in acquire() (the
  // cache's lock) and finds it there. Where the cache is busy, nothing starts:
  // the worker uploads, as without a prefetch.
  void prefetch(const groth16::SharedKey<E>& key, uint32_t job, Recorder& recorder) override {
    std::lock_guard lock(prefetch_mu_);
    std::erase_if(prefetches_, [](const Prefetch& p) { return p.done->load(); });
    for (auto& g : gpus_) {
      if (g->shared.faulted() || g->cache.residence(*key) != Residence::absent) continue;  // busy: the worker uploads
      auto done = std::make_shared<std::atomic<bool>>(false);
      prefetches_.push_back({done, std::jthread([&g = *g, key, job, &recorder, done] {
                               upload_ahead(g, key, job, recorder);
                               done->store(true);
                             })});
    }
  }

  // A key's upload, begun at `from`: its span, and its parts as timing lines
  // (CUZK_TIMING), what a one-shot proof waits for before its kernels. What
  // the span holds beyond the device key's own parts is the cache's: its plan
  // (the memory free, room made) before the device key was made.
  static void record_upload(const gpu::DeviceKey<E>& key, const Track& track, uint32_t job, uint32_t partition,
                            double from, Recorder& recorder) {
    const double end = recorder.now();
    recorder.record(Span{Stage::key_upload, track, job, partition, from, end, key.bytes()});
    const auto& t = key.upload_times();
    recorder.report_stage("key upload: the cache's plan", end - from - t.total());
    recorder.report_stage("key upload: memory and tables", t.prepare);
    recorder.report_stage("key upload: points read", t.points);
    recorder.report_stage("key upload: points' ring wait", t.points_ring_wait);
    recorder.report_stage("key upload: rows' sort waited", t.sort_wait);
    recorder.report_stage("key upload: rows read", t.rows);
    recorder.report_stage("key upload: copies' tail", t.wait);
  }

  static void upload_ahead(Gpu& g, const groth16::SharedKey<E>& key, uint32_t job, Recorder& recorder) noexcept {
    try {
      std::shared_lock in_use(g.shared.gate);  // no recovery under the upload
      if (g.shared.faulted()) return;
      const int device = g.cache.device();
      cuda::DeviceScope on(device);
      const double t = recorder.now();
      bool uploaded = false;
      const auto dk = g.cache.acquire(key, &uploaded);
      if (uploaded) record_upload(*dk, Track{Track::Kind::copy, device, 0}, job, 0, t, recorder);
    } catch (...) {
      cudaGetLastError();  // the job's worker meets it again, and reports it
    }
  }

  struct GpuWorker {
    GpuWorker(Gpu& g, int i, int device) : gpu(g), index(i), worker(std::in_place, device) {}
    Gpu& gpu;
    int index;
    std::optional<gpu::Worker> worker;  // empty between a recovery's drop and rebuild
  };

  // This backend's state on one GPU: its key cache and workers, which a
  // recovery drops before the reset and makes again after.
  struct Gpu final : SharedGpu::Member {
    Gpu(int device, size_t budget, gpu::DeviceKeyOptions o, unsigned workers)
        : shared(shared_gpu(device)), cache(device, shared.key_budget(budget), o), lock(shared.kernel) {
      for (unsigned i = 0; i < workers; ++i) this->workers.push_back(std::make_unique<GpuWorker>(*this, (int)i, device));
      shared.join(this);
    }
    ~Gpu() { shared.leave(this); }
    void drop() override {
      for (auto& w : workers) w->worker.reset();
      cache.clear();
    }
    void rebuild() override {
      for (auto& w : workers) w->worker.emplace(cache.device());
    }
    size_t scratch_held() const override {
      size_t bytes = 0;
      for (const auto& w : workers)
        if (w->worker) bytes += w->worker->arena().counters().bytes_held;
      return bytes;
    }
    SharedGpu& shared;
    mutable DeviceKeyCache<E> cache;
    std::mutex& lock;  // the kernel region
    std::vector<std::unique_ptr<GpuWorker>> workers;
  };

  CudaBackendOptions options_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  std::vector<GpuWorker*> workers_;  // GPU 0 worker 0, GPU 1 worker 0, ..., GPU 0 worker 1, ...
  // Uploads ahead of need; after gpus_, so that they end (joined) before it goes.
  struct Prefetch {
    std::shared_ptr<std::atomic<bool>> done;
    std::jthread thread;
  };
  std::mutex prefetch_mu_;
  std::vector<Prefetch> prefetches_;
};

}  // namespace

std::unique_ptr<HostMemory> pinned_memory() { return std::make_unique<PinnedMemory>(); }

bool gpu_faulted(int device) { return shared_gpu(device).faulted(); }

bool recover_gpu(int device, const std::function<bool()>& check, std::string* why) {
  static std::mutex one_at_a_time;
  std::lock_guard serial(one_at_a_time);
  SharedGpu& target = shared_gpu(device);
  if (!target.faulted()) return true;
  // Every GPU's proofs end first: the reset unlocks host memory that any GPU
  // may be copying from, until it is locked again.
  std::vector<std::unique_lock<std::shared_mutex>> quiet;
  {
    std::lock_guard lock(shared_gpus_mu);
    for (auto& [_, g] : shared_gpus) quiet.emplace_back(g.gate, std::defer_lock);
  }
  for (auto& l : quiet) l.lock();  // in device order, the map's; only recoveries lock exclusively
  std::vector<SharedGpu*> sharing;
  {
    std::lock_guard lock(shared_gpus_mu);
    for (auto& [d, g] : shared_gpus)
      if (cuda::physical_device(d) == cuda::physical_device(device)) sharing.push_back(&g);
  }
  std::string reason;
  const bool ok = target.recover(sharing, check, reason);
  if (!ok && why) *why = reason;
  return ok;
}

template <class E>
std::unique_ptr<Backend<E>> cuda_backend(const CudaBackendOptions& options) {
  return std::make_unique<CudaBackend<E>>(options);
}

template std::unique_ptr<Backend<ec::Bn254>> cuda_backend(const CudaBackendOptions&);
template std::unique_ptr<Backend<ec::Bls12_381>> cuda_backend(const CudaBackendOptions&);

}  // namespace cuzk::engine
