// The GPU tests' one assertion: cuda::crosscheck finds no difference.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "cuzk/arith_ops.hpp"
#include "cuzk/cuda/crosscheck.cuh"
#include "noble.hpp"

namespace cuzk::test {

// 2^20 inputs unless CUZK_GPU_TEST_N says otherwise.
inline size_t test_size() {
  if (const char* s = std::getenv("CUZK_GPU_TEST_N")) return std::strtoull(s, nullptr, 10);
  return size_t(1) << 20;
}

// The device and host results of op over the inputs must be identical.
template <class Op, class Out, class... In>
void expect_device_matches_host(const char* what, Op op, const std::vector<In>&... in) {
  const auto m = cuda::crosscheck<Out>(op, in...);
  EXPECT_EQ(m.count, 0u) << what << ": " << m.count << " of " << std::get<0>(std::forward_as_tuple(in...)).size()
                         << " differ, first at index " << m.first;
}

}  // namespace cuzk::test
