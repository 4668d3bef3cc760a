#!/usr/bin/env bash
# Builds syclone (installing what is missing) and runs the whole test suite with ctest, then
# builds and runs it again under the sanitizers (CMake presets asan and tsan, README
# "Sanitizers"). Tests labelled `cuda` need an NVIDIA GPU; without one they are reported as
# skipped. Arguments go to every ctest run.
#
# SYCLONE_SANITIZERS: the sanitizer presets run after the default suite (default "asan tsan",
# empty for none).
set -euo pipefail
cd "$(dirname "$0")/.."

# How long each step took: CI (.ci/run, 2 cores) must stay well under 30 minutes.
step_start=$SECONDS
step_done() {
  echo "syclone test: $1 took $((SECONDS - step_start)) s (total $SECONDS s)"
  step_start=$SECONDS
}

scripts/setup.sh
step_done "setup and build"
ctest --preset default "$@"
step_done "default suite"

# A smoke run of the Khronos SYCL-CTS guards the conformance table (conformance/README.md): the
# categories of conformance/cts/smoke.txt, host device, every case in its own process. Skipped
# for a filtered run (arguments to ctest), with SYCLONE_CTS_SMOKE=0, or without a CTS checkout
# (../shared/sycl-cts or $SYCLONE_CTS_DIR).
if [ $# -eq 0 ] && [ "${SYCLONE_CTS_SMOKE:-1}" != 0 ]; then
  scripts/cts.sh --smoke --syclone build --build-dir build/cts-smoke --out build/cts-smoke/table.md
  step_done "CTS smoke"
fi

# ASan+UBSan: the whole suite but what only repeats uninstrumented work; TSan: the runtime's unit
# tests and the concurrent e2e programs (CMakePresets.json says which).
for preset in ${SYCLONE_SANITIZERS-asan tsan}; do
  [ -f "build-$preset/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  step_done "$preset build"
  ctest --preset "$preset" "$@"
  step_done "$preset suite"
done
