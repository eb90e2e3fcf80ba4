#!/usr/bin/env bash
# Partitions per second through the PostgreSQL job queue with W cuzkd workers
# on this machine (CPU backend, one proving thread each, so that W workers use
# W cores): P partitions of a committed fixture submitted at once, timed from
# the submit to the last proof written. Worker w is pinned to core w (taskset),
# so that one worker's figure is one core's, whatever threads it runs beside
# its prover (synthesis, the finalizer's verification).
#   scripts/queue-throughput.sh CONNINFO [P=400] [W=1] [CIRCUIT=multiplier] [CURVE=bls12381]
# CONNINFO names a database this may empty (it drops the queue's tables).
# Needs a build in build/ (or BUILD=dir) with cuzk and cuzkd. Each worker's
# resident memory is sampled every second; the last lines give it at the
# first sample after the submit, at the middle of the run and at its end (a
# worker whose memory grows with the partitions it proved shows it here).
# The psql client (postgresql-client) must be in PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
conninfo=$1
partitions=${2:-400}
workers=${3:-1}
circuit=${4:-multiplier}
curve=${5:-bls12381}
build=${BUILD:-build}
fixtures=$PWD/tests/fixtures
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

psql "$conninfo" -qc "DROP TABLE IF EXISTS cuzk_partitions, cuzk_jobs, cuzk_keys, cuzk_schema" 2>/dev/null
"$build/src/cuzk" db migrate --queue "$conninfo" >/dev/null
for ((w = 0; w < workers; ++w)); do
  mkdir -p "$tmp/w$w"
  taskset -c "$((w % $(nproc)))" "$build/src/daemon/cuzkd" --listen "unix://$tmp/w$w/s.sock" --metrics "" --backend cpu --selfcheck false \
    --threads 1 --cpu-workers 1 --key-dir "$fixtures" --witness-dir "$fixtures" --queue "$conninfo" --queue-host "w$w" >"$tmp/w$w/log" 2>&1 &
  pids+=($!)
done
for ((w = 0; w < workers; ++w)); do
  until grep -qs " ready: " "$tmp/w$w/log"; do sleep 0.1; done
done
wtns=()
for ((i = 0; i < partitions; ++i)); do wtns+=("$fixtures/$curve/$circuit/witness.wtns"); done
start=$(date +%s.%N)
job=$("$build/src/cuzk" db submit --queue "$conninfo" "$fixtures/$curve/$circuit/circuit.zkey" "${wtns[@]}")
for ((w = 0; w < workers; ++w)); do
  (while kill -0 "${pids[w]}" 2>/dev/null; do
     echo "$(date +%s.%N) $(awk '/^VmRSS/ { print $2 }' "/proc/${pids[w]}/status")"
     sleep 1
   done) > "$tmp/w$w/rss" 2>/dev/null &
done
"$build/src/cuzk" db await --queue "$conninfo" "$job" >/dev/null
end=$(date +%s.%N)
awk -v p="$partitions" -v w="$workers" -v s="$start" -v e="$end" -v c="$curve $circuit" \
  'BEGIN { printf "%d workers, %d partitions (%s): %.2f s, %.1f partitions/s\n", w, p, c, e - s, p / (e - s) }'
for ((w = 0; w < workers; ++w)); do
  awk -v s="$start" -v w="w$w" '$2 != "" { t[NR] = $1 - s; v[NR] = $2; n = NR }
    END { if (n) printf "%s RSS: %.1f MiB at %.0f s, %.1f MiB at %.0f s, %.1f MiB at %.0f s\n", w,
            v[1] / 1024, t[1], v[int((n + 1) / 2)] / 1024, t[int((n + 1) / 2)], v[n] / 1024, t[n] }' "$tmp/w$w/rss"
done
"$build/src/cuzk" db status --queue "$conninfo"
