#!/usr/bin/env bash
# The whole test suite: set-up, a Release build, then ctest. The CUDA backend
# and its tests are built where a GPU can run them (nvidia-smi lists one): on a
# machine without one (CI: 2 cores) compiling them took ~850 s of a 55-minute
# run and tested nothing; scripts/gpu-check.sh builds and runs them on the GPU
# machine; where one is, for that machine's GPUs alone (scripts/cuda-choice.sh).
# CUZK_CUDA=ON|OFF and CUZK_CUDA_ARCHS in the environment override the choice. The
# benchmark programs are not tests and are left out (gpu-check.sh builds them).
# The last line is the one a person reads first: the count of tests passed,
# failed and skipped, every skip with its reason (a GoogleTest case skipped
# inside a test that passed too), after ctest's own. The build folder's path
# is over 200 characters (build/suite/...), so that no path the tests build
# is cut by a fixed buffer unnoticed; CUZK_BUILD_DIR names another. CI runs
# this script as it is (.ci/run), so what it checks is what the README's
# command checks.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${CUZK_BUILD_DIR:-build/suite$(printf '/a-build-folder-with-a-long-path-%d' 1 2 3 4 5 6)}
jobs=$(nproc)
# The CUDA choice is example.sh's too: scripts/cuda-choice.sh.
source scripts/cuda-choice.sh
# Every optional part (cuzkd, the queue, the Node.js binding, the fuzz
# targets, and the tests that need GMP, valgrind, dpkg-deb, PostgreSQL,
# python3's grpc or openssl) is required (ON): scripts/setup.sh installs what
# each needs, so a missing package fails the run instead of dropping its
# tests. CUZK_REQUIRE_ALL=0 builds each only where what it needs is found.
parts=ON
[ "${CUZK_REQUIRE_ALL:-1}" = 0 ] && parts=AUTO
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_BENCH=OFF "${cuda_cmake_args[@]}" \
  -DCUZK_DAEMON=$parts -DCUZK_QUEUE=$parts -DCUZK_NODE=$parts -DCUZK_FUZZ=$parts -DCUZK_TEST_TOOLS=$parts >/dev/null
cmake --build "$build" -j"$jobs"

# GoogleTest programs write their cases (GTEST_SKIP reasons included) to
# gtest/, ctest its tests to ctest-junit.xml; scripts/test-summary.py reads
# both for the closing line.
log=$build/ctest.log
results=$(cd "$build" && pwd)
rm -rf "$results/gtest" "$results/ctest-junit.xml"
mkdir -p "$results/gtest"
set +e
GTEST_OUTPUT=xml:$results/gtest/ ctest --test-dir "$build" --output-on-failure -j"$jobs" \
  --output-junit "$results/ctest-junit.xml" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# Every part cmake left out (build/cuzk-parts.txt), with why; CUDA's why is
# this script's choice where it made it.
not_built=()
while IFS=$'\t' read -r state what why; do
  [ "$state" = OFF ] || continue
  if [ "$what" = "the CUDA backend and its tests" ] && [ -z "${CUZK_CUDA:-}" ]; then why="no GPU: nvidia-smi lists none"; fi
  not_built+=("$what ($why)")
done < "$build/cuzk-parts.txt"
python3 scripts/test-summary.py "$results/ctest-junit.xml" "$results/gtest" "${not_built[@]}"
exit "$status"
