#!/usr/bin/env bash
# Flakiness under load (not a CI step; see README, Benchmarks): run a build's whole CTest suite,
# or the README's whole test command, RUNS times in a row, stopping at the first failure, with
# LOAD busy processes beside it to load the machine, and print one line per run (result,
# seconds, load average). A test that depends on timing or can hang shows here before it shows
# in CI.
#   bench/repeat_tests.sh [RUNS=20] [BUILD_DIR=build | scripts/test.sh] [LOAD=0]
# With scripts/test.sh, run it in a fresh clone: the first run then measures the whole command
# from nothing, the later ones its test phases (the builds are up to date).
# Exit: 0 when every run passed, else the failing run's number (its log is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20} dir=${2:-build} load=${3:-0}
if [ "$dir" = scripts/test.sh ]; then
  what="scripts/test.sh"
  run() { bash scripts/test.sh; }
  summary() { tail -n 1 "$1"; }
else
  [ -f "$dir/CTestTestfile.cmake" ] || { echo "repeat_tests: no CTest tree in $dir" >&2; exit 2; }
  what="ctest in $dir"
  run() { ctest --test-dir "$dir" -j "$(nproc)"; }
  summary() { grep -E 'tests passed' "$1" || echo 'no summary'; }
fi
logs=$(mktemp -d /tmp/syncproof-repeat-XXXXXX)
. bench/busy.sh
busy "$load"
echo "repeat_tests: $runs runs of $what, $load busy processes beside it, logs in $logs;" \
  "$(git log --oneline -1 | cut -c1-60); $(uptime)"
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if run >"$logs/run-$i.log" 2>&1; then result=pass; else result=FAIL; fi
  echo "run $i: $result in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg)," \
    "$(summary "$logs/run-$i.log")"
  [ "$result" = pass ] || exit "$i"
done
echo "repeat_tests: $runs of $runs runs passed"
