# Sourced by the scripts that time cuzkd (daemon-latency.sh,
# daemon-throughput.sh, queue-vs-direct.sh).
# wait_serving CUZK PID LOG SECONDS: waits until the cuzkd of process PID
# answers `cuzk client status` at $CUZK_DAEMON; prints LOG and exits 1 when
# the process ends first, or when SECONDS pass.
wait_serving() {
  local cuzk=$1 pid=$2 log=$3 tenths=$(($4 * 10)) i
  for ((i = 0; i < tenths; ++i)); do
    "$cuzk" client status > /dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.1
  done
  echo "error: cuzkd did not serve within $4 s" >&2
  cat "$log"
  exit 1
}
