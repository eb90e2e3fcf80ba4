#!/usr/bin/env bash
# cuzkd's request overhead (issue 12's target): a Partition key preloaded,
# then `cuzk client prove` of one witness, REQUESTS times one after another and
# REQUESTS times by each of CLIENTS clients at once; prints the p50 and p99 of
# each request's wall time (process start to exit, as a user sees it), and
# the time of a /metrics scrape. Then where one client's time goes (p50s): the
# cuzk process alone (cuzk --version: start and exit), a Status call (gRPC's
# start, the connection and one small RPC), the Prove call as the client
# timed it, and cuzkd's stages of the same requests.
#   scripts/daemon-latency.sh BUILD_DIR [cpu|cuda] [log2 constraints, default 16]
# Knobs: REQUESTS (default 50), CLIENTS (default 8), CURVE (default bn254),
# CUZKD_FLAGS (more cuzkd flags, e.g. "--finalizer-threads 4").
set -euo pipefail
source "$(dirname "$0")/cuzkd-serving.sh"
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
  --log-level warn --key "bench=$dir/key.zkey" ${CUZKD_FLAGS:-} 2> "$dir/cuzkd.log" &
pid=$!
export CUZK_DAEMON="unix://$dir/cuzkd.sock"
wait_serving "$cuzk" "$pid" "$dir/cuzkd.log" 60

prove() {  # prove TAG: one request, its wall time appended to $dir/TAG.times, its line to $dir/TAG.lines
  local t0 t1
  t0=$(now)
  "$cuzk" client prove bench "$dir/w.wtns" "$dir/$1.proof.json" "$dir/$1.public.json" >> "$dir/${1%%-*}.lines"
  t1=$(now)
  elapsed "$t0" "$t1" >> "$dir/${1%%-*}.times"
}
timed() {  # timed FILE COMMAND...: the command's wall time appended to FILE
  local t0 t1
  t0=$(now)
  "${@:2}" > /dev/null
  t1=$(now)
  elapsed "$t0" "$t1" >> "$1"
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

for _ in $(seq "$requests"); do
  timed "$dir/version.times" "$cuzk" --version
  timed "$dir/status.times" "$cuzk" client status
done
p50() { percentiles "$1" | sed 's/.*p50 \([0-9.]*\) ms.*/\1/'; }
# The p50s of the Prove call as the client timed it and of cuzkd's stages,
# from the lines of the requests in files $@: "... in 0.044 s (queue 0.1 ms,
# synthesis 0.2 ms, prove 31.7 ms, finish 6.2 ms, total 38.2 ms)".
breakdown() {
  cat "$@" | sed -E 's/.* in ([0-9.]+) s \(queue ([0-9.]+) ms, synthesis ([0-9.]+) ms, prove ([0-9.]+) ms, finish ([0-9.]+) ms, total ([0-9.]+) ms\)/\1 \2 \3 \4 \5 \6/' \
    > "$dir/parts"
  part() { awk -v f="$1" -v scale="$2" '{ print $f * scale }' "$dir/parts" > "$dir/part.times"; p50 "$dir/part.times"; }
  echo "the Prove call $(part 1 1) ms, of which on cuzkd: queue $(part 2 1e-3), synthesis $(part 3 1e-3)," \
    "prove $(part 4 1e-3), finish $(part 5 1e-3), total $(part 6 1e-3) ms"
}
echo "  one client, p50 of each part: cuzk --version (process start and exit) $(p50 "$dir/version.times") ms;" \
  "cuzk client status $(p50 "$dir/status.times") ms; $(breakdown "$dir/seq.lines")"
echo "  $clients clients at once, p50 of each part: $(breakdown "$dir"/c*.lines)"
