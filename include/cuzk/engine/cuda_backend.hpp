// The engine's GPU backend (docs/ARCHITECTURE.md, "The GPU data path"). Per GPU:
//   - N workers (default 2), each with its own stream, copy stream and device
//     arena; one worker's uploads run while the other's kernels do;
//   - one lock, held only over the kernel region (from the enqueue of a
//     proof's kernels to their end), never over uploads or CPU work, so the
//     kernels of one proof run alone on the GPU and the next proof's inputs
//     are already on the device when the lock passes;
//   - one DeviceKeyCache: keys uploaded once and kept LRU under a budget
//     that the engines of both curves share, streamed when they do not fit.
// Workers are spread over the GPUs in turn (GPU 0 worker 0, GPU 1 worker 0,
// ...), so partitions spread over every GPU. Host buffers come from pinned
// memory. With abc_on_gpu, synthesis writes only w and the GPU computes a, b, c
// from the key's rows (zkey jobs: a quarter of the PCIe bytes and no CPU
// evaluate_abc); native circuits, whose synthesis writes a, b, c anyway, keep
// them on the host, as do keys without rows (abc_on_gpu_for).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/engine/backend.hpp"

namespace cuzk::engine {

struct CudaBackendOptions {
  std::vector<int> gpus = {0};
  unsigned workers_per_gpu = 2;
  bool abc_on_gpu = false;
  // Device bytes per GPU for cached keys, of both curves together (the first
  // backend made on a GPU sets it); 0: 70% of what is free then (the rest is
  // the workers' scratch).
  size_t key_budget = 0;
  size_t stream_chunk = size_t(1) << 22;  // points per chunk of a streamed key
};

template <class E>
std::unique_ptr<Backend<E>> cuda_backend(const CudaBackendOptions& options);

// Page-locked (pinned, portable) host memory, for the engine's pool.
std::unique_ptr<HostMemory> pinned_memory();

// A GPU's health is the process's, not one backend's: a sticky error seen by
// any engine takes the GPU out of rotation for all of them (their workers
// on it throw DeviceFault), and one recovery brings it back for all.
bool gpu_faulted(int device);

// Brings a faulted GPU back: waits until no proof runs on any GPU (the reset
// unlocks host memory that other GPUs may be copying from, until it is
// locked again), drops every backend's streams, scratch and cached keys on
// it, resets it (cuda::reset_device), makes the streams and scratch again,
// and runs `check` with the GPU current: it returns to rotation only when
// `check` returns true. Then each engine's readmit_workers() lets its workers
// on it take partitions again. True when the GPU is in rotation; else false
// and `why` says what failed (the GPU stays out; a later call tries again).
bool recover_gpu(int device, const std::function<bool()>& check, std::string* why = nullptr);

}  // namespace cuzk::engine
