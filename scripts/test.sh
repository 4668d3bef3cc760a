#!/usr/bin/env bash
# Builds syclone (installing what is missing) and runs the whole test suite with ctest.
# Tests labelled `cuda` need an NVIDIA GPU; without one they are reported as skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --preset default "$@"
