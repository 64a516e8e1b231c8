#!/usr/bin/env bash
# Installs the Debian packages syncproof needs. Idempotent and quiet when all are present.
# When not root and something is missing, prints the exact command to run and stops.
set -euo pipefail
pkgs=(cmake g++ make libz3-dev z3 libcli11-dev libfmt-dev doctest-dev clang-format nlohmann-json3-dev
      libpugixml-dev graphviz python3-jsonschema libxml2-utils
      directx-headers-dev  # d3d12.h: the standard barriers' names, the recorder's interfaces
      clang libclang-rt-14-dev  # clang: the clang build, the libFuzzer target (fuzz/)
      lld)  # the linker of both builds of scripts/build.sh
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get update -qq && apt-get install -y -qq --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "syncproof setup: missing Debian packages: ${missing[*]}" >&2
  echo "run as root:  sudo sh -c '$cmd'" >&2
  exit 1
fi
echo "syncproof setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
sh -c "$cmd" >/tmp/syncproof-apt.log 2>&1 || { cat /tmp/syncproof-apt.log >&2; exit 1; }
