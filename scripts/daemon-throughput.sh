#!/usr/bin/env bash
# cuzkd's throughput against cuzk bench pipeline's on the same key (issue 12's
# target: within 5%, GPU busy >= 95% in steady state), and what recording
# spans costs (target: < 1% of throughput):
#   1. one Partition key (cuzk setup), used by every run below;
#   2. cuzk bench pipeline --zkey on it, with spans recorded and with
#      CUZK_SPANS=0, each a warm-up job then CLIENTS x JOBS jobs of PARTITIONS;
#   3. cuzkd with the key preloaded: a warm-up job, then CLIENTS clients at once,
#      each submitting JOBS jobs of PARTITIONS native partitions (every
#      partition its own seed) and awaiting them; partitions/s over that
#      window, GPU busy from /metrics (cuzk_gpu_busy_seconds_total, the kernel
#      lock's hold time) over the same window; every proof taken and verified.
# Both sides run the same synthesis threads, workers and a/b/c placement
# (host: a native circuit's synthesis computes a, b, c anyway), and the same
# warm-up, so that their start and drain weigh the same. The last line compares.
#   scripts/daemon-throughput.sh BUILD_DIR [cpu|cuda] [log2 constraints, default 24]
# Knobs: CURVE (default bls12_381), PARTITIONS per job (default 8), JOBS per
# client (default 2), CLIENTS (default 4), SYNTHESIS_THREADS (default 10 with
# cuda, 2 with cpu), ROUNDS of bench pipeline with spans on and off (default
# 2), WARMUP (partitions of the warm-up job; default synthesis threads + 2 per
# worker: what the buffer pool holds). The first H200 runs (PERFORMANCE.md)
# timed 32 partitions with 6 threads: a window too short for the steady state,
# and synthesis (about 2 s a partition a thread) barely ahead of the GPU
# (0.37 s a partition). At BLS12-381 2^24 on one H200 the defaults prove
# 5 x (14 + 64) partitions after a ~110 s setup, about 6 minutes.
set -euo pipefail
source "$(dirname "$0")/cuzkd-serving.sh"
build=${1:?usage: scripts/daemon-throughput.sh BUILD_DIR [cpu|cuda] [log2 constraints]}
backend=${2:-cuda}
log=${3:-24}
curve=${CURVE:-bls12_381}
partitions=${PARTITIONS:-8}
jobs_per_client=${JOBS:-2}
clients=${CLIENTS:-4}
if [ "$backend" = cuda ]; then
  threads=${SYNTHESIS_THREADS:-10}
  workers=2  # cuzkd's and bench pipeline's default workers per GPU, on one GPU
else
  threads=${SYNTHESIS_THREADS:-2}
  workers=1  # their default CPU workers
fi
warmup=${WARMUP:-$((threads + 2 * workers))}
constraints=$((1 << log))
cuzk=$build/src/cuzk
cuzkd=$build/src/daemon/cuzkd
engine=(--backend "$backend" --synthesis-threads "$threads" --abc host)
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }
# json FILE EXPR: a figure from bench pipeline's --json, as Python writes it.
json() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print($2)" "$1"; }

echo "daemon-throughput: $curve 2^$log Partition, $backend, $threads synthesis threads, warm-up $warmup," \
  "$clients clients x $jobs_per_client jobs x $partitions partitions"
t0=$(now)
"$cuzk" setup --circuit partition --curve "$curve" --constraints "$constraints" "$dir/key.zkey" --vk "$dir/vk.json" \
  > "$dir/setup.log" 2>&1 || { cat "$dir/setup.log"; exit 1; }
echo "  setup: $(elapsed "$t0" "$(now)") s, $(du -h "$dir/key.zkey" | cut -f1)"

# bench pipeline, the same partitions in as many jobs as the clients send.
bench() {  # bench TAG CUZK_SPANS
  CUZK_SPANS=$2 "$cuzk" bench pipeline --zkey "$dir/key.zkey" --circuit partition --constraints "$constraints" \
    --partitions "$partitions" --jobs $((clients * jobs_per_client)) --warmup "$warmup" "${engine[@]}" \
    --json "$dir/$1.json" > "$dir/$1.log" 2>&1 || { cat "$dir/$1.log"; exit 1; }
  sed 's/^/    /' "$dir/$1.log"
}
# Spans on and off alternate ROUNDS times (default 2), so that drift in the
# machine weighs on both; the rates are their means.
rounds=${ROUNDS:-2}
for r in $(seq "$rounds"); do
  echo "  bench pipeline, spans recorded (round $r):"
  bench "spans-on-$r" 1
  echo "  bench pipeline, CUZK_SPANS=0 (round $r):"
  bench "spans-off-$r" 0
done
mean_rate() {  # mean_rate TAG: mean partitions/s of the rounds, and each
  for r in $(seq "$rounds"); do json "$dir/$1-$r.json" 'j["partitions_per_s"]'; done |
    awk '{ s += $1; all = all (NR > 1 ? " " : "") sprintf("%.3f", $1) } END { printf "%.4f (%s)\n", s / NR, all }'
}
read -r bench_rate bench_rates < <(mean_rate spans-on)
read -r bench_off_rate bench_off_rates < <(mean_rate spans-off)
cp "$dir/spans-on-1.json" "$dir/spans-on.json"
# The lock-held share of the wall time, as cuzkd's metric counts it, beside
# the kernels' share from first to last kernel (the summary's "steady state").
bench_busy=$(json "$dir/spans-on.json" \
  '"%.1f%%; kernels first to last %.1f%%" % (100 * j["gpu_s_per_partition"] * j["jobs"] * j["partitions_per_job"] / j["wall_s"], 100 * j["gpu_busy_steady"]) if j["gpu_s_per_partition"] else "n/a (no GPU)"')

