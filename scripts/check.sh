#!/usr/bin/env bash
# The main job: install what is missing, build, and check every bundled case (cases/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
exec ./build/syncproof check cases/ "$@"
