#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh [release|asan|clang|fuzz]. Quiet
# unless it fails. clang: the release configuration built with clang++ (-Werror too); fuzz: the
# libFuzzer target (fuzz/: clang, -fsanitize=fuzzer,address,undefined).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCPROOF_WERROR=ON) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DSYNCPROOF_SANITIZE=ON -DSYNCPROOF_WERROR=ON) ;;
  clang) dir=build-clang; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DSYNCPROOF_WERROR=ON) ;;
  fuzz) dir=build-fuzz
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DSYNCPROOF_FUZZ=ON -DSYNCPROOF_WERROR=ON) ;;
  *) echo "usage: scripts/build.sh [release|asan|clang|fuzz]" >&2; exit 64 ;;
esac
log="$dir/build.log"
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" "${flags[@]}" && cmake --build "$dir" -j"$(nproc)"; } >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "syncproof: the $kind build failed (full log: $log)" >&2
  exit 1
fi
