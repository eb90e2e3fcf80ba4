#include "cuzk/cuda/runtime.hpp"

namespace cuzk::cuda {

void throw_error(cudaError_t err, const char* what, const char* file, int line) {
  throw Error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " + what +
              " at " + file + ":" + std::to_string(line));
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

}  // namespace cuzk::cuda
