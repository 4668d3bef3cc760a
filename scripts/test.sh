#!/usr/bin/env bash
# Builds syclone (installing what is missing) and runs the whole test suite with ctest.
# Tests labelled `cuda` need an NVIDIA GPU; without one they are reported as skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --preset default "$@"

# A smoke run of the Khronos SYCL-CTS guards the conformance table (conformance/README.md): the
# categories of conformance/cts/smoke.txt, host device, every case in its own process. Skipped
# for a filtered run (arguments to ctest), with SYCLONE_CTS_SMOKE=0, or without a CTS checkout
# (../shared/sycl-cts or $SYCLONE_CTS_DIR).
if [ $# -eq 0 ] && [ "${SYCLONE_CTS_SMOKE:-1}" != 0 ]; then
  scripts/cts.sh --smoke --syclone build --build-dir build/cts-smoke --out build/cts-smoke/table.md
fi
