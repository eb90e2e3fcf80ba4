// Which backend and which GPUs a command runs on (--backend, --gpus): the one
// place that decides, for prove, bench and selfcheck alike.
#include <stdexcept>

#include "commands.hpp"
#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif

namespace cuzk::cli {

namespace {

// Why cuda cannot run here, or empty when it can.
std::string cuda_unavailable() {
#if defined(CUZK_HAVE_CUDA)
  return cuda::device_count() > 0 ? "" : "no CUDA device";
#else
  return "this build has no CUDA backend";
#endif
}

}  // namespace

Backend resolve_backend(Backend requested) {
  if (requested == Backend::cpu) return Backend::cpu;
  const std::string why = cuda_unavailable();
  if (why.empty()) return Backend::cuda;
  if (requested == Backend::cuda) throw std::invalid_argument("--backend cuda: " + why + "; use --backend cpu");
  return Backend::cpu;
}

const char* backend_name(Backend resolved) {
  switch (resolved) {
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    default: return "auto";
  }
}

Placement resolve_placement(const RunOptions& run) {
  Placement p{resolve_backend(run.backend), {}};
#if defined(CUZK_HAVE_CUDA)
  if (p.backend == Backend::cuda) p.gpus = cuda::parse_gpus(run.gpus);
#endif
  return p;
}

#if defined(CUZK_HAVE_CUDA)
std::string gpu_label(int gpu) {
  cudaDeviceProp prop{};
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu));
  return "GPU " + std::to_string(gpu) + " (" + prop.name + ")";
}
#endif

}  // namespace cuzk::cli
