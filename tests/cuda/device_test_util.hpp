// Shared by the GPU tests written in C++ (they call the host-callable device
// APIs): exact comparison of large vectors without printing them, and device
// round trips through a DeviceBuffer on a stream.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "cuzk/cuda/runtime.hpp"

namespace cuzk::test {

// got == want element by element; on failure, how many differ and the first.
template <class T>
::testing::AssertionResult same_values(std::span<const T> got, std::span<const T> want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs " << want.size();
  size_t count = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i])) {
      if (count++ == 0) first = i;
    }
  }
  if (count == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << count << " of " << got.size() << " differ, first at index " << first;
}
template <class T>
::testing::AssertionResult same_values(const std::vector<T>& got, const std::vector<T>& want) {
  return same_values(std::span<const T>(got), std::span<const T>(want));
}

// Uploads `in` into `buf` (at least in.size() elements) on `stream`, enqueues
// op(buf.data(), stream), downloads the first in.size() elements and returns them.
template <class T, class Op>
std::vector<T> through_device(cuda::DeviceBuffer<T>& buf, const std::vector<T>& in, cudaStream_t stream, Op&& op) {
  buf.upload(std::span<const T>(in), stream);
  op(buf.data(), stream);
  std::vector<T> out(in.size());
  buf.download(std::span<T>(out), stream);
  return out;
}

}  // namespace cuzk::test
