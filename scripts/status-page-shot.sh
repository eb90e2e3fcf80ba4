#!/usr/bin/env bash
# A screenshot of cuzkd's status page under load (issue 39; docs/DAEMON.md,
# "The status page"):
#   scripts/status-page-shot.sh BUILD_DIR OUT_DIR [cpu|cuda] [log2 constraints]
#     makes a Partition key (cuzk setup), starts cuzkd with it, runs CLIENTS
#     clients that submit jobs of PARTITIONS native partitions for LOAD_S
#     seconds (default 120), and once it has run for SHOT_S seconds (default
#     90) saves the page as cuzkd serves it, with its /status.json of that
#     moment, into OUT_DIR/site/; where Chromium is found, also
#     OUT_DIR/status-page.png.
#   scripts/status-page-shot.sh --site OUT_DIR/site OUT.png
#     the screenshot of a saved site, on a machine with Chromium (the GPU
#     machine has none): the site is served as it was saved, so the page
#     draws the moment it was saved.
# Knobs: CURVE (default bls12_381), PARTITIONS per job (default 8), CLIENTS
# (default 4), SYNTHESIS_THREADS (default 10 with cuda, 2 with cpu), CHROMIUM
# (default: chromium on the PATH).
set -euo pipefail
chromium=${CHROMIUM:-$(command -v chromium || true)}

# shot URL PNG: a headless screenshot once the page's script has drawn.
shot() {
  [ -n "$chromium" ] || { echo "status-page-shot: no chromium here; the site is saved" >&2; return 0; }
  local profile
  profile=$(mktemp -d)
  "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage \
    --user-data-dir="$profile" --virtual-time-budget=5000 --hide-scrollbars --window-size=1280,2200 \
    --screenshot="$2" "$1" > /dev/null 2>&1
  rm -rf "$profile"
  echo "status-page-shot: $2"
}

if [ "${1:-}" = --site ]; then
  site=${2:?usage: scripts/status-page-shot.sh --site SITE_DIR OUT.png}
  out=$(realpath -m "${3:?usage: scripts/status-page-shot.sh --site SITE_DIR OUT.png}")
  [ -n "$chromium" ] || { echo "error: no chromium (scripts/setup.sh installs it)" >&2; exit 1; }
  port=$((20000 + RANDOM % 20000))
  # index.html is the page at "/", as cuzkd serves it.
  (cd "$site" && exec python3 -m http.server --bind 127.0.0.1 "$port") > /dev/null 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null; wait 2>/dev/null' EXIT
  [ -f "$site/status.json" ] || { echo "error: no status.json in $site" >&2; exit 1; }
  for _ in $(seq 50); do
    python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/status.json')" 2> /dev/null && break
    sleep 0.2
  done
  shot "http://127.0.0.1:$port/" "$out"
  exit 0
fi

source "$(dirname "$0")/cuzkd-serving.sh"
build=${1:?usage: scripts/status-page-shot.sh BUILD_DIR OUT_DIR [cpu|cuda] [log2 constraints]}
out=$(realpath -m "${2:?usage: scripts/status-page-shot.sh BUILD_DIR OUT_DIR [cpu|cuda] [log2 constraints]}")
backend=${3:-cuda}
log=${4:-$([ "$backend" = cuda ] && echo 22 || echo 12)}
curve=${CURVE:-bls12_381}
partitions=${PARTITIONS:-8}
clients=${CLIENTS:-4}
load_s=${LOAD_S:-120}
shot_s=${SHOT_S:-90}
threads=${SYNTHESIS_THREADS:-$([ "$backend" = cuda ] && echo 10 || echo 2)}
constraints=$((1 << log))
cuzk=$build/src/cuzk
cuzkd=$build/src/daemon/cuzkd
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
mkdir -p "$out/site"

echo "status-page-shot: $curve 2^$log Partition, $backend, $clients clients x jobs of $partitions for ${load_s} s"
"$cuzk" setup --circuit partition --curve "$curve" --constraints "$constraints" "$dir/key.zkey" --vk "$dir/vk.json" \
  > "$dir/setup.log" 2>&1 || { cat "$dir/setup.log"; exit 1; }
port=$((20000 + RANDOM % 20000))
# Native partitions are proved only where the configuration allows them.
printf '[service]\nnative_circuits = true\n' > "$dir/cuzkd.toml"
"$cuzkd" --config "$dir/cuzkd.toml" --listen "unix://$dir/cuzkd.sock" --metrics "127.0.0.1:$port" --backend "$backend" \
  --synthesis-threads "$threads" --selfcheck false --log-level warn --key "bench=$dir/key.zkey" 2> "$dir/cuzkd.log" &
pid=$!
export CUZK_DAEMON="unix://$dir/cuzkd.sock"
wait_serving "$cuzk" "$pid" "$dir/cuzkd.log" 600

end=$(($(date +%s) + load_s))
for c in $(seq "$clients"); do
  (
    seed=$((c * 1000000))
    while [ "$(date +%s)" -lt "$end" ]; do
      job=$("$cuzk" client submit bench --circuit partition --constraints "$constraints" --seed "$seed" \
              --partitions "$partitions") || break
      "$cuzk" client await "$job" --out "$dir/out-$c" -q || break
      rm -rf "$dir/out-$c"
      seed=$((seed + partitions))
    done
  ) &
done

sleep "$shot_s"
get() { python3 -c "import sys, urllib.request as u; sys.stdout.buffer.write(u.urlopen(sys.argv[1]).read())" "$1"; }
for f in app.js app.css uplot.js uplot.css status.json; do get "http://127.0.0.1:$port/$f" > "$out/site/$f"; done
get "http://127.0.0.1:$port/" > "$out/site/index.html"
echo "status-page-shot: the page and its /status.json saved in $out/site"
shot "http://127.0.0.1:$port/" "$out/status-page.png"
wait_clients() { for p in $(jobs -p); do [ "$p" = "$pid" ] || wait "$p" || true; done; }
wait_clients
kill "$pid"; wait "$pid" || true
pid=
