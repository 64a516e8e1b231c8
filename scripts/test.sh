#!/usr/bin/env bash
# The whole test suite: install what is missing, build the two configurations of
# scripts/build.sh (release: GCC; asan: clang with ASan+UBSan and the libFuzzer target, both
# -Werror), then run every CTest test in each tree: in build/ at full size on optimised code (the
# whole-library, fuzz-corpus and frame comparisons, the CLI tests that need a real std::bad_alloc),
# in build-asan/ under the sanitizers (every unit test again, every case file with both engines
# over the library, the libFuzzer run for a fixed 45 s; the full-size comparisons and the reports'
# schema checks stay in build/ only: tests/cases/CMakeLists.txt, the "full-size" suite in
# tests/doctest_main.cpp, tests/CMakeLists.txt). Prints a phase summary at the end
# (scripts/test_summary.py: each phase's time, CTest's time per label, the slowest ten tests) and,
# last, one "N passed, N failed" line.
# Extra arguments go to both CTest runs (e.g. -R REGEX).
set -euo pipefail
cd "$(dirname "$0")/.."
phases=$(mktemp /tmp/syncproof-phases-XXXXXX)
rm -f build/ctest-junit.xml build-asan/ctest-junit.xml
summary() {
  local rc=$?
  python3 scripts/test_summary.py "$phases" build build-asan || true
  rm -f "$phases"
  return $rc
}
trap summary EXIT
# phase NAME COMMAND...: runs COMMAND and records its wall time under NAME.
phase() {
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s%N)
  "$@" || rc=$?
  echo "$((($(date +%s%N) - t0) / 1000000)) $name" >>"$phases"
  return $rc
}
# tests DIR WHAT ARGS...: one CTest run over a whole tree; its output is shown only when it fails.
tests() {
  local dir=$1 what=$2
  shift 2
  if ! ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" --timeout 600 \
    --output-junit ctest-junit.xml "$@" >"$dir/ctest.log" 2>&1; then
    cat "$dir/ctest.log" >&2
    echo "syncproof: $what failed (log: $dir/ctest.log)" >&2
    return 1
  fi
  grep -E '^[0-9]+% tests passed|^Total Test time' "$dir/ctest.log" | sed "s|^|$dir: |"
}
phase "setup (apt-get)" bash scripts/setup.sh
phase "build release (GCC)" bash scripts/build.sh release
phase "build asan (clang, ASan+UBSan, libFuzzer)" bash scripts/build.sh asan
phase "ctest build/ (release)" tests build "the release build's tests" "$@"
# A 32 MB quarantine of freed memory, not ASan's 256 MB: a use after free is still caught while
# the block is among the last 32 MB freed, and the run faults in far fewer fresh pages (measured:
# three of the slowest sanitized tests, 39.9 s -> 33.6 s wall at 16 MB).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=32 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
phase "ctest build-asan/ (sanitizers, libFuzzer)" tests build-asan "the sanitized build's tests" "$@"
