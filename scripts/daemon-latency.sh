#!/usr/bin/env bash
# cuzkd's request overhead (issue 12's target): a Partition key preloaded,
# then `cuzk client prove` of one witness, REQUESTS times one after another and
# REQUESTS times by each of CLIENTS clients at once; prints the p50 and p99 of
# each request's wall time (process start to exit, as a user sees it), and
# the time of a /metrics scrape.
#   scripts/daemon-latency.sh BUILD_DIR [cpu|cuda] [log2 constraints, default 16]
# Knobs: REQUESTS (default 50), CLIENTS (default 8), CURVE (default bn254).
set -euo pipefail
build=${1:?usage: scripts/daemon-latency.sh BUILD_DIR [cpu|cuda] [log2 constraints]}
backend=${2:-cuda}
log=${3:-16}
requests=${REQUESTS:-50}
clients=${CLIENTS:-8}
curve=${CURVE:-bn254}
cuzk=$build/src/cuzk
cuzkd=$build/src/daemon/cuzkd
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", b - a }'; }
# p50 and p99 of the seconds in file $1, in ms.
percentiles() {
  sort -g "$1" | awk '{ v[NR] = $1 } END {
    p50 = v[int((NR - 1) * 0.50) + 1]; p99 = v[int((NR - 1) * 0.99) + 1];
    printf "n %d, p50 %.1f ms, p99 %.1f ms\n", NR, 1e3 * p50, 1e3 * p99 }'
}

"$cuzk" setup --circuit partition --curve "$curve" --constraints $((1 << log)) "$dir/key.zkey" > /dev/null
"$cuzk" witness --circuit partition --curve "$curve" --constraints $((1 << log)) --seed 1 "$dir/w.wtns" > /dev/null
port=$((20000 + RANDOM % 20000))
"$cuzkd" --listen "unix://$dir/cuzkd.sock" --metrics "127.0.0.1:$port" --backend "$backend" --selfcheck false \
  --log-level warn --key "bench=$dir/key.zkey" 2> "$dir/cuzkd.log" &
pid=$!
export CUZK_DAEMON="unix://$dir/cuzkd.sock"
for _ in $(seq 600); do
  "$cuzk" client status > /dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$dir/cuzkd.log"; exit 1; }
  sleep 0.1
done

prove() {  # prove TAG: one request, its wall time appended to $dir/TAG.times
  local t0 t1
  t0=$(now)
  "$cuzk" client prove bench "$dir/w.wtns" "$dir/$1.proof.json" "$dir/$1.public.json" -q
  t1=$(now)
  elapsed "$t0" "$t1" >> "$dir/${1%%-*}.times"
}

prove warm
for i in $(seq "$requests"); do prove "seq-$i"; done
echo "cuzkd ($backend, $curve 2^$log Partition, key preloaded): cuzk client prove, one client: $(percentiles "$dir/seq.times")"
t0=$(now)
for c in $(seq "$clients"); do
  (for i in $(seq "$requests"); do prove "c$c-$i"; done) &
done
wait $(jobs -p | grep -v "^$pid\$")
t1=$(now)
cat "$dir"/c*.times > "$dir/concurrent.times"
echo "  $clients clients at once: $(percentiles "$dir/concurrent.times"); \
$(awk -v n=$((clients * requests)) -v s="$(elapsed "$t0" "$t1")" 'BEGIN { printf "%.1f", n / s }') proofs/s"
"$cuzk" export-vk "$dir/key.zkey" "$dir/vk.json" > /dev/null
"$cuzk" verify "$dir/vk.json" "$dir/seq-1.public.json" "$dir/seq-1.proof.json" > /dev/null
for i in 1 2 3 4 5; do
  t0=$(now)
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
  cat <&3 > "$dir/metrics.txt"
  exec 3>&-
  t1=$(now)
  elapsed "$t0" "$t1" >> "$dir/scrape.times"
done
echo "  /metrics scrape: $(percentiles "$dir/scrape.times"), $(wc -c < "$dir/metrics.txt") bytes"
