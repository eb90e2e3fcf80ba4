#!/usr/bin/env bash
# A phase of scripts/gpu-check.sh smallmem (cuzk bench ... --after-setup):
# stops the memory holder that an earlier phase started, then, unless LEAVE
# is "none", starts bench/cuzk_gpu_hold holding all of the GPU's free memory
# but LEAVE and returns once it holds it.
#   scripts/gpu-hold-phase.sh LEAVE HOLD_PROGRAM LOG_DIR
set -euo pipefail
leave=$1 hold=$2 logs=$3
pidfile=/tmp/cuzk-gpu-hold.pid
if [ -s "$pidfile" ]; then
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  # Its memory is free once it has exited.
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$pidfile"
fi
[ "$leave" = none ] && exit 0
ready=$(mktemp -u /tmp/cuzk-gpu-hold.XXXXXX)
setsid "$hold" "$leave" "$ready" > "$logs/hold-$leave.log" 2>&1 &
echo $! > "$pidfile"
for _ in $(seq 600); do
  [ -s "$ready" ] && exit 0
  kill -0 "$(cat "$pidfile")" 2>/dev/null || { cat "$logs/hold-$leave.log" >&2; exit 1; }
  sleep 0.2
done
echo "gpu-hold-phase: the holder did not hold its memory within 120 s" >&2
exit 1
