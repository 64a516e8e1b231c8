#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh [release|asan|clang]. Quiet unless it
# fails. clang: the release configuration built with clang++ (-Werror too).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DSYNCPROOF_SANITIZE=ON) ;;
  clang) dir=build-clang; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: scripts/build.sh [release|asan|clang]" >&2; exit 64 ;;
esac
log="$dir/build.log"
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" "${flags[@]}" && cmake --build "$dir" -j"$(nproc)"; } >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "syncproof: the $kind build failed (full log: $log)" >&2
  exit 1
fi
