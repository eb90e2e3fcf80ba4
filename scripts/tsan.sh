#!/usr/bin/env bash
# ThreadSanitizer over cuzk's threaded code: the library (host backend, engine,
# service, C API, job queue) and the tests that run it from many threads,
# built with -fsanitize=thread in a folder of their own (default build-tsan,
# or CUZK_TSAN_BUILD_DIR), then run; a race, a lock-order inversion or a
# use of freed memory between threads fails its test with TSan's report.
# Too slow for CI's budget (the build alone is ~20 minutes on 2 cores):
# run it before landing a change to src/engine, src/service, src/capi,
# src/queue or src/util, or bindings/node. The Node.js binding's tests run in
# node (not instrumented) with TSan's runtime preloaded: its accesses are not
# checked, its locks (libuv's pool) are seen, and the addon and libcuzk are
# checked whole. cuzkd is left out: gRPC's locks are absl's, which TSan does
# not see, so every handoff between its threads would read as a race.
#   scripts/tsan.sh [CTEST_REGEX]   (default: every test listed below)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${CUZK_TSAN_BUILD_DIR:-build-tsan}
tests=(util_parallel_test util_thread_pool_test util_progress_test engine_test engine_scheduling_test
       engine_buffer_pool_test engine_trace_test service_test service_evaluations_test queue_test)
regex=${1:-"^($(IFS='|'; echo "${tests[*]}")|capi_threads|capi_own_threads|capi_own_jobs|capi_own_prove|capi_prove|node_binding)\$"}
tsan="-fsanitize=thread -fno-omit-frame-pointer -g"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF \
  -DCUZK_DAEMON=OFF -DCUZK_NODE=AUTO -DCUZK_FUZZ=OFF -DCUZK_QUEUE=AUTO \
  -DCMAKE_C_FLAGS="$tsan" -DCMAKE_CXX_FLAGS="$tsan" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
known=$(ninja -C "$build" -t targets all)
targets=()
for t in "${tests[@]}" capi_rapidsnark_compat capi_cuzk_api cuzk_node; do
  if grep -q "^$t:" <<< "$known"; then targets+=("$t"); fi
done
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

# TSan's shadow memory needs the address layout it knows: ASLR off for the
# run (setarch -R), as kernels with 28+ bits of mmap randomness place
# mappings where TSan does not expect them. A report fails the test (66).
# scripts/tsan.supp lists the reports that are not races, each with why.
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 history_size=4 suppressions=$PWD/scripts/tsan.supp ${TSAN_OPTIONS:-}"
status=0
setarch "$(uname -m)" -R ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R "$regex" -E '^node_' \
  --timeout 1800 || status=$?
# node, and ctest that starts it, run with the runtime preloaded; an access
# made by code that is not instrumented (node, V8, libuv) is not checked.
node=(--test-dir "$build" -R "$regex" -L '^node$' -E '^node_install$')
if [[ " ${targets[*]} " == *" cuzk_node "* && $(ctest "${node[@]}" -N) == *"Test #"* ]]; then
  LD_PRELOAD=$(gcc -print-file-name=libtsan.so) TSAN_OPTIONS="$TSAN_OPTIONS ignore_noninstrumented_modules=1" \
    setarch "$(uname -m)" -R ctest "${node[@]}" --output-on-failure --timeout 1800 || status=$?
fi
exit "$status"
