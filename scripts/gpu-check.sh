#!/usr/bin/env bash
# One device call: build for sm_90, run the gpu-labelled tests, then the
# benchmarks. Logs, JSON and the GPU's proofs (for snarkjs to verify elsewhere)
# are packed into $OUT/gpu-results.tgz ($OUT: the device tool's output folder,
# which takes few files; ./gpu-out by default); the last lines printed are a
# summary.
#   scripts/gpu-check.sh [tests|bench|prove|...|all] [ctest -R regex]
#     tests  build, ctest -L gpu (CUZK_CTEST_JOBS at a time, default 3: 18 tests in
#            196 s on 2026-12-03), selfcheck, oneshot, a wait's wake-up
#            (cuzk_bench_wait), bench prove (BLS12-381
#            2^22, compare's); steps cut at CUZK_DEADLINE_S
#            (default 570) from the start, so that the results come back
#     bench  build, field/curve arithmetic rates (cuzk_bench_device), NTT and MSM
#            benchmarks (cuzk bench ntt|msm --backend cuda)
#     prove  build, whole-proof benchmarks at 2^20, 2^22, 2^24 constraints
#            (CUZK_PROVE_LOGS="20 22 24" and CUZK_CURVES="bn254 bls12_381" pick
#            others, CUZK_PROVE_REPEAT the proofs timed, default 3; each size
#            first makes its development key, on the GPU), with host and GPU
#            memory sampled (memory.log, peaks in the summary)
#     pipeline  build, the engine end to end: cuzk bench pipeline on a native
#            circuit (CUZK_PIPELINE_CURVE, default bls12_381; CUZK_PIPELINE_LOG,
#            default 24; CUZK_PIPELINE_ARGS, by default 20 partitions after a
#            warm-up of 10 that fills the pool, --compare: 2 workers pinned, 1
#            worker, pageable; --trace), memory sampled as in prove
#     stream build, bench pipeline (bn254, 2^CUZK_STREAM_LOG, default 22) with
#            the key resident, then streamed (--key-budget-mib 1024)
#     zkey   build, a zkey job (CUZK_ZKEY_LOG, default 22, bn254; 16 witnesses)
#            through prove-batch with a/b/c on the host and on the GPU, and
#            with the key streamed (--key-budget-mib 1024)
#     anchors  build the cuzk CLI (everything with CUZK_ANCHOR_TESTS); cuzk
#            bench ntt and cuzk bench msm g1 on both curves, 2^20..2^26; then
#            sppark's MSM and NTT
#            (OUT=$OUT/anchors bash .anchors/sppark-bench/run.sh, from a folder the
#            caller carries: cp -r ../shared/anchors/sppark-bench .anchors/; knobs
#            MSM_LOGS, NTT_LOGS). Steps that would end past CUZK_DEADLINE_S
#            seconds from the start (default 560) are cut short or skipped, so
#            the results come back from a 10-minute device call.
#            CUZK_ANCHOR_TESTS=REGEX builds everything and first runs the gpu
#            tests that match it (ctest -L gpu -R REGEX; "." for all), in
#            CUZK_CTEST_JOBS parallel jobs (default 1).
#            Variants: CUZK_NTT_VARIANTS and CUZK_MSM_VARIANTS, each a list of
#            variants separated by spaces, a variant being comma-separated
#            VAR=value settings (e.g. "A=1 A=2,B=3": two variants); each
#            runs the bench again with them set, after sppark,
#            over CUZK_VARIANT_LOGS (default 20,22,24,26) and
#            CUZK_NTT_VARIANT_CURVES (default bn254) or CUZK_MSM_VARIANT_CURVES
#            (default bls12_381). The output ends with a line per run and the
#            defaults beside sppark (cuzk / sppark).
#            CUZK_ANCHOR_MSM=0 leaves cuzk's MSMs out (an NTT-only call).
#            CUZK_NCU_NTT_LOG=K: Nsight Compute (ncu --clock-control none) on
#            the forward NTT passes of 2^K points (the timed ntt_scratch's
#            two launches of bench ntt --repeat 1), cuzk's defaults, each NTT
#            variant and sppark's (ncu-ntt-*.log).
#     daemon build, ctest -L daemon (cuzkd end to end, CPU and cuda backends;
#            cuzkd is built when .deps/ from scripts/device-deps.sh is carried)
#     service  build cuzk, cuzkd and daemon_gpu_test only; the test (cuzkd on
#            the GPU, a real fault and the recovery), then what latency runs
#     throughput  build cuzk and cuzkd only (carry .deps/), then
#            scripts/daemon-throughput.sh: cuzkd fed by concurrent clients against
#            bench pipeline on one Partition key, and bench pipeline with spans
#            recorded and not (CUZK_THROUGHPUT_CURVE, default bls12_381;
#            CUZK_THROUGHPUT_LOG, default 24; the script's knobs PARTITIONS, JOBS,
#            CLIENTS, SYNTHESIS_THREADS pass through). Cut at CUZK_DEADLINE_S
#            (default 570) from the start, so that the log comes back
#     latency  build cuzk and cuzkd only (carry .deps/), then
#            scripts/daemon-latency.sh (BN254 2^16, 40 requests, 8 clients) with
#            cuzkd's defaults, and bench prove of the same proof (its stages)
#     oneshot  build cuzk, cuzk setup --backend cuda of a BN254 zkey (2^CUZK_ONESHOT_LOG,
#            default 22), then three one-shot cuzk prove runs of it, timed
#            (also run by tests)
#     logical  build cuzk; with CUZK_LOGICAL_GPUS (default 2) logical GPUs on
#            the one: prove-batch of the zkey job of `zkey` over all of them,
#            and bench pipeline --gpus all (BN254 2^CUZK_ZKEY_LOG, default 22)
#     supraseal  build cuzk, supraseal_bench and the rulers carried in .anchors/
#            (cp -r ../shared/anchors/supraseal-c2{,-curio} .anchors/: each
#            build.sh makes a libsupraseal_c2.so); for each size in
#            CUZK_SUPRASEAL_LOGS (default 24), a BLS12-381 Partition key as a
#            bellperson parameter file (setup --format bellperson, on the GPU;
#            kept in the build folder for the next call on a warm machine),
#            then supraseal_bench (every proof verified by cuzk's verifier) on
#            libcuzk_supraseal, supraseal-c2 and Curio's fork: a batch of
#            CUZK_SUPRASEAL_CIRCUITS circuits (default 8, 2 from 2^26 on) CUZK_SUPRASEAL_CALLS
#            times (default 1) after a warm-up call, and the split phase from 2
#            threads (cuzk, Curio's); cuzk's also from page-locked caller memory
#            (--pinned, split, a/b/c and witness-only) and witness-only (--witness-only, batch and split:
#            the circuit registered once, proofs from the assignments alone
#            beside the a/b/c path's, their wall and host CPU ratio); Curio's
#            batch only up to 2^CUZK_CURIO_BATCH_MAX_LOG (default 22: 19 s a
#            circuit at 2^24); CUZK_SUPRASEAL_RUNS (default all: "cuzk cuzk-split
#            supraseal-c2 curio-split cuzk-pinned witness-only curio") names the
#            runs, so that a size whose runs outgrow a call goes on in the next
#            one on the warm machine, its parameter file kept. Summary: wall and CPU s a circuit, host memory per
#            run and per circuit in flight beyond the caller's inputs, and for
#            each of cuzk's paths the GPU's busy share (supraseal-gpu-busy.sh). Then,
#            unless CUZK_SUPRASEAL_COMPARE=0, bench prove of the largest size in
#            bellman's convention on the GPU, to compare
#     smallmem  build cuzk and cuzk_gpu_hold; bench prove of a BLS12-381
#            Partition of 2^CUZK_SMALLMEM_LOG constraints (default 27), its key
#            made once on the GPU and brought to the host, then a phase for
#            each size in CUZK_SMALLMEM_LEAVE (default "16GiB 24GiB") and one
#            with nothing held: scripts/gpu-hold-phase.sh has a second process
#            (cuzk_gpu_hold) hold all of the GPU's memory but that size, and
#            cuzk, given no cap, proves within what it finds free
#            (CUZK_SMALLMEM_REPEAT proofs, default 1, after a warm-up); then
#            bench pipeline in the same phases at 2^CUZK_SMALLMEM_PIPELINE_LOG
#            (default 27), CUZK_SMALLMEM_PARTITIONS (default 4) after a warm-up
#            of 2, host buffers within CUZK_SMALLMEM_HOST_BUDGET (default
#            36GiB: two of a 2^27 partition's 18 GiB); CUZK_SMALLMEM_STEPS
#            (default "pipeline": its phases give the GPU time a partition,
#            the lock held, and the throughput; the two steps with their two
#            setups do not fit one call) picks "prove", "pipeline" or both.
#            Memory sampled as in prove
#     ptx    build PTX of compute_CUZK_PTX_ARCH alone (default 75, no SASS:
#            what a GPU newer than every image built runs), cuobjdump's count of
#            both; one process JIT-compiles the kernels of both curves under
#            CUDA_FORCE_PTX_JIT=1 into a cache of 4 GiB; two prove-batch
#            processes of a zkey without the variable, timed (does the cache
#            serve a later one?); then ctest -L gpu, without the variable where
#            the library holds no SASS (CUZK_PTX_FORCE_JIT=1 keeps it);
#            CUZK_PTX_WARMUP=0 (a later call on a warm machine) goes straight
#            to the tests
#     compare  this tree beside an earlier one in .baseline/ (git archive REV |
#            tar -x -C .baseline; carry it), both built for sm_90; then
#            CUZK_COMPARE_ROUNDS rounds (default 2), baseline first: bench prove
#            and bench pipeline (BLS12-381 2^22) and, with .deps/, each tree's
#            daemon-latency.sh (BN254 2^16, 40 requests by 8 clients)
#     statuspage  build cuzk and cuzkd (carry .deps/ and node_modules/uplot),
#            then scripts/status-page-shot.sh: cuzkd proving BLS12-381
#            Partitions of 2^CUZK_STATUS_LOG (default 22) for 4 clients, its
#            status page and /status.json saved under statuspage/site (the
#            screenshot is taken elsewhere: this machine has no Chromium)
#     all    (default) tests, bench and prove
# CUZK_GPU_ARCHS=all builds every architecture (the default build, in
# build-all) instead of sm_90 alone; tests then also lists the images each
# binary carries (ctest -L cuda_build). CUZK_BUILD_S=N stops the build after N
# seconds (exit 3) so that a long build can go on in the next call on the
# same warm machine.
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL=${OUT:-$PWD/gpu-out}
mkdir -p "$FINAL"
OUT=$(mktemp -d)
trap 'tar -czf "$FINAL/gpu-results.tgz" -C "$OUT" .' EXIT
export CUZK_GPU_PROOF_DIR="$OUT/proofs"
mkdir -p "$CUZK_GPU_PROOF_DIR"
mode=${1:-all}
t_start=$(date +%s)
deadline=${CUZK_DEADLINE_S:-100000}
[[ $mode == anchors ]] && deadline=${CUZK_DEADLINE_S:-560}
# Modes that fill a 10-minute device call stop their steps in time for the
# summary and the results to come back (tests: the build with cuzkd took
# 383 s on 2026-12-03, and the one-shot step after ctest ran past 600 s).
[[ $mode == throughput || $mode == queue || $mode == tests || $mode == ptx || $mode == smallmem ]] &&
  deadline=${CUZK_DEADLINE_S:-570}
