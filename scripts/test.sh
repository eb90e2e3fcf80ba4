#!/usr/bin/env bash
# The whole test suite: set-up, a Release build (with the CUDA backend whenever
# nvcc is found, so CUDA code is compiled even where it cannot run), then ctest.
# GPU tests skip themselves on machines without a GPU. The benchmark programs
# are not tests and are left out (scripts/gpu-check.sh builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_BENCH=OFF >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
