// One proof at a time on the groth16 API itself, for `bench prove`: what a
// proof costs by stage without the pipeline around it (`cuzk prove` and
// `bench pipeline` go through the service and its engine). Each prover owns
// the host buffers a proof reads, w (n_vars values) and a, b, c (domain_size
// each, consumed by the proof), which the caller fills by synthesis, and
// proves from them, reporting its stage times. with_prover picks one for a
// Placement.
#pragma once

#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/util/stages.hpp"
#include "cuzk/util/timing.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/groth16/prover_cuda.hpp"
#endif

namespace cuzk::cli {

// Named times in seconds, in the order they ran.
using Timings = std::vector<std::pair<std::string, double>>;

// bench prove's label of each stage a prover times, in the order its table
// lists them.
inline constexpr std::pair<Stage, const char*> kStageLabels[] = {
    {Stage::upload, "upload"},       {Stage::ntt, "ntt (h)"},         {Stage::msm_a, "msm A (G1)"},
    {Stage::msm_b1, "msm B1 (G1)"}, {Stage::msm_b2, "msm B2 (G2)"}, {Stage::msm_c, "msm C (G1)"},
    {Stage::msm_h, "msm H (G1)"}};

// The labelled stages of `t`; the upload only where there is one (a GPU).
inline void add_stages(Timings& out, const StageTimes& t, bool with_upload) {
  for (const auto& [stage, label] : kStageLabels)
    if (stage != Stage::upload || with_upload) out.emplace_back(label, t[stage]);
}

template <class E>
class CpuProver {
 public:
  using Fr = typename E::Fr;

  CpuProver(groth16::SharedKey<E> key, unsigned threads)
      : key_(std::move(key)),
        threads_(threads),
        w_(key_->key().n_vars()),
        a_(key_->key().domain_size()),
        b_(a_.size()),
        c_(a_.size()) {}

  std::string device() const { return "cpu"; }
  // Whether the first proof pays one-off costs, so that a benchmark should
  // run one untimed.
  static constexpr bool first_proof_is_slower = false;
  // One-off costs of making the prover, beyond its buffers: none on the CPU.
  const Timings& setup_times() const { return setup_; }
  std::string key_place() const { return "in host memory"; }

  std::span<Fr> w() { return w_; }
  std::span<Fr> a() { return a_; }
  std::span<Fr> b() { return b_; }
  std::span<Fr> c() { return c_; }

  groth16::Proof<E> prove(Timings& times) {
    StageTimes t;
    const auto pending = groth16::prove_start(*key_, std::span<const Fr>(w_), std::span<Fr>(a_), std::span<Fr>(b_),
                                              std::span<Fr>(c_), threads_, &t);
    const auto t0 = std::chrono::steady_clock::now();
    auto proof = groth16::prove_finish(*key_, pending);
    times.clear();
    add_stages(times, t, false);
    times.emplace_back("finish+verify", seconds_since(t0));
    return proof;
  }

 private:
  groth16::SharedKey<E> key_;
  unsigned threads_;
  Timings setup_;
  std::vector<Fr> w_, a_, b_, c_;
};

#if defined(CUZK_HAVE_CUDA)
// The key resident on one GPU (uploaded by the constructor, reported as
// "key upload" in setup_times), or streamed where a proof would not fit
// beside it, and w, a, b, c in pinned host memory, so that every proof moves
// only the witness and a, b, c, at PCIe speed.
template <class E>
class CudaProver {
 public:
  using Fr = typename E::Fr;

  CudaProver(const groth16::SharedKey<E>& key, int gpu) : gpu_(gpu) {
    cuda::DeviceScope on(gpu);
    auto t0 = std::chrono::steady_clock::now();
    const size_t n = key->key().domain_size();
    w_ = cuda::PinnedBuffer<Fr>(key->key().n_vars());
    a_ = cuda::PinnedBuffer<Fr>(n);
    b_ = cuda::PinnedBuffer<Fr>(n);
    c_ = cuda::PinnedBuffer<Fr>(n);
    setup_.emplace_back("pinned alloc", seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    // Resident where a proof fits beside it in the GPU's free memory, else
    // streamed.
    free_at_plan_ = cuda::free_device_memory();
    const auto options = groth16::gpu::plan_residency(*key, {}, free_at_plan_);
    key_ = std::make_unique<groth16::gpu::DeviceKey<E>>(key, gpu, options);
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());
    setup_.emplace_back(options.streamed ? "key locked for streaming" : "key upload", seconds_since(t0));
    worker_ = std::make_unique<groth16::gpu::Worker>(gpu);
  }

  std::string device() const { return gpu_label(gpu_); }
  // The worker's arena allocates its device scratch during the first proof.
  static constexpr bool first_proof_is_slower = true;
  const Timings& setup_times() const { return setup_; }
  size_t key_bytes() const { return key_->bytes(); }
  std::string key_place() const {
    return (key_->streamed() ? "streamed from host memory in chunks of " +
                                   std::to_string(key_->options().stream_chunk) + " points"
                             : std::string("resident on the GPU")) +
           " (planned with " + std::to_string(free_at_plan_ >> 20) + " MiB of device memory free)";
  }

  std::span<Fr> w() { return w_.span(); }
  std::span<Fr> a() { return a_.span(); }
  std::span<Fr> b() { return b_.span(); }
  std::span<Fr> c() { return c_.span(); }

  // "enqueue" is prove_start's wall time on the host; "wait+finish+verify"
  // prove_finish's, which waits for the GPU; the rest are GPU event times.
  groth16::Proof<E> prove(Timings& times) {
    cuda::DeviceScope on(gpu_);
    auto t0 = std::chrono::steady_clock::now();
    auto pending = groth16::gpu::prove_start<E>(*key_, *worker_, std::span<const Fr>(w_.span()),
                                                 std::span<const Fr>(a_.span()), std::span<const Fr>(b_.span()),
                                                 std::span<const Fr>(c_.span()));
    const double enqueue = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    StageTimes g;
    auto proof = groth16::gpu::prove_finish(*key_, pending, &g);
    times = {{"enqueue", enqueue}};
    add_stages(times, g, true);
    times.emplace_back("gpu total", kernel_seconds(g));
    times.emplace_back("wait+finish+verify", seconds_since(t0));
    return proof;
  }

 private:
  int gpu_;
  size_t free_at_plan_ = 0;  // what the GPU had free when the key's place was planned
  Timings setup_;
  cuda::PinnedBuffer<Fr> w_, a_, b_, c_;
  std::unique_ptr<groth16::gpu::DeviceKey<E>> key_;
  std::unique_ptr<groth16::gpu::Worker> worker_;
};
#endif

// f(prover) with the prover for `where` (the first of its GPUs, for cuda).
template <class E, class F>
decltype(auto) with_prover(const groth16::SharedKey<E>& key, [[maybe_unused]] const Placement& where,
                           unsigned threads, F&& f) {
#if defined(CUZK_HAVE_CUDA)
  if (where.backend == BackendKind::cuda) {
    CudaProver<E> prover(key, where.gpus.front());
    return f(prover);
  }
#endif
  CpuProver<E> prover(key, threads);
  return f(prover);
}

}  // namespace cuzk::cli
