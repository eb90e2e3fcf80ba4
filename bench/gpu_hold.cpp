// Holds all but a given amount of a GPU's memory with one plain allocation,
// until it is killed (SIGTERM; the driver frees the memory at its exit): the
// "second process" of a
// small-GPU run (scripts/gpu-check.sh smallmem), beside which cuzk, started
// with no cap, must discover what is left and prove within it.
//   cuzk_gpu_hold LEAVE [READY_FILE]
// LEAVE: bytes to leave free ("16GiB"); READY_FILE: written once the memory
// is held, with the bytes held and the bytes left free on its one line.
#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "cuzk/util/byte_size.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: cuzk_gpu_hold LEAVE [READY_FILE]\n");
    return 2;
  }
  size_t leave = 0;
  try {
    leave = cuzk::parse_byte_size(argv[1]);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  size_t free = 0, total = 0;
  if (cudaFree(nullptr) != cudaSuccess || cudaMemGetInfo(&free, &total) != cudaSuccess) {
    std::fprintf(stderr, "error: no CUDA device\n");
    return 1;
  }
  if (free <= leave) {
    std::fprintf(stderr, "error: %zu MiB free, not more than the %zu MiB to leave\n", free >> 20, leave >> 20);
    return 1;
  }
  const size_t hold = free - leave;
  void* p = nullptr;
  if (const cudaError_t err = cudaMalloc(&p, hold); err != cudaSuccess) {
    std::fprintf(stderr, "error: cannot hold %zu MiB: %s\n", hold >> 20, cudaGetErrorString(err));
    return 1;
  }
  // Touch it, so that the driver backs every page.
  if (cudaMemset(p, 0, hold) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "error: cannot write the held memory\n");
    return 1;
  }
  cudaMemGetInfo(&free, &total);
  std::fprintf(stderr, "cuzk_gpu_hold: holding %zu MiB of %zu MiB; %zu MiB free\n", hold >> 20, total >> 20,
               free >> 20);
  if (argc == 3) std::ofstream(argv[2]) << hold << " " << free << "\n";
  for (;;) pause();
}
