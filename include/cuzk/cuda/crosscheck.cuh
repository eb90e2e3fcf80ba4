// Runs a host/device functor over the same inputs on the GPU and on the host
// and compares the results byte for byte: the one comparison behind the GPU
// tests and `cuzk selfcheck`.
#pragma once

#include <cstring>
#include <span>
#include <tuple>
#include <vector>

#include "cuzk/cuda/map.cuh"
#include "cuzk/util/parallel.hpp"

namespace cuzk::cuda {

struct Mismatches {
  size_t count = 0;
  size_t first = 0;  // index of the first differing element when count > 0
};

template <class Out, class Op, class... In>
Mismatches crosscheck(Op op, const std::vector<In>&... in) {
  const size_t n = std::get<0>(std::forward_as_tuple(in...)).size();
  std::vector<Out> host(n), dev(n);
  parallel_for(n, [&](size_t i) { host[i] = op(in[i]...); });

  auto upload = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    DeviceBuffer<T> b(v.size());
    b.upload(std::span<const T>(v));
    return b;
  };
  DeviceBuffer<Out> d_out(n);
  auto bufs = std::make_tuple(upload(in)...);
  std::apply([&](auto&... b) { launch_map(nullptr, d_out.data(), n, op, b.data()...); }, bufs);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  d_out.download(std::span<Out>(dev));

  Mismatches m;
  for (size_t i = 0; i < n; ++i)
    if (std::memcmp(&host[i], &dev[i], sizeof(Out)) != 0) {
      if (!m.count) m.first = i;
      ++m.count;
    }
  return m;
}

}  // namespace cuzk::cuda
