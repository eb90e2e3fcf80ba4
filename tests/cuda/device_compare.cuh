// Runs a host/device functor over the same inputs on the GPU and on the host
// and expects identical bytes: the GPU tests' one comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuzk/arith_ops.hpp"
#include "cuzk/cuda/map.cuh"
#include "noble.hpp"
#include "parallel.hpp"

namespace cuzk::test {

// 2^20 inputs unless CUZK_GPU_TEST_N says otherwise.
inline size_t test_size() {
  if (const char* s = std::getenv("CUZK_GPU_TEST_N")) return std::strtoull(s, nullptr, 10);
  return size_t(1) << 20;
}

// Runs op on the device over the inputs, and on the host, and compares bytes.
template <class Op, class Out, class... In>
void expect_device_matches_host(const char* what, Op op, const std::vector<In>&... in) {
  const size_t n = std::get<0>(std::forward_as_tuple(in...)).size();
  std::vector<Out> host(n), dev(n);
  parallel_for(n, [&](size_t i) { host[i] = op(in[i]...); });

  cuda::DeviceBuffer<Out> d_out(n);
  auto upload = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    cuda::DeviceBuffer<T> b(v.size());
    b.upload(std::span<const T>(v));
    return b;
  };
  auto bufs = std::make_tuple(upload(in)...);
  std::apply([&](auto&... b) { cuda::launch_map(nullptr, d_out.data(), n, op, b.data()...); }, bufs);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  d_out.download(std::span<Out>(dev));

  size_t mismatches = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (std::memcmp(&host[i], &dev[i], sizeof(Out)) != 0) {
      if (!mismatches) first = i;
      ++mismatches;
    }
  EXPECT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << n << " differ, first at index " << first;
}

}  // namespace cuzk::test
