#!/usr/bin/env bash
# The whole test suite: install what is missing, build the release, clang, fuzz and ASan+UBSan
# configurations (all with -Werror), run the unit tests of the clang build, the libFuzzer target
# for a fixed 60 s (fuzz/), the CLI tests of the release build, then every test under the
# sanitizers with CTest. CTest's summary line is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
bash scripts/build.sh asan
bash scripts/build.sh clang
bash scripts/build.sh fuzz
# quiet_ctest DIR REGEX WHAT: a CTest run whose output is shown only when it fails.
quiet_ctest() {
  if ! ctest --test-dir "$1" --output-on-failure -j"$(nproc)" --timeout 600 -R "$2" \
    >"$1/ctest-quiet.log" 2>&1; then
    cat "$1/ctest-quiet.log" >&2
    echo "syncproof: $3 failed (log: $1/ctest-quiet.log)" >&2
    exit 1
  fi
}
quiet_ctest build-clang '^(model|lang|solver|properties|encode|exec|tools)/' "the clang build's unit tests"
quiet_ctest build-fuzz '^fuzz/libfuzzer$' "the libFuzzer run (crashes: build-fuzz/fuzz/crash-*)"
# The CLI tests once more on the release build: they include the one that needs a real
# std::bad_alloc (--max-memory), which AddressSanitizer's allocator never throws.
quiet_ctest build '^tools/' "the release build's CLI tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 600 "$@"
