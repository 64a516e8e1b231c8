#!/usr/bin/env bash
# The README's test command RUNS times in a row under load (not a CI step; see README,
# Benchmarks): LOAD busy processes beside it, one line per run (result, wall seconds, load
# average), stopping at the first failure. Run it in a fresh clone: the first run then measures
# the whole command from nothing, the later ones its test phases (the builds are up to date).
#   bench/repeat_test_command.sh [RUNS=5] [LOAD=2]
# Exit: 0 when every run passed, else the failing run's number (its log is kept).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5} load=${2:-2}
logs=$(mktemp -d /tmp/syncproof-repeat-command-XXXXXX)
. bench/busy.sh
busy "$load"
echo "repeat_test_command: $runs runs of scripts/test.sh, $load busy processes beside it, logs in" \
  "$logs; $(git log --oneline -1 | cut -c1-60); $(uptime)"
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if bash scripts/test.sh >"$logs/run-$i.log" 2>&1; then result=pass; else result=FAIL; fi
  echo "run $i: $result in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg)," \
    "$(tail -n 1 "$logs/run-$i.log")"
  [ "$result" = pass ] || exit "$i"
done
echo "repeat_test_command: $runs of $runs runs passed"
