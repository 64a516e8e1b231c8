#!/usr/bin/env bash
# The executor's full (unreduced) state-space search against SPIN on the same state spaces:
# bench/promela/*.pml are emitted by `syncproof_bench promela CASE` from the lowering (one bit per
# event, an event fires when its ordered predecessors have, a wait when a satisfying signal has),
# so both tools explore exactly the same states, exhaustively for the two small library cases and
# up to ~0.9 million states for the frame-sized one (SPIN: -DMEMLIM=400 MB; the executor: 7
# million transitions). Prints states stored, transitions and states/s for both.
#   bench/spin_compare.sh [BUILD_DIR]       (default: build; needs syncproof_bench built)
# Skips the SPIN half when `spin` or `gcc` is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bench=$build/bench/syncproof_bench
[ -x "$bench" ] || { echo "spin_compare: build $bench first" >&2; exit 1; }
have_spin=1
command -v spin >/dev/null && command -v gcc >/dev/null || have_spin=0
[ $have_spin = 1 ] || echo "spin_compare: spin not installed: executor numbers only"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # case-file, executor budget (transitions), SPIN memory limit in MB (0: none)
  local case=$1 budget=$2 memlim=$3 name
  name=$(basename "$case" .sync)
  "$bench" promela "$case" >"$tmp/$name.pml"
  if ! diff -q "$tmp/$name.pml" "bench/promela/$name.pml" >/dev/null 2>&1; then
    echo "  note: bench/promela/$name.pml differs from the current lowering; using a fresh copy"
  fi
  echo "== $case"
  echo -n "  executor: "
  "$bench" states "$case" "$budget" --runs 5 | sed 's/^[^:]*: //'
  [ $have_spin = 1 ] || return 0
  (
    cd "$tmp"
    spin -a "$name.pml" >/dev/null
    local flags=(-O2 -DSAFETY -DNOFAIR)
    [ "$memlim" = 0 ] || flags+=(-DMEMLIM="$memlim")
    gcc "${flags[@]}" -o pan pan.c
    local start end out
    start=$(date +%s%N)
    local hash=()  # the small spaces: a 2^18-slot hash table, not the default 128 MB one
    [ "$memlim" != 0 ] || hash=(-w18)
    out=$(./pan -m100000 "${hash[@]}" 2>&1 || true)
    end=$(date +%s%N)
    local stored trans ms
    stored=$(echo "$out" | awk '/states, stored/ {print $1}')
    trans=$(echo "$out" | awk '/transitions \(= stored\+matched\)/ {print $1}')
    ms=$(( (end - start) / 1000000 ))
    local elapsed
    elapsed=$(echo "$out" | awk '/pan: elapsed time/ {print $4}')
    echo "  spin:     $stored states stored, $trans transitions, pan's own time ${elapsed}s" \
      "($(awk -v s="$stored" -v e="$elapsed" 'BEGIN { printf "%.0f", (e > 0 ? s / e : 0) }')" \
      "states/s; 0 = below its 10 ms resolution), ${ms} ms wall (process start included);" \
      "$(echo "$out" | grep -E 'errors:' | sed 's/.*errors: /errors: /')$(echo "$out" | grep -q MEMLIM && echo ', memory bound reached')"
  )
}

run cases/redundant/cp-waits-without-need.sync 100000000 0
run cases/redundant/gl2-volatile.sync 100000000 0
run cases/frames/streaming-uploads.sync 7000000 400
