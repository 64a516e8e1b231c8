#!/usr/bin/env bash
# The memory-limit stress loop (not a CI step; see README, Benchmarks): run one `check` under a low
# --max-memory RUNS times with LOAD busy processes beside it, and count how each run ended. A run
# may check every case (0) or report the cases that ran out (70); anything else — a signal, an
# empty output, another exit code — is a crash, and its output is kept. This is how the rare
# SIGSEGV of `tools/check: a batch under a low memory limit` was found (December 2026).
#   bench/memory_stress.sh [RUNS=200] [LIMIT=160M] [JOBS=2] [LOAD=2] [BINARY=build/syncproof] [DIR=cases/frames]
# Exit: 0 when no run crashed, else 1.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200} limit=${2:-160M} jobs=${3:-2} load=${4:-2} bin=${5:-build/syncproof} dir=${6:-cases/frames}
[ -x "$bin" ] || { echo "memory_stress: no binary $bin" >&2; exit 2; }
bin=$(realpath "$bin") dir=$(realpath "$dir")
logs=$(mktemp -d /tmp/syncproof-memstress-XXXXXX)
. bench/busy.sh
busy "$load"
echo "memory_stress: $runs runs of check --jobs $jobs --max-memory $limit $dir, $load busy" \
  "processes beside it, logs in $logs; $(uptime)"
declare -A seen=()
crashes=0
for i in $(seq 1 "$runs"); do
  rc=0
  # Each run in a directory of its own with core dumps on, so a crash leaves its core there
  # (kernel.core_pattern "core", the default) for `gdb BINARY CORE`.
  rm -rf "$logs/run" && mkdir "$logs/run"
  (cd "$logs/run" && ulimit -c unlimited && exec "$bin" check --quiet --jobs "$jobs" --max-memory "$limit" "$dir") >"$logs/out" 2>"$logs/err" || rc=$?
  key=$rc
  if [ "$rc" -gt 128 ]; then key="signal $((rc - 128))"; fi
  if { [ "$rc" -ne 0 ] && [ "$rc" -ne 70 ]; } || [ ! -s "$logs/out" ]; then
    crashes=$((crashes + 1))
    mv "$logs/out" "$logs/crash-$i.out"
    mv "$logs/err" "$logs/crash-$i.err"
    for c in "$logs"/run/core*; do [ -e "$c" ] && mv "$c" "$logs/crash-$i.core"; done
    echo "run $i: $key (kept: $logs/crash-$i.*)"
  fi
  seen[$key]=$(( ${seen[$key]:-0} + 1 ))
  if [ $((i % 50)) -eq 0 ]; then echo "  $i runs, $crashes crashed; load $(cut -d' ' -f1-3 /proc/loadavg)"; fi
done
for k in "${!seen[@]}"; do echo "  exit $k: ${seen[$k]} runs"; done
echo "memory_stress: $crashes of $runs runs crashed; $(uptime)"
[ "$crashes" -eq 0 ]
