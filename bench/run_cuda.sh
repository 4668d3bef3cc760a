#!/usr/bin/env bash
# Runs the GPU benchmarks on a machine with an NVIDIA GPU and nvcc, from a build tree made
# here (build/bench/cuda_* by `cmake --build --preset default --target bench`). Writes the
# log to ${OUT:-.}/cuda_bench.log.
# Usage: bench/run_cuda.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build}
out=${OUT:-.}
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 bench/cuda_native_stream.cu -o "$tmp/native_stream"
nvcc -O3 -arch=sm_90 bench/cuda_native_latency.cu -lcuda -o "$tmp/native_latency"
nvcc -O3 -arch=sm_90 bench/cuda_prefetch_native.cu -o "$tmp/prefetch_native"
nvcc -O3 -arch=sm_90 bench/cuda_subgroup_cub.cu -o "$tmp/subgroup_cub"
nvcc -O3 -arch=sm_90 bench/spec_triad_native.cu -o "$tmp/spec_triad_native"
nvcc -O3 -arch=sm_90 bench/cuda_reduction_cub.cu -o "$tmp/reduction_cub"
export SYCLONE_CACHE_DIR="$tmp/cache"
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for n in $((1 << 27)) $((1 << 28)); do
    "$b/bench/cuda_stream" "$n" 20
    "$tmp/native_stream" "$n" 20
  done
  SYCLONE_JIT_CACHE=0 "$b/bench/cuda_latency"
  echo "--- second process (JIT from the disk cache):"
  "$b/bench/cuda_latency"
  "$b/bench/cuda_latency" | grep first
  "$tmp/native_latency"
  # Specialization constants (issue 5): seed 002's triad trio, then sycl::build of the
  # specialization-constant kernel for a trip count no run used yet: cold (empty JIT disk cache,
  # CUDA's own PTX cache off), from the JIT disk cache (CUDA cache still cold), both warm.
  "$b/bench/cuda_spec_triad"
  "$tmp/spec_triad_native"
  CUDA_CACHE_DISABLE=1 SYCLONE_CACHE_DIR="$tmp/spec-cache" \
    "$b/bench/cuda_spec_triad" --build "cold: empty JIT disk cache, CUDA PTX cache off" 999
  SYCLONE_CACHE_DIR="$tmp/spec-cache" \
    "$b/bench/cuda_spec_triad" --build "second process: JIT disk cache, CUDA PTX cache cold" 999
  SYCLONE_CACHE_DIR="$tmp/spec-cache" \
    "$b/bench/cuda_spec_triad" --build "third process: JIT disk cache, CUDA PTX cache warm" 999
  # Sub-groups (issue 3): sum of 2^28 floats through sub-group and work-group reductions,
  # against cub::DeviceReduce::Sum.
  "$b/bench/cuda_subgroup_reduce"
  "$tmp/subgroup_cub"
  # Reductions (issue 14): BabelStream's Dot at 2^25 and 2^28 doubles and a 2^28-float sum
  # through sycl::reduction, against BabelStream's CUDA dot kernel and cub::DeviceReduce::Sum.
  "$b/bench/cuda_reduction"
  "$tmp/reduction_cub"
  # The two ways of combining the work-groups' results, and a result in shared memory with and
  # without the advice to stay mapped (BabelStream's Dot reads it on the host after each run).
  "$b/bench/cuda_reduction_strategies"
  # Hierarchical kernels (the JIT's hierarchical pass) against the same nd_range kernels.
  "$b/bench/cuda_hierarchical"
  # Prefetch (issue 4): seed 001's tile reduction, a latency-bound walk and a full-occupancy
  # triad, with and without prefetch: syclone, native CUDA with the same PTX, and the host CPU.
  "$b/bench/cuda_prefetch"
  "$tmp/prefetch_native"
  if [ -x "$b/bench/host_prefetch" ]; then "$b/bench/host_prefetch"; fi
} 2>&1 | tee "$out/cuda_bench.log"
if command -v python3 >/dev/null; then
  python3 bench/plot_prefetch.py "$out/cuda_bench.log" -o "$out/prefetch.svg" \
    --markdown "$out/prefetch.md"
fi
