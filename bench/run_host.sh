#!/usr/bin/env bash
# Builds and runs the host benchmarks in one go and writes bench/results/host.md.
# Usage: bench/run_host.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build --preset default --target bench >/dev/null
out=$(mktemp -d)
clang++-22 -O3 -march=native -fopenmp bench/host_stream_omp.cpp -o "$out/host_stream_omp"
clang++-22 -O3 -march=native -fopenmp bench/host_reduction_omp.cpp -o "$out/host_reduction_omp"
n=$((1 << 25))
{
  build/bench/host_stream "$n" 20
  OMP_PROC_BIND=false "$out/host_stream_omp" "$n" 20
  build/bench/host_reduction $((1 << 26)) 20
  OMP_PROC_BIND=false "$out/host_reduction_omp" $((1 << 26)) 20
  build/bench/host_latency 10
  build/bench/host_subgroup
} | tee "$out/log.txt"
commit=$(git rev-parse --short HEAD)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
{
  echo "# Host CPU benchmarks"
  echo
  echo "- device: $cpu, $(nproc) cores"
  echo "- date: $(date -u +%Y-%m-%d)"
  echo "- commit: $commit"
  echo "- command: \`bench/run_host.sh\`"
  echo
  echo '```'
  cat "$out/log.txt"
  echo '```'
} > bench/results/host.md.new
echo "wrote bench/results/host.md.new (review, then move to host.md)"
