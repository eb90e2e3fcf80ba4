#!/usr/bin/env bash
# One device call: build for sm_90, run the gpu-labelled tests, then the
# benchmarks. Logs go to $OUT (the device tool's output folder) or ./gpu-out.
#   scripts/gpu-check.sh [ctest -R regex]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
build=build-gpu
status=0

{ nvidia-smi; nvcc --version; } > "$OUT/machine.txt" 2>&1
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUZK_CUDA=ON \
  > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
start=$(date +%s)
cmake --build "$build" -j16 > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
echo "build: $(( $(date +%s) - start )) s"

ctest --test-dir "$build" -L gpu ${1:+-R "$1"} --output-on-failure --timeout 900 2>&1 | tee "$OUT/ctest-gpu.log" | tail -15
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

"$build/src/cuzk" selfcheck --backend cuda --device-inputs 1048576 2>&1 | tee "$OUT/selfcheck.log" | tail -3 || status=1
"$build/bench/cuzk_bench_device" --json "$OUT/bench-device.json" 2>&1 | tee "$OUT/bench-device.log" || status=1
"$build/bench/cuzk_bench_host" --benchmark_min_time=0.1s > "$OUT/bench-host.log" 2>&1 || status=1
exit $status
