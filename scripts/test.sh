#!/usr/bin/env bash
# The whole test suite: set-up, a Release build (with the CUDA backend whenever
# nvcc is found, so CUDA code is compiled even where it cannot run), then ctest.
# GPU tests skip themselves on machines without a GPU. The benchmark programs
# are not tests and are left out (scripts/gpu-check.sh builds them).
# The last line is the one a person reads first: the count of tests passed,
# failed and skipped (and why), after ctest's own.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_BENCH=OFF >/dev/null
cmake --build build -j"$jobs"

log=build/ctest.log
set +e
ctest --test-dir build --output-on-failure -j"$jobs" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

total=$(grep -oE 'tests failed out of [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
failed=$(grep -oE '[0-9]+ tests failed out of' "$log" | grep -oE '^[0-9]+' || echo 0)
skipped_names=$(sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \(Skipped\)$/\1/p' "$log")
skipped=$(printf '%s' "$skipped_names" | grep -c . || true)
gpu_names=$(ctest --test-dir build -N -L gpu | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+)$/\1/p')
why=""
if ((skipped > 0)); then
  not_gpu=$(comm -23 <(printf '%s\n' "$skipped_names" | sort) <(printf '%s\n' "$gpu_names" | sort) | grep -c . || true)
  if ((not_gpu == 0)); then why=" (no GPU)"; else why=" (see the list above)"; fi
fi
echo "$total tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped$why"
exit "$status"
