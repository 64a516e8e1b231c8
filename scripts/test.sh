#!/usr/bin/env bash
# The whole test suite: install what is missing, build the release and the ASan+UBSan
# configurations (both with -Werror), and run every test under the sanitizers with CTest.
# CTest's summary line is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
bash scripts/build.sh asan
# The CLI tests once more on the release build: they include the one that needs a real
# std::bad_alloc (--max-memory), which AddressSanitizer's allocator never throws.
if ! ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600 -R '^tools/' \
  >build/ctest-tools.log 2>&1; then
  cat build/ctest-tools.log >&2
  echo "syncproof: the release build's CLI tests failed" >&2
  exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 600 "$@"
