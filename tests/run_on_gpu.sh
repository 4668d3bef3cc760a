#!/usr/bin/env bash
# Runs a test program on the NVIDIA GPU only (SYCLONE_DEVICE_SELECTOR=cuda:gpu hides the host
# device). Exits 77, which ctest reports as skipped, when this machine has no usable GPU.
# Usage: run_on_gpu.sh <syclone-ls> <program> [args...]
set -u
ls_tool=$1
shift
# SYCLONE_ON_GPU_WITH_HOST=1: a test that also needs the host device says so.
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
if [ "${SYCLONE_ON_GPU_WITH_HOST:-0}" = 1 ]; then export SYCLONE_DEVICE_SELECTOR='cuda:gpu;host:*'; fi
if ! "$ls_tool" 2>/dev/null | grep -q '^\[cuda:gpu'; then
  echo "skipped: no NVIDIA GPU with a working driver on this machine ($("$ls_tool" -v 2>&1 | grep -m1 -i cuda || echo 'no cuda backend'))"
  exit 77
fi
exec "$@"
