#include "cuzk/engine/cuda_backend.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/device_key_cache.hpp"
#include "cuzk/util/plural.hpp"

namespace cuzk::engine {

namespace {

namespace gpu = groth16::cuda;

// The kernel region's lock of one GPU, one per GPU for the whole process:
// engines of both curves prove on the same GPUs, and a proof's kernels run
// alone on its GPU whichever engine sent them.
std::mutex& kernel_lock(int device) {
  static std::mutex mu;
  static std::map<int, std::mutex> locks;  // nodes: the mutexes never move
  std::lock_guard lock(mu);
  return locks.try_emplace(device).first->second;
}

class PinnedMemory final : public HostMemory {
 public:
  void* allocate(size_t bytes) override { return ::cuzk::cuda::PinnedAllocator::allocate(bytes); }
  void release(void* p, size_t) override { ::cuzk::cuda::PinnedAllocator::release(p); }
  const char* name() const override { return "pinned"; }
};

template <class E>
class CudaBackend final : public Backend<E> {
 public:
  using Fr = typename E::Fr;

  explicit CudaBackend(const CudaBackendOptions& o) : options_(o) {
    if (o.gpus.empty() || o.workers_per_gpu == 0)
      throw std::invalid_argument("the GPU backend needs at least one GPU and one worker per GPU");
    for (int d : o.gpus) {
      ::cuzk::cuda::DeviceScope on(d);
      const size_t budget = o.key_budget ? o.key_budget : ::cuzk::cuda::free_device_memory() / 10 * 7;
      gpus_.push_back(std::make_unique<Gpu>(d, budget, gpu::DeviceKeyOptions{false, o.stream_chunk, o.abc_on_gpu}));
    }
    for (unsigned i = 0; i < o.workers_per_gpu; ++i)
      for (auto& g : gpus_) workers_.push_back(std::make_unique<GpuWorker>(*g, (int)i));
  }

  unsigned workers() const override { return (unsigned)workers_.size(); }
  bool abc_on_gpu() const override { return options_.abc_on_gpu; }
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
    Gpu& g = workers_[worker]->gpu;
    if (g.fault()) throw DeviceFault(g.fault_message());
    try {
      return prove_on(*workers_[worker], item, recorder);
    } catch (const ::cuzk::cuda::Error& e) {
      // A sticky error fails every later call on the device, so a second
      // call that fails too tells it from one that was the work's own (no
      // memory for this key, say).
      ::cuzk::cuda::DeviceScope on(g.cache.device());
      if (cudaDeviceSynchronize() == cudaSuccess) throw;
      g.set_fault(e.what());
      throw DeviceFault(g.fault_message());
    }
  }

  bool worker_usable(unsigned worker) const override { return !workers_[worker]->gpu.fault(); }

  std::vector<GpuReport> gpu_reports() const override {
    std::vector<GpuReport> out;
    for (const auto& g : gpus_) {
      const auto c = g->cache.counters();
      GpuReport r;
      r.device = g->cache.device();
      r.healthy = !g->fault();
      r.fault = r.healthy ? "" : g->fault_message();
      r.key_bytes = c.bytes, r.key_budget = g->cache.budget();
      r.key_uploads = c.uploads, r.key_hits = c.hits, r.key_evictions = c.evictions;
      out.push_back(std::move(r));
    }
    return out;
  }

 private:
  struct Gpu;
  struct GpuWorker;

  groth16::PendingProof<E> prove_on(GpuWorker& s, WorkItem<E>& item, Recorder& recorder) {
    Gpu& g = s.gpu;
    const int device = g.cache.device();
    const Track track{Track::Kind::worker, device, s.index}, copy{Track::Kind::copy, device, s.index};
    ::cuzk::cuda::DeviceScope on(device);

    double t = recorder.now();
    bool uploaded = false;
    const auto key = g.cache.acquire(item.key, &uploaded);
    if (uploaded)
      recorder.record(Span{Stage::key_upload, copy, item.job, item.partition, t, recorder.now(), key->bytes()});

    const auto parts = partition_spans(item.buffer, *item.key, abc_on_gpu());
    auto inputs = gpu::upload_inputs<E>(*key, s.worker, std::span<const Fr>(parts.w), std::span<const Fr>(parts.a),
                                        std::span<const Fr>(parts.b), std::span<const Fr>(parts.c));
    const double upload = inputs.wait_uploaded();
    t = recorder.now();
    recorder.record(Span{Stage::upload, copy, item.job, item.partition, t - upload, t, inputs.bytes()});
    item.buffer = {};  // on the device now: synthesis may refill it

    std::unique_lock lock(g.lock);
    const double locked = recorder.now();
    recorder.record(Span{Stage::lock_wait, track, item.job, item.partition, t, locked});
    auto pending = gpu::prove_start<E>(*key, s.worker, std::move(inputs));
    gpu::GpuTimes gt;
    auto proof = pending.wait(&gt);
    const double done = recorder.now();
    lock.unlock();
    recorder.record(Span{Stage::lock_held, track, item.job, item.partition, locked, done});
    // The kernels ran back to back on the worker's stream and ended just
    // before wait() returned: lay them out backwards from there.
    // Without GPU a/b/c, that interval is only the wait for the upload.
    const StageTime stages[] = {{Stage::msm_a, gt.msm_a},  {Stage::msm_b1, gt.msm_b1},
                                {Stage::msm_b2, gt.msm_b2}, {Stage::msm_c, gt.msm_c},
                                {Stage::abc, gt.abc, options_.abc_on_gpu}, {Stage::ntt, gt.ntt},
                                {Stage::msm_h, gt.msm_h}};
    record_end_to_end(recorder, track, item.job, item.partition, std::max(locked, done - gt.total), stages);
    return proof;
  }

  void forget(const groth16::PreparedKey<E>& key) override {
    for (auto& g : gpus_) g->cache.forget(key);
  }

  struct Gpu {
    Gpu(int device, size_t budget, gpu::DeviceKeyOptions o) : cache(device, budget, o), lock(kernel_lock(device)) {}
    // A GPU that faulted stays out of rotation until the process restarts:
    // a reset would free the memory of every engine on it.
    bool fault() const { return faulted.load(std::memory_order_acquire); }
    std::string fault_message() const {
      std::lock_guard l(fault_mu);
      return "GPU " + std::to_string(cache.device()) + " faulted and was taken out of rotation: " + fault_what;
    }
    void set_fault(const std::string& what) {
      std::lock_guard l(fault_mu);
      if (faulted.load()) return;
      fault_what = what;
      faulted.store(true, std::memory_order_release);
    }
    mutable DeviceKeyCache<E> cache;
    std::mutex& lock;  // the kernel region
    mutable std::mutex fault_mu;
    std::atomic<bool> faulted{false};
    std::string fault_what;
  };
  struct GpuWorker {
    GpuWorker(Gpu& g, int i) : gpu(g), index(i), worker(g.cache.device()) {}
    Gpu& gpu;
    int index;
    gpu::Worker worker;
  };

  CudaBackendOptions options_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  std::vector<std::unique_ptr<GpuWorker>> workers_;
};

}  // namespace

std::unique_ptr<HostMemory> pinned_memory() { return std::make_unique<PinnedMemory>(); }

template <class E>
std::unique_ptr<Backend<E>> cuda_backend(const CudaBackendOptions& options) {
  return std::make_unique<CudaBackend<E>>(options);
}

template std::unique_ptr<Backend<ec::Bn254>> cuda_backend(const CudaBackendOptions&);
template std::unique_ptr<Backend<ec::Bls12_381>> cuda_backend(const CudaBackendOptions&);

}  // namespace cuzk::engine
