#!/usr/bin/env bash
# The whole test suite: set-up, a Release build, then ctest. The CUDA backend
# and its tests are built where a GPU can run them (nvidia-smi lists one): on a
# machine without one (CI: 2 cores) compiling them took ~850 s of a 55-minute
# run and tested nothing; scripts/gpu-check.sh builds and runs them on the GPU
# machine. CUZK_CUDA=ON|OFF in the environment overrides the choice. The
# benchmark programs are not tests and are left out (gpu-check.sh builds them).
# The last line is the one a person reads first: the count of tests passed,
# failed and skipped (and why), after ctest's own. CUZK_BUILD_DIR names the
# build folder (default build/); CI gives it a path over 200 characters long,
# so that no path the tests build is cut by a fixed buffer unnoticed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${CUZK_BUILD_DIR:-build}
jobs=$(nproc)
cuda=${CUZK_CUDA:-}
if [ -z "$cuda" ]; then
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then cuda=AUTO; else cuda=OFF; fi
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_BENCH=OFF -DCUZK_CUDA="$cuda" >/dev/null
cmake --build "$build" -j"$jobs"

log=$build/ctest.log
set +e
ctest --test-dir "$build" --output-on-failure -j"$jobs" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

total=$(grep -oE 'tests failed out of [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
failed=$(grep -oE '[0-9]+ tests failed out of' "$log" | grep -oE '^[0-9]+' || echo 0)
skipped_names=$(sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \(Skipped\)$/\1/p' "$log")
skipped=$(printf '%s' "$skipped_names" | grep -c . || true)
gpu_names=$(ctest --test-dir "$build" -N -L gpu | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+)$/\1/p')
why=""
if ((skipped > 0)); then
  not_gpu=$(comm -23 <(printf '%s\n' "$skipped_names" | sort) <(printf '%s\n' "$gpu_names" | sort) | grep -c . || true)
  if ((not_gpu == 0)); then why=" (no GPU)"; else why=" (see the list above)"; fi
fi
built=""
[ "$cuda" = OFF ] && built="; CUDA backend not built (no GPU)"
echo "$total tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped$why$built"
exit "$status"
