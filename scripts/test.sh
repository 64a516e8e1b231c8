#!/usr/bin/env bash
# The whole test suite: install what is missing, build the release and the ASan+UBSan
# configurations (both with -Werror), and run every test under the sanitizers with CTest.
# CTest's summary line is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
bash scripts/build.sh asan
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 600 "$@"
