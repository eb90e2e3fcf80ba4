#include "cuzk/cuda/fault_injection.hpp"

#include <cstdint>

#include <cuda_runtime.h>

#include "cuzk/cuda/runtime.hpp"

namespace cuzk::cuda {

namespace {

// No allocation is ever mapped at the top of the 64-bit address space.
__global__ void write_through_invalid_address() { *reinterpret_cast<volatile uint32_t*>(~uintptr_t(0) - 63) = 1; }

}  // namespace

void inject_sticky_fault(int device) {
  if (devices_sharing(device) > 1) {
    set_logical_fault(device, true);
    return;
  }
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(physical_device(device));
  write_through_invalid_address<<<1, 1>>>();
  cudaDeviceSynchronize();  // returns the fault, which stays
  cudaSetDevice(previous);
}

}  // namespace cuzk::cuda
