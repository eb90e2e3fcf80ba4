#include "cuzk/engine/cuda_backend.hpp"

#include <mutex>
#include <sstream>
#include <string>

#include "cuzk/ec/curves.hpp"
#include "cuzk/engine/device_key_cache.hpp"
#include "cuzk/util/plural.hpp"

namespace cuzk::engine {

namespace {

namespace gpu = groth16::cuda;

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
      gpus_.push_back(std::make_unique<Gpu>(d, budget, gpu::DeviceKeyOptions{false, o.stream_chunk, o.gpu_abc}));
    }
    for (unsigned i = 0; i < o.workers_per_gpu; ++i)
      for (auto& g : gpus_) slots_.push_back(std::make_unique<Slot>(*g, (int)i));
  }

  unsigned workers() const override { return (unsigned)slots_.size(); }
  bool host_abc() const override { return !options_.gpu_abc; }
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
        << (options_.gpu_abc ? "on the GPU" : "from the host") << "; " << count(uploads, "key upload") << ", "
        << streamed << " of them streamed";
    return out.str();
  }

  groth16::PendingProof<E> prove(unsigned worker, WorkItem<E>& item, Recorder& recorder) override {
    Slot& s = *slots_[worker];
    Gpu& g = s.gpu;
    const int device = g.cache.device();
    const Track track{Track::Kind::worker, device, s.index}, copy{Track::Kind::copy, device, s.index};
    ::cuzk::cuda::DeviceScope on(device);

    double t = recorder.now();
    bool uploaded = false;
    const auto key = g.cache.acquire(item.key, &uploaded);
    if (uploaded)
      recorder.record(Span{Stage::key_upload, copy, item.job, item.partition, t, recorder.now(), key->bytes()});

    const auto parts = partition_spans(item.buffer, *item.key, host_abc());
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
    const std::pair<Stage, double> stages[] = {{Stage::msm_a, gt.msm_a}, {Stage::msm_b1, gt.msm_b1},
                                               {Stage::msm_b2, gt.msm_b2}, {Stage::msm_c, gt.msm_c},
                                               {Stage::abc, gt.abc},      {Stage::ntt, gt.ntt},
                                               {Stage::msm_h, gt.msm_h}};
    double at = std::max(locked, done - gt.total);
    for (const auto& [stage, seconds] : stages) {
      // Without GPU a/b/c that interval is only the wait for the upload.
      if (stage != Stage::abc || options_.gpu_abc)
        recorder.record(Span{stage, track, item.job, item.partition, at, at + seconds});
      at += seconds;
    }
    return proof;
  }

  void forget(const groth16::PreparedKey<E>& key) override {
    for (auto& g : gpus_) g->cache.forget(key);
  }

 private:
  struct Gpu {
    Gpu(int device, size_t budget, gpu::DeviceKeyOptions o) : cache(device, budget, o) {}
    DeviceKeyCache<E> cache;
    std::mutex lock;  // the kernel region
  };
  struct Slot {
    Slot(Gpu& g, int i) : gpu(g), index(i), worker(g.cache.device()) {}
    Gpu& gpu;
    int index;
    gpu::Worker worker;
  };

  CudaBackendOptions options_;
  std::vector<std::unique_ptr<Gpu>> gpus_;
  std::vector<std::unique_ptr<Slot>> slots_;
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
