#!/usr/bin/env bash
# The main job: install what is missing, build the syncproof binary (only it: the tests and
# benchmarks are scripts/test.sh's), and check every bundled case (cases/). Extra arguments go to
# `syncproof check` (e.g. --engine both, --format junit --output r.xml).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release syncproof
exec ./build/syncproof check cases/ "$@"
