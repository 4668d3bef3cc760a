#!/usr/bin/env bash
# Installs what syclone needs (Debian packages only, and only those missing), then configures
# and builds it with the "default" CMake preset. Safe to run again: it does only what is left.
set -euo pipefail
cd "$(dirname "$0")/.."

# libclang-22-dev: clang's headers, for syclone++'s attribute plugin (tools/syclone-plugin).
# ccache: re-runs of the CTS (scripts/cts.sh) compile only what changed.
packages=(clang-22 llvm-22-dev libclang-22-dev lld-22 libclang-rt-22-dev libomp-22-dev libboost-context-dev
          libgtest-dev googletest ninja-build cmake zlib1g-dev libzstd-dev libedit-dev libffi-dev
          libxml2-dev libcurl4-openssl-dev spirv-tools spirv-headers ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "syclone setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

preset=${SYCLONE_PRESET:-default}
[ -f build/CMakeCache.txt ] || cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