# sm_90 alone by default; CUZK_GPU_ARCHS=all: the default build, every
# architecture (cmake/cuda_archs.cmake), in its own folder.
build=build-gpu
arch_args=(-DCMAKE_CUDA_ARCHITECTURES=90)
if [[ ${CUZK_GPU_ARCHS:-90} == all ]]; then
  build=build-all
  arch_args=()
fi
if [[ $mode == ptx ]]; then
  build=build-ptx
  arch_args=(-DCMAKE_CUDA_ARCHITECTURES="${CUZK_PTX_ARCH:-75}-virtual")
fi
status=0
summary=()

{ nvidia-smi; nvcc --version; nproc; lscpu; } > "$OUT/machine.txt" 2>&1
summary+=("host: $(nproc) threads, $(lscpu | sed -n "s/^Model name: *//p"), AVX-512 IFMA $(grep -qw avx512ifma /proc/cpuinfo && echo yes || echo no)")
# cuzkd's libraries (gRPC, protobuf, prometheus-cpp, toml11, spdlog), which
# the GPU machine lacks: the Debian packages scripts/device-deps.sh downloaded
# into .deps/ (the caller carries it), unpacked into a prefix outside the tree.
# Without .deps/, CUZK_DAEMON=AUTO leaves cuzkd and its tests out.
source scripts/device-deps.sh
deps_args=()
device_deps_prefix "${CUZK_DEPS_PREFIX:-/tmp/cuzk-deps}" > "$OUT/deps.log" 2>&1
case $? in
  0) deps_args=("${CUZK_DEPS_CMAKE_ARGS[@]}"); summary+=("deps: .deps unpacked for cuzkd") ;;
  1) summary+=("deps: no .deps, so no cuzkd") ;;
  *) summary+=("deps: .deps did not unpack (deps.log), so no cuzkd") ;;
