#!/usr/bin/env bash
# Flakiness under load (not a CI step; see README, Benchmarks): run a build's whole CTest suite
# RUNS times in a row, stopping at the first failure, with LOAD busy processes beside it to load
# the machine, and print one line per run (result, seconds, load average). A test that depends on
# timing or can hang shows here before it shows in CI.
#   bench/repeat_tests.sh [RUNS=20] [BUILD_DIR=build] [LOAD=0]
# Exit: 0 when every run passed, else the failing run's number (its log is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20} dir=${2:-build} load=${3:-0}
[ -f "$dir/CTestTestfile.cmake" ] || { echo "repeat_tests: no CTest tree in $dir" >&2; exit 2; }
logs=$(mktemp -d /tmp/syncproof-repeat-XXXXXX)
. bench/busy.sh
busy "$load"
echo "repeat_tests: $runs runs of ctest in $dir, $load busy processes beside it, logs in $logs;" \
  "$(git log --oneline -1 | cut -c1-60); $(uptime)"
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if ctest --test-dir "$dir" -j "$(nproc)" >"$logs/run-$i.log" 2>&1; then result=pass; else result=FAIL; fi
  echo "run $i: $result in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg)," \
    "$(grep -E 'tests passed' "$logs/run-$i.log" || echo 'no summary')"
  [ "$result" = pass ] || exit "$i"
done
echo "repeat_tests: $runs of $runs runs passed"
