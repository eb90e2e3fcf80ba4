// main() for GPU tests: exits 77 (CTest's "skipped") where no GPU is present.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/cuda/runtime.hpp"

int main(int argc, char** argv) {
  if (cuzk::cuda::device_count() == 0) {
    std::printf("no CUDA device: skipping GPU tests\n");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