esac
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${arch_args[@]}" -DCUZK_CUDA=ON \
  "${deps_args[@]}" > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
grep -E "cuzk: (cuzkd|gRPC|job queue|the cuzk client|no static)" "$OUT/configure.log"
start=$(date +%s)
targets=()
[[ $mode == anchors && -z ${CUZK_ANCHOR_TESTS:-} ]] && targets=(--target cuzk)
[[ $mode == throughput || $mode == latency || $mode == queue || $mode == statuspage ]] && targets=(--target cuzk cuzkd)
# compare times cuzkd only where .deps came to build it.
[[ $mode == compare ]] && targets=(--target cuzk) && ((${#deps_args[@]})) && targets+=(cuzkd)
[[ $mode == service ]] && targets=(--target cuzk cuzkd daemon_gpu_test)
[[ $mode == oneshot || $mode == logical ]] && targets=(--target cuzk)
[[ $mode == supraseal ]] && targets=(--target cuzk supraseal_bench)
[[ $mode == smallmem ]] && targets=(--target cuzk cuzk_gpu_hold)
# The supraseal-c2 rulers carried in .anchors/, built beside cuzk (nvcc
# alone, ~1 minute each), into $rulers/NAME/libsupraseal_c2.so.
rulers=$(mktemp -d)
[[ $mode == supraseal ]] && for r in supraseal-c2 supraseal-c2-curio; do
  [ -f ".anchors/$r/build.sh" ] &&
    (OUT="$rulers/$r" bash ".anchors/$r/build.sh" > "$OUT/build-$r.log" 2>&1 ||
      echo "$r: did not build (build-$r.log)" >> "$OUT/build-rulers.log") &
done
build_all() { timeout "${CUZK_BUILD_S:-0}" cmake --build "$build" -j16 "${targets[@]}" > "$OUT/build.log" 2>&1; }
build_all
build_rc=$?
if ((build_rc == 124)); then
  echo "build: stopped after ${CUZK_BUILD_S} s ($(grep -c '^\[' "$OUT/build.log") steps done); the same command goes on"
  tail -3 "$OUT/build.log"
  exit 3
fi
if ((build_rc != 0)); then
  # cuzkd's libraries come from another distribution: where they do not
  # build, the rest is built again without gRPC instead of not at all.
  if ((${#deps_args[@]})); then
    grep -E "error|FAILED" -A3 "$OUT/build.log" | head -30
    mv "$OUT/build.log" "$OUT/build-daemon.log"
    summary+=("cuzkd: did not build (build-daemon.log); built again without gRPC")
    cmake -S . -B "$build" -DCUZK_DAEMON=OFF -DCMAKE_DISABLE_FIND_PACKAGE_gRPC=ON >> "$OUT/configure.log" 2>&1 && build_all
  else
    false
  fi || { grep -E "error|FAILED" -A3 "$OUT/build.log" | head -60; exit 1; }
fi
wait  # the rulers' builds
[ -f "$OUT/build-rulers.log" ] && summary+=("$(cat "$OUT/build-rulers.log")")
summary+=("build: $(( $(date +%s) - start )) s")
# Each step's time (ninja's log: start and end in ms), and the five longest,
# to tell which files hold a cold build's critical path.
cp "$build/.ninja_log" "$OUT/ninja_log.txt" 2>/dev/null &&
  summary+=("longest build steps (s): $(awk -F'\t' 'NR > 1 { printf "%.0f %s\n", ($2 - $1) / 1000, $4 }' \
    "$OUT/ninja_log.txt" | sort -rn | head -5 | awk '{ sub(".*/", "", $2); printf "%s %s; ", $1, $2 }')")
cuzk="$build/src/cuzk"

run() {  # run NAME COMMAND...: log to $OUT/NAME.log, keep going on failure; cut at the deadline
  local name=$1; shift
  local t0=$(date +%s)
  local left=$(( deadline - (t0 - t_start) ))
  if (( left < 15 )); then
    summary+=("$name: skipped (deadline)")
    status=1
    return 1
  fi
  timeout "$left" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || status=1
  summary+=("$name: exit $rc, $(( $(date +%s) - t0 )) s")
  return $rc
}

if [[ $mode == tests || $mode == all ]]; then
  # The images each binary carries (cuobjdump), against what was configured.
  run ctest-cuda-build ctest --test-dir "$build" -L cuda_build --output-on-failure
  grep -E "sm_|tests passed|Failed|\*\*\*" "$OUT/ctest-cuda-build.log" | head -8
  run ctest-gpu ctest --test-dir "$build" -L gpu ${2:+-R "$2"} -j "${CUZK_CTEST_JOBS:-3}" --output-on-failure --timeout 900
  grep -E "tests passed|Failed|FAILED|\*\*\*" "$OUT/ctest-gpu.log" | head -20
  run selfcheck "$cuzk" selfcheck --backend cuda --device-inputs 1048576
fi
if [[ $mode == ptx ]]; then
  # PTX only, JIT-compiled by the driver into a cache that every test process
  # then shares: one process fills it with the kernels of both curves first.
  export CUDA_FORCE_PTX_JIT=1 CUDA_CACHE_PATH=/tmp/cuzk-jit-cache CUDA_CACHE_MAXSIZE=4294967296
  lib=$(find "$build/src" -name 'libcuzk.so*' -type f | head -1)
  elf_files=$(cuobjdump --list-elf "$lib" 2>/dev/null | grep -c 'ELF file')
  summary+=("ptx build: $(cuobjdump --list-ptx "$lib" 2>/dev/null | grep -c 'PTX file') PTX files, \
$elf_files ELF files in $(basename "$lib")")
  [[ ${CUZK_PTX_WARMUP:-1} == 1 ]] && run jit-warmup bash -c "for c in bn254 bls12_381; do \"$cuzk\" selfcheck --backend cuda --device-inputs 65536 &&
    \"$cuzk\" bench prove --backend cuda --curve \$c --circuit partition --constraints 65536 || exit 1; done"
  # Whether the driver's cache serves a later process: on 2026-12-06, under
  # CUDA_FORCE_PTX_JIT=1, a second prove-batch of the same zkey was as slow
  # as the first (20-45 s each). The same twice without the variable, which a
  # library with no SASS does not need for the driver to JIT its PTX.
  jit_zkey() {  # jit_zkey LABEL CURVE ABC...: one prove-batch process a --abc value, each timed
    local label=$1 curve=$2 fx=tests/fixtures/$2/multiplier i=0
    shift 2
    for abc in "$@"; do
      local t0=$(date +%s%N)
      timeout 150 "$cuzk" prove-batch "$fx/circuit.zkey" "$fx/witness.wtns" --out "$OUT/$label-$curve-$((++i))" \
        --backend cuda --abc "$abc"
      echo "$label $curve --abc $abc: exit $?, $(( ($(date +%s%N) - t0) / 1000000 )) ms"
    done
  }
  env | grep '^CUDA_' > "$OUT/jit-env.log"
  [[ ${CUZK_PTX_WARMUP:-1} == 1 ]] && run jit-cache env -u CUDA_FORCE_PTX_JIT bash -c "$(declare -f jit_zkey); cuzk=$cuzk OUT=$OUT
    jit_zkey jit-cache bn128 gpu gpu"
  grep -s "^jit-cache" "$OUT/jit-cache.log"
  # The tests without CUDA_FORCE_PTX_JIT where the library holds no SASS at
  # all (cuobjdump above: 0 ELF files), so that the driver still JIT-compiles
  # every kernel but its cache may serve the later processes;
  # CUZK_PTX_FORCE_JIT=1 keeps the variable set.
  [[ ${CUZK_PTX_FORCE_JIT:-0} == 1 ]] || ((elf_files)) || unset CUDA_FORCE_PTX_JIT
  summary+=("ptx ctest: CUDA_FORCE_PTX_JIT=${CUDA_FORCE_PTX_JIT:-unset}")
  # CUZK_CTEST_ARGS=-V streams each test's output into the log as it runs,
  # so a test cut by the deadline still shows how far it got.
  run ctest-gpu ctest --test-dir "$build" -L gpu ${2:+-R "$2"} -j "${CUZK_CTEST_JOBS:-3}" --output-on-failure --timeout 900 \
    ${CUZK_CTEST_ARGS:-}
  grep -E "tests passed|Failed|FAILED|\*\*\*" "$OUT/ctest-gpu.log" | head -20
fi
if [[ $mode == daemon ]]; then
  # cuzkd's tests: the CPU ones and, with the gpu label, those on the cuda backend.
  run ctest-daemon ctest --test-dir "$build" -L daemon ${2:+-R "$2"} --output-on-failure --timeout 900
  grep -E "tests passed|Failed|FAILED|\*\*\*|Not Run|No tests" "$OUT/ctest-daemon.log" | head -20
fi
if [[ $mode == service ]]; then
  run ctest-daemon-gpu ctest --test-dir "$build" -L gpu -R daemon_gpu --output-on-failure --timeout 300
  grep -E "tests passed|Failed|FAILED|\*\*\*|Not Run|No tests" "$OUT/ctest-daemon-gpu.log" | head -20
fi
if [[ $mode == bench || $mode == all ]]; then
  run bench-device "$build/bench/cuzk_bench_device" --json "$OUT/bench-device.json"
  for curve in bn254 bls12_381; do
    run "ntt-$curve" "$cuzk" bench ntt --backend cuda --curve $curve --log-sizes 20,21,22,23,24,25,26,27 \
      --repeat 3 --json "$OUT/ntt-$curve.json"
    run "msm-$curve" "$cuzk" bench msm --backend cuda --curve $curve --group both --log-sizes 20,22,24,26 \
      --repeat 3 --json "$OUT/msm-$curve.json"
  done
fi
# Host and GPU memory in use every 2 s while the large runs go (memory.log:
# seconds, host MiB, GPU MiB), and their peaks in the summary.
sample_memory() {
  while sleep 2; do
    echo "$(( $(date +%s) - t_start )) $(free -m | awk 'NR == 2 { print $3 }') \
$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)"
  done > "$OUT/memory.log" 2>/dev/null &
  sampler=$!
}
memory_peaks() {
  kill "$sampler" 2>/dev/null
  summary+=("$(awk '$2 > h { h = $2 } $3 > g { g = $3 } END { printf "memory peaks: host %d MiB, GPU %d MiB", h, g }' \
    "$OUT/memory.log")")
}
if [[ $mode == prove || $mode == all ]]; then
  sample_memory
  for curve in ${CUZK_CURVES:-bn254 bls12_381}; do
    for k in ${CUZK_PROVE_LOGS:-20 22 24}; do
      run "prove-$curve-$k" "$cuzk" bench prove --backend cuda --curve $curve --circuit partition \
        --constraints $((1 << k)) --repeat "${CUZK_PROVE_REPEAT:-3}" --json "$OUT/prove-$curve-$k.json"
    done
  done
  memory_peaks
fi
if [[ $mode == pipeline ]]; then
  pc=${CUZK_PIPELINE_CURVE:-bls12_381}; pk=${CUZK_PIPELINE_LOG:-24}
  sample_memory
  # shellcheck disable=SC2086 # CUZK_PIPELINE_ARGS is a list of options
  run "pipeline-$pc-$pk" "$cuzk" bench pipeline --backend cuda --curve $pc --circuit partition \
    --constraints $((1 << pk)) ${CUZK_PIPELINE_ARGS:---partitions 10 --jobs 2 --warmup 10 --synthesis-threads 6 --compare} \
    --trace "$OUT/trace-$pc-$pk.json" --json "$OUT/pipeline-$pc-$pk.json"
  memory_peaks
fi
if [[ $mode == smallmem ]]; then
  sk=${CUZK_SMALLMEM_LOG:-27}
  sample_memory
  # One development setup a benchmark, then a phase a size: the holder of the
  # phase before stops, a new one holds all of the GPU's memory but $leave,
  # and cuzk, given no cap, plans within what it then finds free; the last
  # phase holds nothing (the key resident, the reference).
  phases=()
  for leave in ${CUZK_SMALLMEM_LEAVE:-16GiB 24GiB} none; do
    phases+=(--after-setup "scripts/gpu-hold-phase.sh $leave $PWD/$build/bench/cuzk_gpu_hold $OUT")
  done
  steps=" ${CUZK_SMALLMEM_STEPS:-pipeline} "
  [[ $steps == *" prove "* ]] &&
    run "smallmem-prove-$sk" "$cuzk" bench prove --backend cuda --curve bls12_381 --circuit partition \
      --constraints $((1 << sk)) --setup-on gpu-to-host "${phases[@]}" \
      --repeat "${CUZK_SMALLMEM_REPEAT:-1}" --json "$OUT/smallmem-prove-$sk.json"
  scripts/gpu-hold-phase.sh none - -
  # The engine end to end in the same phases, at CUZK_SMALLMEM_PIPELINE_LOG,
  # its buffers within a stated host budget: at 2^27 the key's 77 GB of
  # points (its circuit's coefficients left out: synthesis gives a, b, c)
  # and two buffers of 18 GiB on the 128 GiB host.
  pk=${CUZK_SMALLMEM_PIPELINE_LOG:-27}
  [[ $steps == *" pipeline "* ]] &&
    run "smallmem-pipeline-$pk" "$cuzk" bench pipeline --backend cuda --curve bls12_381 --circuit partition \
      --constraints $((1 << pk)) --setup-on gpu-to-host "${phases[@]}" --jobs 1 \
      --partitions "${CUZK_SMALLMEM_PARTITIONS:-4}" --warmup 2 --synthesis-threads 8 \
      --host-budget "${CUZK_SMALLMEM_HOST_BUDGET:-36GiB}" --json "$OUT/smallmem-pipeline-$pk.json"
  scripts/gpu-hold-phase.sh none - -
  memory_peaks
fi
if [[ $mode == stream ]]; then
  sk=${CUZK_STREAM_LOG:-22}
  for budget in 0 1024; do
    run "pipeline-bn254-$sk-budget$budget" "$cuzk" bench pipeline --backend cuda --curve bn254 --circuit partition \
      --constraints $((1 << sk)) --partitions 16 --jobs 1 --synthesis-threads 8 --key-budget-mib $budget \
      --json "$OUT/pipeline-bn254-$sk-budget$budget.json"
  done
fi
# zkey_job DIR LOG: a BN254 2^LOG zkey in DIR/k.zkey and 16 witnesses for it
# (4 files, each under 4 names) in the array wt.
zkey_job() {
  run "zkey-setup-$2" "$cuzk" setup --circuit partition --curve bn254 --constraints $((1 << $2)) "$1/k.zkey" || return 1
  for i in 1 2 3 4; do
    "$cuzk" witness --circuit partition --curve bn254 --constraints $((1 << $2)) --seed $i "$1/w$i.wtns" \
      >> "$OUT/zkey-setup-$2.log" 2>&1
  done
  wt=(); for j in $(seq 1 16); do ln -sf "$1/w$(( (j - 1) % 4 + 1 )).wtns" "$1/p$j.wtns"; wt+=("$1/p$j.wtns"); done
}
if [[ $mode == logical ]]; then
  # Two logical GPUs on the one (CUZK_LOGICAL_GPUS, cuda/runtime.hpp): a zkey
  # job over both (the key read once, uploaded to each), and the engine on a
  # native circuit over both.
  export CUZK_LOGICAL_GPUS=${CUZK_LOGICAL_GPUS:-2}
  zk=${CUZK_ZKEY_LOG:-22}; zdir=$(mktemp -d)
  zkey_job "$zdir" "$zk" && mkdir -p "$zdir/out" &&
    run "prove-batch-logical-$zk" "$cuzk" prove-batch "$zdir/k.zkey" "${wt[@]}" --out "$zdir/out" --backend cuda \
      --gpus all --abc gpu --synthesis-threads 4
  rm -rf "$zdir"
  run "pipeline-logical-bn254-$zk" "$cuzk" bench pipeline --backend cuda --gpus all --curve bn254 --circuit partition \
    --constraints $((1 << zk)) --partitions 16 --jobs 1 --synthesis-threads 8 --json "$OUT/pipeline-logical-bn254-$zk.json"
fi
if [[ $mode == zkey ]]; then
  zk=${CUZK_ZKEY_LOG:-22}; zdir=$(mktemp -d)
  zkey_job "$zdir" "$zk" &&
  for abc in host gpu; do
    mkdir -p "$zdir/out-$abc"
    run "prove-batch-$abc-$zk" "$cuzk" prove-batch "$zdir/k.zkey" "${wt[@]}" --out "$zdir/out-$abc" --backend cuda \
      --abc $abc --synthesis-threads 4
  done
  # The same with the key's points streamed from its (read-only) file mapping.
  mkdir -p "$zdir/out-streamed"
  run "prove-batch-streamed-$zk" timeout 300 "$cuzk" prove-batch "$zdir/k.zkey" "${wt[@]}" --out "$zdir/out-streamed" \
    --backend cuda --abc gpu --synthesis-threads 4 --key-budget-mib 1024
  rm -rf "$zdir"
fi
if [[ $mode == oneshot || $mode == tests ]]; then
  # One-shot cuzk prove of a zkey (BN254, 2^CUZK_ONESHOT_LOG, default 22): its
  # wall time from the process's start to its exit, with the file in the page
  # cache (written just before), and the stages (CUZK_TIMING); the key is made
  # by cuzk setup on the GPU.
  ok=${CUZK_ONESHOT_LOG:-22}; odir=$(mktemp -d)
  run "oneshot-setup-$ok" "$cuzk" setup --backend cuda --circuit partition --curve bn254 --constraints $((1 << ok)) \
    "$odir/k.zkey" &&
    "$cuzk" witness --circuit partition --curve bn254 --constraints $((1 << ok)) "$odir/w.wtns" \
      >> "$OUT/oneshot-setup-$ok.log" 2>&1 &&
    # Runs 4 and 5 end once the driver's teardown is done (CUZK_WAIT_TEARDOWN),
    # as every run did before cli/exit_early.hpp, to compare.
    for i in 1 2 3 4 5; do
      run "oneshot-prove-$ok-$i" env CUZK_TIMING=1 CUZK_WAIT_TEARDOWN=$((i > 3)) \
        bash -c 'TIMEFORMAT="wall %R s"; time "$@"' _ "$cuzk" prove \
        "$odir/k.zkey" "$odir/w.wtns" "$odir/p.json" "$odir/pub.json" --backend cuda
    done
  rm -rf "$odir"
fi
if [[ $mode == tests ]]; then
  # A host thread's wait for the GPU, spinning and sleeping (seconds).
  run wait-latency "$build/bench/cuzk_bench_wait" 5 && summary+=("$(cat "$OUT/wait-latency.log")")
  # What time is left: bench prove of compare's partition (BLS12-381 2^22),
  # its stage rows, for the figures of the tree just tested.
  run prove-bls12_381-22 "$cuzk" bench prove --backend cuda --curve bls12_381 --circuit partition \
    --constraints $((1 << 22)) --repeat 5 &&
    summary+=("bench prove 2^22: $(grep -E '^ *(synthesis|before the lock|lock wait|lock beyond|finish|total)' \
      "$OUT/prove-bls12_381-22.log" | tr -s ' ' | tr '\n' ';')")
fi
if [[ $mode == supraseal ]]; then
  sample_memory
  calls=${CUZK_SUPRASEAL_CALLS:-1}
  # bench LOG NAME LIBRARY [ARGS]: one run of the one caller (LIBRARY "" is this
  # build's libcuzk_supraseal), its figures (each path's) in the summary.
  bench() {
    local sk=$1 name=$2 library=$3 log="supraseal-$2-$1"; shift 3
    [[ " $* " == *" --split "* ]] && log+=-split
    run "$log" env CUZK_TIMING=1 "$build/bench/supraseal_bench" ${library:+--library} ${library:+"$library"} "$@" \
      "$params" $((1 << sk)) "$circuits" "$calls" || return 1
    summary+=("2^$sk $name: $(grep -h '^supraseal_bench: \(batch\|split\|witness-only\|host memory per\)' \
      "$OUT/$log.log" | sed 's/^supraseal_bench: //')")
    local busy
    busy=$(scripts/supraseal-gpu-busy.sh "$OUT/$log.log") && [[ -n $busy ]] && summary+=("2^$sk $name: GPU busy: $busy")
    return 0
  }
  for sk in ${CUZK_SUPRASEAL_LOGS:-24}; do
    # Enough circuits for a steady state (the first upload and the last
    # finish are a tenth of 4 circuits' wall), but 2 from 2^26 on: each
    # holds 8 GiB of the caller's inputs there, beside ~33 GB of parameters.
    circuits=${CUZK_SUPRASEAL_CIRCUITS:-$((sk >= 26 ? 2 : 8))}
    # The parameter file stays in the build folder, which a warm machine
    # keeps between calls (2^26's took 119 s to make, a fifth of a call), one
    # size at a time (2^26's is 33 GB of the 64 GiB disk); every library of a
    # call reads the same one. It is made again when cuzk, whose circuit it
    # is the key of, is not the binary that made it.
    pdir=$build/supraseal-params
    mkdir -p "$pdir"
    params=$pdir/k-$sk.params
    maker=$(sha256sum "$cuzk" | cut -d' ' -f1)
    if [[ -f $params.done && $(cat "$params.done") == "$maker" ]]; then
      summary+=("2^$sk: the parameter file an earlier call made with this cuzk")
    else
      rm -f "$pdir"/k-*
      run "supraseal-setup-$sk" "$cuzk" setup --format bellperson --circuit partition --curve bls12_381 \
        --constraints $((1 << sk)) "$params" && echo "$maker" > "$params.done" || continue
    fi
    wanted() { [[ " ${CUZK_SUPRASEAL_RUNS:-cuzk cuzk-split supraseal-c2 curio-split cuzk-pinned witness-only curio} " == *" $1 "* ]]; }
    wanted cuzk && bench "$sk" cuzk ""
    # the a/b/c path's split, then the witness-only one
    wanted cuzk-split && bench "$sk" cuzk "" --split 2 --witness-only
    # The rulers next, so that a deadline cuts cuzk's variants, not the side by side.
    c2=$rulers/supraseal-c2/libsupraseal_c2.so curio=$rulers/supraseal-c2-curio/libsupraseal_c2.so
    [ -f "$c2" ] && wanted supraseal-c2 && bench "$sk" supraseal-c2 "$c2"
    [ -f "$curio" ] && wanted curio-split && bench "$sk" curio "$curio" --split 2
    # both paths from page-locked memory
    wanted cuzk-pinned && bench "$sk" cuzk-pinned "" --split 2 --pinned --witness-only
    wanted witness-only && bench "$sk" witness-only "" --witness-only
    [ -f "$curio" ] && wanted curio && ((sk <= ${CUZK_CURIO_BATCH_MAX_LOG:-22})) && bench "$sk" curio "$curio"
  done
  [[ ${CUZK_SUPRASEAL_COMPARE:-1} == 1 ]] &&
    run "prove-bellman-bls12_381-$sk" "$cuzk" bench prove --backend cuda --format bellperson --curve bls12_381 \
      --circuit partition --constraints $((1 << sk)) --setup-on gpu --repeat 3 --json "$OUT/prove-bellman-$sk.json"
  memory_peaks
fi
if [[ $mode == throughput ]]; then
  # Where one small proof's time goes (cuzkd's request overhead at 2^16): first,
  # as it takes seconds and the throughput run minutes.
  run prove-bn254-16 "$cuzk" bench prove --backend cuda --curve bn254 --circuit partition --constraints 65536 \
    --repeat 5 --json "$OUT/prove-bn254-16.json"
  tc=${CUZK_THROUGHPUT_CURVE:-bls12_381}; tk=${CUZK_THROUGHPUT_LOG:-24}
  # One bench round each with spans and without (ROUNDS=2 and the 12 GB key's
  # setup do not fit one 10-minute device call with cuzkd's run after them).
  run "throughput-$tc-$tk" env CURVE="$tc" ROUNDS="${ROUNDS:-1}" scripts/daemon-throughput.sh "$build" cuda "$tk"
fi
if [[ $mode == compare ]]; then
  if [ -f .baseline/CMakeLists.txt ]; then  # configured as this tree is
    # shellcheck disable=SC2016 # expanded by the inner bash: $1 the targets, one word each
    run build-baseline bash -c 'cmake -S .baseline -B build-baseline -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCUZK_CUDA=ON "${@:2}" && cmake --build build-baseline -j16 --target $1' \
      _ "${targets[*]:1}" "${deps_args[@]}"
  else
    summary+=("compare: no .baseline/ (git archive REV | tar -x -C .baseline, and carry it)")
    status=1
  fi
  # figures TREE ROUND SRC BUILD: the three measurements of one tree.
  figures() {
    local tree=$1 round=$2 src=$3 b=$4
    run "compare-prove-$tree-$round" "$b/src/cuzk" bench prove --backend cuda --curve bls12_381 --circuit partition \
      --constraints $((1 << 22)) --repeat 5 &&
      summary+=("$tree round $round bench prove 2^22: $(grep -E '^ *total' "$OUT/compare-prove-$tree-$round.log" | head -1)")
    run "compare-pipeline-$tree-$round" "$b/src/cuzk" bench pipeline --backend cuda --curve bls12_381 \
      --circuit partition --constraints $((1 << 22)) --partitions 16 --jobs 2 --synthesis-threads 8 &&
      summary+=("$tree round $round bench pipeline 2^22: $(grep -E 'partitions/s' "$OUT/compare-pipeline-$tree-$round.log" | head -1)")
    [ -x "$b/src/daemon/cuzkd" ] || return 0  # no .deps carried: no cuzkd to time
    run "compare-latency-$tree-$round" env REQUESTS=40 CLIENTS=8 "$src/scripts/daemon-latency.sh" "$b" cuda 16 &&
      summary+=("$tree round $round latency: $(grep -E 'p50' "$OUT/compare-latency-$tree-$round.log" | head -2 | tr '\n' ' ')")
  }
  for round in $(seq "${CUZK_COMPARE_ROUNDS:-2}"); do
    [ -x build-baseline/src/cuzk ] && figures baseline "$round" .baseline build-baseline
    figures current "$round" . "$build"
  done
fi
if [[ $mode == statuspage ]]; then
  run statuspage scripts/status-page-shot.sh "$build" "$OUT/statuspage" cuda "${CUZK_STATUS_LOG:-22}"
fi
if [[ $mode == queue ]]; then
  run "queue-vs-direct-${CUZK_QUEUE_CURVE:-bn254}-${CUZK_QUEUE_LOG:-22}" env CURVE="${CUZK_QUEUE_CURVE:-bn254}" \
    ROUNDS="${ROUNDS:-3}" PG_BIN="${CUZK_PG_BIN:-}" PG_LIBRARY_PATH="${CUZK_PG_LIBRARY_PATH:-}" \
    scripts/queue-vs-direct.sh "$build" cuda "${CUZK_QUEUE_LOG:-22}"
fi
if [[ $mode == latency || $mode == service ]]; then
  run latency-defaults env REQUESTS=40 CLIENTS=8 scripts/daemon-latency.sh "$build" cuda 16
  run prove-bn254-16 "$cuzk" bench prove --backend cuda --curve bn254 --circuit partition --constraints 65536 \
    --repeat 5 --json "$OUT/prove-bn254-16.json"
fi
if [[ $mode == anchors ]]; then
  if [[ -n ${CUZK_ANCHOR_TESTS:-} ]]; then
    run ctest-gpu ctest --test-dir "$build" -L gpu -R "$CUZK_ANCHOR_TESTS" -j "${CUZK_CTEST_JOBS:-1}" --output-on-failure --timeout 300
    grep -E "tests passed|Failed|FAILED|\*\*\*" "$OUT/ctest-gpu.log" | head -20
  fi
  logs=20,22,24,26
  for curve in bn254 bls12_381; do
    run "ntt-$curve" "$cuzk" bench ntt --backend cuda --curve $curve --log-sizes $logs --repeat 5 \
      --json "$OUT/ntt-$curve.json"
  done
  for curve in bn254 bls12_381; do
    [[ ${CUZK_ANCHOR_MSM:-1} == 0 ]] && break
    run "msm-$curve" "$cuzk" bench msm --backend cuda --curve $curve --group g1 --log-sizes $logs --repeat 3 \
      --json "$OUT/msm-$curve.json"
  done
  if [ -f .anchors/sppark-bench/run.sh ]; then
    mkdir -p "$OUT/anchors"
    run sppark-run env OUT="$OUT/anchors" BUILD_DIR=/tmp/sppark-build bash .anchors/sppark-bench/run.sh
  else
    echo "anchors: no .anchors/sppark-bench (carry it: cp -r ../shared/anchors/sppark-bench .anchors/)"
    status=1
  fi
  vlogs=${CUZK_VARIANT_LOGS:-20,22,24,26}
  i=0
  for v in ${CUZK_NTT_VARIANTS:-}; do
    i=$((i + 1))
    for curve in ${CUZK_NTT_VARIANT_CURVES:-bn254}; do
      run "ntt-v$i-$curve" env ${v//,/ } "$cuzk" bench ntt --backend cuda --curve $curve --log-sizes $vlogs \
        --repeat 5 --json "$OUT/ntt-v$i-$curve.json" && echo "$v" > "$OUT/ntt-v$i-$curve.variant"
    done
  done
  # Nsight Compute on the forward NTT's passes at one size, cuzk's (the
  # defaults, then each NTT variant) and sppark's: where the time goes.
  if [[ -n ${CUZK_NCU_NTT_LOG:-} ]] && command -v ncu > /dev/null; then
    ncu_args=(ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis
      --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy
      --section LaunchStats --metrics 'regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active$')
    i=0
    for v in "" ${CUZK_NTT_VARIANTS:-}; do  # "": the defaults
      name=default
      [[ -n $v ]] && i=$((i + 1)) && name=v$i
      run "ncu-ntt-$name" env ${v//,/ } "${ncu_args[@]}" -k regex:pass_reg_kernel --launch-skip 14 --launch-count 2 \
        "$cuzk" bench ntt --backend cuda --curve bn254 --log-sizes "$CUZK_NCU_NTT_LOG" --repeat 1
    done
    [ -x /tmp/sppark-build/bench_bn254 ] && run ncu-ntt-sppark "${ncu_args[@]}" -k regex:NTT --launch-count 12 \
      /tmp/sppark-build/bench_bn254 --no-msm --ntt-logs "$CUZK_NCU_NTT_LOG" --reps 1
  fi
  i=0
  for v in ${CUZK_MSM_VARIANTS:-}; do
    i=$((i + 1))
    for curve in ${CUZK_MSM_VARIANT_CURVES:-bls12_381}; do
      run "msm-v$i-$curve" env ${v//,/ } "$cuzk" bench msm --backend cuda --curve $curve --group g1 \
        --log-sizes $vlogs --repeat 3 --json "$OUT/msm-v$i-$curve.json" && echo "$v" > "$OUT/msm-v$i-$curve.variant"
    done
  done
fi
for f in "$OUT"/smallmem-*.log "$OUT"/hold-*.log "$OUT"/jit-warmup.log "$OUT"/oneshot-*.log "$OUT"/queue-vs-direct-*.log "$OUT"/throughput-*.log "$OUT"/latency-*.log "$OUT"/pipeline-*.log "$OUT"/prove-batch-*.log "$OUT"/ntt-*.log "$OUT"/msm-*.log "$OUT"/prove-*.log; do
  [[ -f $f && $f != *-v[0-9]*-* ]] && { echo "== $(basename "$f")"; tail -n 25 "$f"; }
done
printf '%s\n' "${summary[@]}"
if [[ $mode == anchors ]]; then
  [ -f "$OUT/anchors/sppark.log" ] && { echo "== sppark.log"; grep -E "^sppark (msm|ntt)|FAIL" "$OUT/anchors/sppark.log"; }
  # One line per run: the forward NTT (ms) or the G1 MSM (gpu ms) per size.
  python3 scripts/anchors-table.py "$OUT"
fi
exit $status
