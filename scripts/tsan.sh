#!/usr/bin/env bash
# ThreadSanitizer over cuzk's threaded code: the library (host backend, engine,
# service, C API, job queue) and the tests that run it from many threads, the
# Node.js binding and cuzkd, built with -fsanitize=thread in a folder of their
# own (default build-tsan, or CUZK_TSAN_BUILD_DIR), then run; a race, a
# lock-order inversion or a use of freed memory between threads fails the run
# with TSan's report.
# Too slow for CI's budget (the build alone is ~20 minutes on 2 cores):
# run it before landing a change to src/engine, src/service, src/capi,
# src/queue, src/util, src/daemon or bindings/node.
# node, V8, libuv, gRPC, abseil and protobuf are not instrumented. The tests
# that run in them (labels node and daemon) run with
# ignore_noninstrumented_modules: their own accesses are not checked (absl's
# locks are invisible to TSan, so absl's memory would read as raced), their
# pthread locks are still seen, and cuzk's code in them is checked whole; node
# gets TSan's runtime preloaded. daemon_load_test and daemon_security_test are
# left out: they bound cuzkd's memory, which TSan's shadow multiplies.
#   scripts/tsan.sh [CTEST_REGEX]   (default: every test listed below)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${CUZK_TSAN_BUILD_DIR:-build-tsan}
tests=(util_parallel_test util_thread_pool_test util_progress_test engine_test engine_scheduling_test
       engine_buffer_pool_test engine_trace_test service_test service_evaluations_test queue_test
       daemon_serve_test daemon_fault_test daemon_lifecycle_test)
regex=${1:-"^($(IFS='|'; echo "${tests[*]}")|capi_threads|capi_own_threads|capi_own_jobs|capi_own_prove|capi_prove|node_binding)\$"}
tsan="-fsanitize=thread -fno-omit-frame-pointer -g"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_BENCH=OFF \
  -DCUZK_DAEMON=AUTO -DCUZK_NODE=AUTO -DCUZK_FUZZ=OFF -DCUZK_QUEUE=AUTO \
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
# mappings where TSan does not expect them. A report fails its process (66),
# and goes to a file of its own (log_path): cuzkd's too, which the tests end
# with SIGKILL and whose status none reads.
# scripts/tsan.supp lists the reports that are not races, each with why.
reports=$(cd "$build" && pwd)/tsan-reports
rm -rf "$reports"
mkdir -p "$reports"
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 history_size=4 log_path=$reports/report suppressions=$PWD/scripts/tsan.supp ${TSAN_OPTIONS:-}"
hosted=(-L '^(node|daemon)$' -E '^node_install$')
status=0
setarch "$(uname -m)" -R ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R "$regex" -LE '^(node|daemon)$' \
  --timeout 1800 || status=$?
if [[ $(ctest --test-dir "$build" -N -R "$regex" "${hosted[@]}") == *"Test #"* ]]; then
  LD_PRELOAD=$(gcc -print-file-name=libtsan.so) TSAN_OPTIONS="$TSAN_OPTIONS ignore_noninstrumented_modules=1" \
    setarch "$(uname -m)" -R ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -R "$regex" "${hosted[@]}" \
    --timeout 1800 || status=$?
fi
if compgen -G "$reports/report.*" >/dev/null; then
  cat "$reports"/report.*
  echo "tsan: $(cat "$reports"/report.* | grep -c '^WARNING: ThreadSanitizer') reports, in $reports" >&2
  status=1
fi
exit "$status"
