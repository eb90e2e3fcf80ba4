// Which backend and which GPUs the work runs on, and where a, b, c are
// computed: the one place that decides, for the CLI, the daemon and the C API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::service {

enum class BackendKind { automatic, cpu, cuda };
const char* backend_name(BackendKind resolved);

// Where a, b, c = A·w, B·w, a∘b are computed: during synthesis on the host,
// or on the GPU from the key's rows (only w crosses PCIe). automatic: on the
// GPU for .wtns jobs on the cuda backend; native circuits write them during
// synthesis anyway.
enum class AbcPlace { automatic, host, gpu };

// The names every front end takes: "auto", "cpu", "cuda" and "auto", "host",
// "gpu"; nullopt for any other.
std::optional<BackendKind> backend_named(std::string_view name);
std::optional<AbcPlace> abc_place_named(std::string_view name);

struct PlacementRequest {
  BackendKind backend = BackendKind::automatic;
  std::string gpus = "all";  // "all" or device numbers "0,2" (cuda only)
  // cuda: device bytes this process may use on each GPU (cuda::set_memory_limit:
  // every plan is made as if the GPU had that much); 0: what the GPU has.
  size_t gpu_memory = 0;
};

// The resolved choice: the backend and, for cuda, the GPUs (validated).
struct Placement {
  BackendKind backend = BackendKind::cpu;
  std::vector<int> gpus;
};

// auto picks CUDA where this build has it and a GPU is present; asking for
// cuda where it cannot run is an Error(invalid_argument) saying why.
BackendKind resolve_backend(BackendKind requested);
// Also applies the request's gpu_memory, process-wide, when the backend is
// cuda (the limit is the process's, as the GPU's memory is).
Placement resolve_placement(const PlacementRequest& request);

// What this build is, for --version and the C API: the project's version
// (CMake's), and the backends it can run ("cpu" or "cpu,cuda"; whether a GPU
// is present is resolve_backend's question).
inline constexpr const char* kVersion = CUZK_VERSION;
const char* build_backends();

// Whether a job's a, b, c are computed on the GPU (Error(invalid_argument)
// for AbcPlace::gpu without the cuda backend).
bool abc_on_gpu(const Placement& where, AbcPlace abc, bool wtns_job);

// "GPU 0 (NVIDIA H200)"; "GPU 0" in a build without CUDA.
std::string gpu_label(int gpu);

}  // namespace cuzk::service
