#include "cuzk/service/placement.hpp"

#include "cuzk/service/errors.hpp"

#if defined(CUZK_HAVE_CUDA)
#include "cuzk/cuda/runtime.hpp"
#endif

namespace cuzk::service {

namespace {

// Why cuda cannot run here, or empty when it can: no GPU, or none that this
// build's kernels run on (the first one's reason), so that auto proves on the
// CPU rather than failing on a GPU it cannot use.
std::string cuda_unavailable() {
#if defined(CUZK_HAVE_CUDA)
  const int count = cuda::device_count();
  if (count == 0) return "no CUDA device";
  std::string why;
  for (int d = 0; d < count; ++d) {
    try {
      cuda::check_device_supported(d);
      return "";
    } catch (const cuda::Error& e) {
      if (why.empty()) why = e.what();
    }
  }
  return why;
#else
  return "this build has no CUDA backend";
#endif
}

}  // namespace

const char* build_backends() {
#if defined(CUZK_HAVE_CUDA)
  return "cpu,cuda";
#else
  return "cpu";
#endif
}

const char* backend_name(BackendKind resolved) {
  switch (resolved) {
    case BackendKind::cpu: return "cpu";
    case BackendKind::cuda: return "cuda";
    default: return "auto";
  }
}

std::optional<BackendKind> backend_named(std::string_view name) {
  if (name == "auto") return BackendKind::automatic;
  if (name == "cpu") return BackendKind::cpu;
  if (name == "cuda") return BackendKind::cuda;
  return std::nullopt;
}

std::optional<AbcPlace> abc_place_named(std::string_view name) {
  if (name == "auto") return AbcPlace::automatic;
  if (name == "host") return AbcPlace::host;
  if (name == "gpu") return AbcPlace::gpu;
  return std::nullopt;
}

BackendKind resolve_backend(BackendKind requested) {
  if (requested == BackendKind::cpu) return BackendKind::cpu;
  const std::string why = cuda_unavailable();
  if (why.empty()) return BackendKind::cuda;
  if (requested == BackendKind::cuda)
    throw Error(ErrorKind::invalid_argument, "--backend cuda: " + why + "; use --backend cpu");
  return BackendKind::cpu;
}

Placement resolve_placement(const PlacementRequest& request) {
  Placement p{resolve_backend(request.backend), {}};
#if defined(CUZK_HAVE_CUDA)
  if (p.backend == BackendKind::cuda) {
    try {
      p.gpus = cuda::parse_gpus(request.gpus);
    } catch (const std::invalid_argument& e) {
      throw Error(ErrorKind::invalid_argument, e.what());
    }
    if (request.gpu_memory) cuda::set_memory_limit(request.gpu_memory);
  }
#endif
  return p;
}

bool abc_on_gpu(const Placement& where, AbcPlace abc, bool wtns_job) {
  if (abc == AbcPlace::gpu && where.backend != BackendKind::cuda)
    throw Error(ErrorKind::invalid_argument, "--abc gpu needs the cuda backend");
  return abc == AbcPlace::gpu || (abc == AbcPlace::automatic && wtns_job && where.backend == BackendKind::cuda);
}

std::string gpu_label(int gpu) {
#if defined(CUZK_HAVE_CUDA)
  cudaDeviceProp prop{};
  const int physical = cuda::physical_device(gpu);
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, physical));
  if (cuda::devices_sharing(gpu) > 1)
    return "GPU " + std::to_string(gpu) + " (" + prop.name + ", logical, on CUDA device " + std::to_string(physical) +
           ")";
  return "GPU " + std::to_string(gpu) + " (" + prop.name + ")";
#else
  return "GPU " + std::to_string(gpu);
#endif
}

}  // namespace cuzk::service
