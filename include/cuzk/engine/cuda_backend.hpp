// The engine's GPU backend (DESIGN.md, "The GPU data path"). Per GPU:
//   - N workers (default 2), each with its own stream, copy stream and device
//     arena; one worker's uploads run while the other's kernels do;
//   - one lock, held only over the kernel region (from the enqueue of a
//     proof's kernels to their end), never over uploads or CPU work, so the
//     kernels of one proof run alone on the GPU and the next proof's inputs
//     are already on the device when the lock passes;
//   - one DeviceKeyCache: keys uploaded once and kept LRU under a budget,
//     streamed when they do not fit.
// Workers are spread over the GPUs in turn (GPU 0 worker 0, GPU 1 worker 0,
// ...), so partitions spread over every GPU. Host buffers come from pinned
// memory. With abc_on_gpu, synthesis writes only w and the GPU computes a, b, c
// from the key's rows (zkey jobs: a quarter of the PCIe bytes and no CPU
// evaluate_abc); native circuits, whose synthesis writes a, b, c anyway, keep
// them on the host.
#pragma once

#include <memory>
#include <vector>

#include "cuzk/engine/backend.hpp"

namespace cuzk::engine {

struct CudaBackendOptions {
  std::vector<int> gpus = {0};
  unsigned workers_per_gpu = 2;
  bool abc_on_gpu = false;
  // Device bytes per GPU for cached keys; 0: 70% of what is free when the
  // backend is made (the rest is the workers' scratch).
  size_t key_budget = 0;
  size_t stream_chunk = size_t(1) << 22;  // points per chunk of a streamed key
};

template <class E>
std::unique_ptr<Backend<E>> cuda_backend(const CudaBackendOptions& options);

// cudaHostAlloc'd (pinned, portable) host memory, for the engine's pool.
std::unique_ptr<HostMemory> pinned_memory();

}  // namespace cuzk::engine
