#!/usr/bin/env bash
# ThreadSanitizer over cuzk's threaded code: the library (host backend, engine,
# service, C API, job queue) and the tests that run it from many threads,
# built with -fsanitize=thread in a folder of their own (default build-tsan,
# or CUZK_TSAN_BUILD_DIR), then run; a race, a lock-order inversion or a
# use of freed memory between threads fails its test with TSan's report.
# Too slow for CI's budget (the build alone is ~20 minutes on 2 cores):
# run it before landing a change to src/engine, src/service, src/capi,
# src/queue or src/util. The Node.js binding and cuzkd are left out (node and
# gRPC are not instrumented, so TSan would see only half of each race); their
# threads reach the same service the C API's tests drive.
#   scripts/tsan.sh [CTEST_REGEX]   (default: every test listed below)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${CUZK_TSAN_BUILD_DIR:-build-tsan}
tests=(util_parallel_test util_thread_pool_test util_progress_test engine_test engine_scheduling_test
       engine_buffer_pool_test engine_trace_test service_test service_evaluations_test queue_test)
regex=${1:-"^($(IFS='|'; echo "${tests[*]}")|capi_threads|capi_own_threads|capi_own_jobs|capi_own_prove|capi_prove)\$"}
tsan="-fsanitize=thread -fno-omit-frame-pointer -g"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF \
  -DCUZK_DAEMON=OFF -DCUZK_NODE=OFF -DCUZK_FUZZ=OFF -DCUZK_QUEUE=AUTO \
  -DCMAKE_C_FLAGS="$tsan" -DCMAKE_CXX_FLAGS="$tsan" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
known=$(ninja -C "$build" -t targets all)
targets=()
for t in "${tests[@]}" capi_rapidsnark_compat capi_cuzk_api; do
  if grep -q "^$t:" <<< "$known"; then targets+=("$t"); fi
done
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

# TSan's shadow memory needs the address layout it knows: ASLR off for the
# run (setarch -R), as kernels with 28+ bits of mmap randomness place
# mappings where TSan does not expect them. A report fails the test (66).
# scripts/tsan.supp lists the reports that are not races, each with why.
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$PWD/scripts/tsan.supp ${TSAN_OPTIONS:-}"
setarch "$(uname -m)" -R ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R "$regex" --timeout 1800
