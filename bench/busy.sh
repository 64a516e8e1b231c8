# Sourced by the bench scripts that load the machine: `busy N` starts N busy loops beside the
# script and stops them when it exits.
busy_pids=()
busy_stop() { for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
busy() {
  trap busy_stop EXIT
  for _ in $(seq 1 "$1"); do (while :; do :; done) & busy_pids+=($!); done
}