port=$((20000 + RANDOM % 20000))
"$cuzkd" --listen "unix://$dir/cuzkd.sock" --metrics "127.0.0.1:$port" "${engine[@]}" --selfcheck false \
  --log-level warn --key "bench=$dir/key.zkey" 2> "$dir/cuzkd.log" &
pid=$!
export CUZK_DAEMON="unix://$dir/cuzkd.sock"
t0=$(now)
wait_serving "$cuzk" "$pid" "$dir/cuzkd.log" 600
echo "  cuzkd: serving after $(elapsed "$t0" "$(now)") s (key loaded)"

# The seconds of GPU busy summed over GPUs, and the GPUs, from /metrics.
gpu_busy_seconds() {
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
  awk '/^cuzk_gpu_busy_seconds_total\{/ { s += $2; n++ } END { printf "%.6f %d\n", s, n }' <&3
  exec 3>&-
}
# job FIRST_SEED N: submits N native partitions, seeds FIRST_SEED...; prints the job id.
job() {
  "$cuzk" client submit bench --circuit partition --constraints "$constraints" --seed "$1" --partitions "$2"
}
# take JOB N DIR: awaits the job into DIR and checks that N proofs came back.
take() {
  "$cuzk" client await "$1" --out "$3" -q
  local got
  got=$(find "$3" -name 'partition-*.proof.json' | wc -l)
  [ "$got" -eq "$2" ] || { echo "job $1: $got proofs of $2" >&2; return 1; }
}

take "$(job 1 "$warmup")" "$warmup" "$dir/warmup"
read -r busy0 gpus < <(gpu_busy_seconds)
t0=$(now)
# GPU busy seconds every half second while the clients run, for the steady
# state: the middle half of the window, past the first synthesis wave (the GPU
# waits for the first partitions) and before the last partitions drain.
(while :; do echo "$(now) $(gpu_busy_seconds | cut -d' ' -f1)"; sleep 0.5; done) > "$dir/busy.samples" &
sampler=$!
clients_pids=()
for c in $(seq "$clients"); do
  (
    ids=()
    for j in $(seq "$jobs_per_client"); do
      ids+=("$(job $((warmup + ((c - 1) * jobs_per_client + j - 1) * partitions + 1)) "$partitions")")
    done
    for j in "${!ids[@]}"; do take "${ids[$j]}" "$partitions" "$dir/out/c$c-j$j"; done
  ) &
  clients_pids+=($!)
done
for p in "${clients_pids[@]}"; do wait "$p"; done
t1=$(now)
kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
read -r busy1 _ < <(gpu_busy_seconds)
steady_busy=$(awk -v a="$t0" -v b="$t1" -v g="$gpus" '
  { t[NR] = $1; v[NR] = $2 }
  END {
    lo = a + (b - a) / 4; hi = b - (b - a) / 4
    for (i = 1; i <= NR; i++) { if (!f && t[i] >= lo) f = i; if (t[i] <= hi) l = i }
    if (g > 0 && f && l > f) printf "%.1f%% (%.1f s to %.1f s)", 100 * (v[l] - v[f]) / g / (t[l] - t[f]), t[f] - a, t[l] - a
    else printf "n/a" }' "$dir/busy.samples")
window=$(elapsed "$t0" "$t1")
total=$((clients * jobs_per_client * partitions))
daemon_rate=$(awk -v n="$total" -v s="$window" 'BEGIN { printf "%.3f", n / s }')
daemon_busy=$(awk -v a="$busy0" -v b="$busy1" -v g="$gpus" -v s="$window" \
  'BEGIN { if (g > 0) printf "%.1f%%", 100 * (b - a) / g / s; else printf "n/a (no GPU)" }')
echo "  cuzkd: $total partitions from $clients clients in $window s: $daemon_rate partitions/s, GPU busy $daemon_busy" \
  "over the window, $steady_busy in its middle half"

# Every proof verifies against the key's verification key (cuzkd verified
# them before sending; this checks what the clients wrote).
verified=0
for proof in "$dir"/out/*/partition-*.proof.json; do
  "$cuzk" verify "$dir/vk.json" "${proof%.proof.json}.public.json" "$proof" > /dev/null
  verified=$((verified + 1))
done
[ "$verified" -eq "$total" ] || { echo "error: $verified proofs for $total partitions" >&2; exit 1; }
echo "  all $verified proofs verified"

awk -v on="$bench_rate" -v off="$bench_off_rate" -v ons="$bench_rates" -v offs="$bench_off_rates" -v n="$rounds" \
  'BEGIN { printf "spans: bench pipeline %.3f partitions/s recorded %s, %.3f with CUZK_SPANS=0 %s (means of %d): recording costs %.2f%%\n",
           on, ons, off, offs, n, 100 * (off - on) / off }'
awk -v d="$daemon_rate" -v b="$bench_rate" -v db="$daemon_busy" -v bb="$bench_busy" \
  -v ds="$steady_busy" \
  'BEGIN { printf "cuzkd %.3f partitions/s (GPU busy %s; steady %s) vs bench pipeline %.3f partitions/s (GPU busy %s): ratio %.3f\n",
           d, db, ds, b, bb, d / b }'
