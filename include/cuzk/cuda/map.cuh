// Element-wise kernels: out[i] = op(in0[i], in1[i], ...). The op is a functor
// usable on host and device, so a test or a CPU fallback runs the very same
// code path on the host for comparison.
#pragma once

#include "cuzk/cuda/runtime.hpp"

namespace cuzk::cuda {

template <class Op, class Out, class... In>
__global__ void map_kernel(Out* out, size_t n, Op op, const In*... in) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = op(in[i]...);
}

template <class Op, class Out, class... In>
void launch_map(cudaStream_t s, Out* out, size_t n, Op op, const In*... in) {
  if (n == 0) return;
  constexpr unsigned threads = 256;
  int sms = 0, dev = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const size_t want = (n + threads - 1) / threads;
  const unsigned blocks = (unsigned)std::min<size_t>(want, (size_t)sms * 16);
  map_kernel<<<blocks, threads, 0, s>>>(out, n, op, in...);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::cuda
