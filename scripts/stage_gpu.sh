#!/usr/bin/env bash
# Gathers what the GPU machine needs from a build tree (the runtime, the CUDA plugin with its
# static LLVM, syclone-ls, the e2e programs, examples, GPU smoke test and GPU benchmarks) into
# one stripped folder, small enough to carry there: tests/run_cuda_suite.sh and
# bench/run_cuda.sh run from it.
# Usage: scripts/stage_gpu.sh [build-dir] [out-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build}
out=${2:-build-gpu}
rm -rf "$out"
mkdir -p "$out"/{lib,bin,e2e,examples,bench}
cp -a "$b"/lib/libsyclone.so* "$b"/lib/libsyclone-cuda.so "$out/lib/"
# Libraries the runtime needs that a GPU machine may lack (Boost.Context for host fibers).
ldd "$b"/lib/libsyclone.so | awk '/libboost/ {print $3}' | xargs -r cp -L -t "$out/lib/"
cp "$b/bin/syclone-ls" "$out/bin/"
for p in cuda_smoke jit_failure free_in_flight memory_pressure fault_recovery; do
  cp "$b/tests/cuda_unit/programs/$p" "$out/bin/"
done
find "$b/tests/e2e" -maxdepth 1 -type f -executable -exec cp {} "$out/e2e/" \;
find "$b/examples" -maxdepth 1 -type f -executable -exec cp {} "$out/examples/" \;
# Benchmarks are built on request (--target bench); stage those that exist.
find "$b/bench" -maxdepth 1 -type f -name 'cuda_*' -exec cp {} "$out/bench/" \;
# The host side of the prefetch benchmarks runs on the GPU machine's CPU in the same run.
if [ -f "$b/bench/host_prefetch" ]; then cp "$b/bench/host_prefetch" "$out/bench/"; fi
strip --strip-unneeded "$out"/lib/*.so* "$out"/bin/* "$out"/e2e/* "$out"/examples/* "$out"/bench/* 2>/dev/null || true
# A program with device_globals keeps its symbol table: the runtime finds the variables of a GPU
# there (README, sycl_ext_oneapi_device_global).
if [ -f "$b/tests/e2e/device_global" ]; then cp "$b/tests/e2e/device_global" "$out/e2e/"; fi
du -sh "$out"
