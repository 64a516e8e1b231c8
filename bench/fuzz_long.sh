#!/usr/bin/env bash
# The long differential fuzz pass (not a CI step; see README, Benchmarks): `syncproof fuzz` over
# COUNT cases in chunks of CHUNK, run on all cores, then one line of totals. Every disagreement is
# shrunk into OUT (default: a scratch directory, not cases/regress).
#   bench/fuzz_long.sh [COUNT=100000] [MAX_COMMANDS=40] [QUEUES=4] [SEED=1000000] [OUT]
# Exit: the worst chunk's exit code (0: no disagreement, no generator or linter bug).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000} max_commands=${2:-40} queues=${3:-4} seed=${4:-1000000}
out=${5:-$(mktemp -d /tmp/syncproof-fuzz-long-XXXXXX)}
chunk=${CHUNK:-1000}
bin=${BIN:-build/syncproof}  # BIN: a copy to keep using while build/ is rebuilt
[ -x "$bin" ] || bash scripts/build.sh release
logs=$(mktemp -d /tmp/syncproof-fuzz-logs-XXXXXX)
echo "fuzz_long: $count cases, up to $max_commands commands on up to $queues queues, seeds" \
  "$seed.., $(nproc) jobs; logs in $logs, shrunk disagreements in $out; $(uptime)"
start=$(date +%s)
seq "$seed" "$chunk" $((seed + count - 1)) |
  xargs -P "$(nproc)" -I{} sh -c \
    "'$bin' fuzz --seed {} --count $chunk --max-commands $max_commands --queues $queues \
       --quiet --out '$out' >'$logs/{}.log' 2>&1; echo \$? >'$logs/{}.rc'"
wall=$(( $(date +%s) - start ))
# Sum the numbers of every chunk's summary line (tools/cmd_fuzz.cpp prints it last).
tail -qn1 "$logs"/*.log >"$logs/summaries"
sum() { grep -oE "[0-9.]+ $1" "$logs/summaries" | awk '{ s += $1 } END { printf "%d", s }'; }
most=$(grep -oE "[0-9]+ at most" "$logs/summaries" | awk '$1 > m { m = $1 } END { print m + 0 }')
weighted=$(grep -oE "[0-9]+ checked by both|[0-9.]+ commands on average" "$logs/summaries" |
  awk '/checked/ { n = $1 } /average/ { s += n * $1 } END { printf "%d", s }')
cases=$(sum "cases \(") checked=$(sum "checked by both") invalid=$(sum "invalid on purpose")
props=$(sum properties) unknown=$(sum "unknown,") errors=$(sum "errors;")
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f%%", b ? 100 * a / b : 0 }'; }
echo "fuzz_long: $cases cases in ${wall}s: $checked checked by both engines, $invalid invalid" \
  "on purpose ($(pct "$invalid" "$cases")); $(awk -v s="$weighted" -v n="$checked" \
  'BEGIN { printf "%.1f", n ? s / n : 0 }') commands on average, $most at most"
echo "fuzz_long: $props properties: $(sum proved) proved, $(sum violated) violated, $unknown" \
  "unknown ($(pct "$unknown" "$props")), $errors errors ($(pct "$errors" "$props")), $(sum \
  "vacuous") vacuous cases"
echo "fuzz_long: $(sum disagreements) disagreements, $(sum "internal errors") internal errors," \
  "$(sum "linter bugs") linter bugs, $(sum "generator bugs") generator bugs"
worst=0
for f in "$logs"/*.rc; do rc=$(cat "$f"); [ "$rc" -gt "$worst" ] && worst=$rc; done
grep -hE "^seed [0-9]+: (ENGINE DISAGREEMENT|internal error|generated case|the linter accepted)" \
  "$logs"/*.log | head -20 || true
exit "$worst"
