#!/usr/bin/env bash
# Partitions per second through the PostgreSQL job queue against the same jobs
# sent to cuzkd directly (issue 18's target: within 5%), on one cuzkd:
#   1. a private PostgreSQL server (initdb in a temporary directory, a Unix
#      socket there, no TCP; as `nobody` when run as root);
#   2. one Partition key (cuzk setup on the backend's device) and WITNESSES
#      witnesses of it (cuzk witness, seeds 1..);
#   3. cuzkd with the key preloaded as "direct" and a worker of the queue,
#      where the same file is registered as "queued" (so each path has its own
#      resident copy and neither waits for a load);
#   4. a warm-up job each way, then ROUNDS rounds of the two ways in turn:
#      CLIENTS clients at once, each submitting JOBS jobs of PARTITIONS
#      partitions and awaiting them, timed from the first submit to the last
#      proof taken. Witnesses go by path both ways (cuzk client submit
#      --by-path: wtns_path to cuzkd, a file:// URL through the queue), so
#      both read them from the page cache on the same host.
#   scripts/queue-vs-direct.sh BUILD_DIR [cpu|cuda] [log2 constraints, default 22]
# Knobs: CURVE (default bn254), PARTITIONS (8), JOBS (4), CLIENTS (4), ROUNDS
# (2), WITNESSES (4), PG_BIN (PostgreSQL's programs; default the first
# /usr/lib/postgresql/*/bin), PG_LIBRARY_PATH (their libraries, if elsewhere).
set -euo pipefail
source "$(dirname "$0")/cuzkd-serving.sh"
build=${1:?usage: scripts/queue-vs-direct.sh BUILD_DIR [cpu|cuda] [log2 constraints]}
backend=${2:-cuda}
log=${3:-22}
curve=${CURVE:-bn254}
partitions=${PARTITIONS:-8}
jobs_per_client=${JOBS:-4}
clients=${CLIENTS:-4}
rounds=${ROUNDS:-2}
witnesses=${WITNESSES:-4}
pg_bin=${PG_BIN:-$(compgen -G "/usr/lib/postgresql/*/bin" | sort -V | tail -1)}
[ -x "$pg_bin/initdb" ] || { echo "error: no PostgreSQL programs in '$pg_bin' (set PG_BIN)" >&2; exit 1; }
cuzk=$(realpath "$build/src/cuzk")
cuzkd=$(realpath "$build/src/daemon/cuzkd")
constraints=$((1 << log))
dir=$(mktemp -d)
chmod 755 "$dir"
pid=
as_server_user() {  # PostgreSQL refuses to run as root
  if [ "$(id -u)" = 0 ]; then setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; else "$@"; fi
}
stop_all() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  LD_LIBRARY_PATH=${PG_LIBRARY_PATH:-} as_server_user "$pg_bin/pg_ctl" -D "$dir/pg/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$dir"
}
trap stop_all EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }

mkdir -p "$dir/pg"
[ "$(id -u)" = 0 ] && chown nobody:nogroup "$dir/pg"
LD_LIBRARY_PATH=${PG_LIBRARY_PATH:-} as_server_user "$pg_bin/initdb" -D "$dir/pg/data" -U cuzk --auth=trust --no-sync \
  > "$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
LD_LIBRARY_PATH=${PG_LIBRARY_PATH:-} as_server_user "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w -t 60 \
  -o "-k $dir/pg -c listen_addresses= -c max_connections=100 -c jit=off" start > /dev/null ||
  { cat "$dir/pg/log"; exit 1; }
conninfo="host=$dir/pg user=cuzk dbname=postgres"
"$cuzk" db migrate --queue "$conninfo" > /dev/null
echo "queue-vs-direct: $curve 2^$log Partition, $backend, $clients clients x $jobs_per_client jobs x $partitions" \
  "partitions a round, $rounds rounds; PostgreSQL $(LD_LIBRARY_PATH=${PG_LIBRARY_PATH:-} "$pg_bin/postgres" --version | awk '{ print $3 }')"

t0=$(now)
"$cuzk" setup --backend "$backend" --circuit partition --curve "$curve" --constraints "$constraints" "$dir/key.zkey" \
  > "$dir/setup.log" 2>&1 || { cat "$dir/setup.log"; exit 1; }
wtns=()
for s in $(seq "$witnesses"); do
  "$cuzk" witness --circuit partition --curve "$curve" --constraints "$constraints" --seed "$s" "$dir/w$s.wtns" > /dev/null
  wtns+=("$dir/w$s.wtns")
done
echo "  key and $witnesses witnesses: $(elapsed "$t0" "$(now)") s; key $(du -h "$dir/key.zkey" | cut -f1)," \
  "witness $(du -h "$dir/w1.wtns" | cut -f1)"

"$cuzkd" --listen "unix://$dir/cuzkd.sock" --metrics "" --backend "$backend" --selfcheck false --log-level warn \
  --key "direct=$dir/key.zkey" --queue "$conninfo" --queue-host bench 2> "$dir/cuzkd.log" &
pid=$!
export CUZK_DAEMON="unix://$dir/cuzkd.sock"
wait_serving "$cuzk" "$pid" "$dir/cuzkd.log" 600

# job MODE N: submits N partitions (the witnesses in turn) one way; prints the job id.
job() {
  local files=() i
  for ((i = 0; i < $2; ++i)); do files+=("${wtns[i % witnesses]}"); done
  if [ "$1" = direct ]; then
    "$cuzk" client submit direct --by-path "${files[@]}"
  else
    "$cuzk" client submit --queue queued --key-path "$dir/key.zkey" --by-path "${files[@]}"
  fi
}
# take MODE JOB N: awaits the job and checks that N proofs came back.
take() {
  local flag=()
  [ "$1" = queue ] && flag=(--queue)
  "$cuzk" client await "${flag[@]}" "$2" --out "$dir/out/$1-$2" -q
  local got
  got=$(find "$dir/out/$1-$2" -name 'partition-*.proof.json' | wc -l)
  [ "$got" -eq "$3" ] || { echo "$1 job $2: $got proofs of $3" >&2; return 1; }
}
# round MODE: the clients at once; prints partitions/s.
round() {
  local t0 t1 c pids=()
  t0=$(now)
  for c in $(seq "$clients"); do
    (
      ids=()
      for _ in $(seq "$jobs_per_client"); do ids+=("$(job "$1" "$partitions")"); done
      for id in "${ids[@]}"; do take "$1" "$id" "$partitions"; done
    ) &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  t1=$(now)
  awk -v n=$((clients * jobs_per_client * partitions)) -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", n / (b - a) }'
}

warmup=$((2 * witnesses))
for mode in direct queue; do
  t0=$(now)
  take "$mode" "$(job "$mode" "$warmup")" "$warmup"
  echo "  warm-up $mode: $warmup partitions in $(elapsed "$t0" "$(now)") s"
done
declare -A rates
for r in $(seq "$rounds"); do
  for mode in direct queue; do
    rate=$(round "$mode")
    rates[$mode]="${rates[$mode]:-} $rate"
    echo "  round $r $mode: $rate partitions/s"
  done
done
"$cuzk" client status --queue
mean() { echo "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.3f", s / NF }'; }
d=$(mean "${rates[direct]}")
q=$(mean "${rates[queue]}")
awk -v d="$d" -v q="$q" -v dr="${rates[direct]}" -v qr="${rates[queue]}" \
  'BEGIN { printf "queue %.3f partitions/s (%s) vs direct %.3f (%s): ratio %.3f\n", q, substr(qr, 2), d, substr(dr, 2), q / d }'
