// The engine as prove-batch and bench pipeline build it from their flags: the
// backend (CPU workers, or GPU workers over --gpus), where a, b, c are
// computed, pinned or pageable buffers, and a host budget that lets every
// stage hold a partition at once.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "cuzk/engine/engine.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/engine/cuda_backend.hpp"
#endif

namespace cuzk::cli {

// Whether the GPU computes a, b, c: --abc gpu, or auto for a zkey job on the
// cuda backend (native circuits write a, b, c during synthesis anyway).
inline bool gpu_abc(const Placement& where, const EngineFlags& e, bool zkey_job) {
  if (e.abc == "gpu" && where.backend != Backend::cuda)
    throw std::invalid_argument("--abc gpu needs the cuda backend");
  return e.abc == "gpu" || (e.abc == "auto" && zkey_job && where.backend == Backend::cuda);
}

template <class E>
std::unique_ptr<engine::Backend<E>> make_backend(const Placement& where, const EngineFlags& e, unsigned threads,
                                                 bool on_gpu_abc) {
#if defined(CUZK_HAVE_CUDA)
  if (where.backend == Backend::cuda) {
    engine::CudaBackendOptions o;
    o.gpus = where.gpus;
    o.workers_per_gpu = e.workers_per_gpu;
    o.gpu_abc = on_gpu_abc;
    o.key_budget = e.key_budget_mib << 20;
    return engine::cuda_backend<E>(o);
  }
#endif
  (void)on_gpu_abc;
  if (e.pageable) throw std::invalid_argument("--pageable compares against pinned buffers, which need the cuda backend");
  return engine::cpu_backend<E>(e.workers, threads);
}

template <class E>
std::unique_ptr<engine::Engine<E>> make_engine(const groth16::PreparedKey<E>& key, const Placement& where,
                                               const EngineFlags& e, unsigned threads, bool on_gpu_abc,
                                               engine::Recorder& recorder) {
  auto backend = make_backend<E>(where, e, threads, on_gpu_abc);
  const size_t budget = engine::host_budget_for(key, e.synthesis_threads, backend->workers(), backend->host_abc());
  return std::make_unique<engine::Engine<E>>(engine::EngineOptions{e.synthesis_threads, budget}, recorder,
                                             std::move(backend), e.pageable ? engine::pageable_memory() : nullptr);
}

}  // namespace cuzk::cli
