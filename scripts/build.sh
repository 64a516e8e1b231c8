#!/usr/bin/env bash
# Configures and builds one configuration: scripts/build.sh [release|asan]. Quiet unless it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCPROOF_WERROR=ON) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DSYNCPROOF_SANITIZE=ON -DSYNCPROOF_WERROR=ON) ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 64 ;;
esac
log="$dir/build.log"
mkdir -p "$dir"
if ! { cmake -S . -B "$dir" "${flags[@]}" && cmake --build "$dir" -j"$(nproc)"; } >"$log" 2>&1; then
  tail -n 60 "$log" >&2
  echo "syncproof: the $kind build failed (full log: $log)" >&2
  exit 1
fi
