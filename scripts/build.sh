#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh [release|asan] [TARGET...] (every
# target by default; scripts/check.sh builds only the syncproof binary). Quiet unless it fails.
# Both are the project's own builds (-Werror), one per compiler, and both are unity builds
# (CMAKE_UNITY_BUILD: a folder's sources compiled a few at a time, which halves the build):
#   release  GCC, -O2 with line tables only (-g1): the tool, the tests at full size, the benchmarks.
#   asan     clang, -O1 with line tables, AddressSanitizer + UndefinedBehaviorSanitizer, and
#            libFuzzer's coverage instrumentation with the libFuzzer target (fuzz/): the whole
#            test suite under the sanitizers, and the fuzz run, from one compilation.
# Assertions stay on in asan (a Debug build, its optimisation level set to -O1) and off in
# release (NDEBUG). The test code itself is compiled a step lower (-O1 in release, -O0 in asan;
# tests/CMakeLists.txt says why), its reference searches at the build's level.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done
# 32 sources a batch, not 8: the batches share their headers' parsing and their common template
# instantiations (measured, release with Ninja, -j2: 7.8 -> 7.45 CPU-minutes, 3m58 -> 3m46).
unity=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=32)
# LLVM's linker for both: it links the test programs, the tool and the benchmarks in half the time
# of GNU ld (measured relinking every program: release 7.2 -> 5.2 s, asan 16.4 -> 8.9 s).
link=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
case "$kind" in
  release) dir=build
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
           -DSYNCPROOF_TEST_FLAGS=-O1 -DSYNCPROOF_TEST_REFERENCE_FLAGS=-O2
           -DSYNCPROOF_WERROR=ON "${unity[@]}" "${link[@]}") ;;
  asan) dir=build-asan
    flags=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only"
           -DCMAKE_CXX_COMPILER=clang++ -DSYNCPROOF_SANITIZE=ON -DSYNCPROOF_FUZZ=ON
           -DSYNCPROOF_TEST_FLAGS=-O0 -DSYNCPROOF_TEST_REFERENCE_FLAGS=-O1
           -DSYNCPROOF_WERROR=ON "${unity[@]}" "${link[@]}") ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 64 ;;
esac
log="$dir/build.log"
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" "${flags[@]}" && cmake --build "$dir" -j"$(nproc)" "${targets[@]}"; } >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "syncproof: the $kind build failed (full log: $log)" >&2
  exit 1
fi
