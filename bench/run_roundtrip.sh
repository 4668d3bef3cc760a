#!/usr/bin/env bash
# Issue 16's round trip (submit one empty kernel, wait, again), syclone against native CUDA,
# measured so that the machine's drift cancels: one process of each in turn, `pairs` times
# (cuda_native_submission and cuda_submission with the pattern `roundtrip`, each the best of
# `reps` runs of `kernels` round trips), the ratio of each pair, and their median. A single pair
# of runs varies by several per cent on the H100 machines (the native loop alone: 8.6 to 9.1 us
# from one process to the next), more than the difference measured.
# Usage (on the GPU machine, nvcc on the PATH, after scripts/stage_gpu.sh here):
#   bench/run_roundtrip.sh [staged build = build-gpu] [pairs = 15] [kernels = 2000] [reps = 5]
# Extra runtimes to compare, as further columns: ROUNDTRIP_LIBS="name=dir name=dir" (each a
# folder with libsyclone.so and its plugins, run with the same cuda_submission binary).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-gpu}
pairs=${2:-15}
kernels=${3:-2000}
reps=${4:-5}
tmp=$(mktemp -d)
export SYCLONE_CACHE_DIR="$tmp/cache"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
nvcc -O3 -arch=sm_90 bench/cuda_native_submission.cu -lcuda -o "$tmp/native_submission"
libs="syclone=$PWD/$b/lib ${ROUNDTRIP_LIBS:-}"
us() { awk -F'us=' '/pattern=roundtrip/ && /variant=total/ {print $2; exit}'; }
# Warm the JIT cache, so that no pair pays for a compilation.
LD_LIBRARY_PATH="$PWD/$b/lib" "$b/bench/cuda_submission" 10 1 roundtrip > /dev/null
for ((i = 1; i <= pairs; ++i)); do
  line="pair $i native $("$tmp/native_submission" "$kernels" "$reps" roundtrip | us)"
  for l in $libs; do
    line+=" ${l%%=*} $(LD_LIBRARY_PATH="${l#*=}" "$b/bench/cuda_submission" "$kernels" "$reps" roundtrip | us)"
  done
  echo "$line"
done | tee "$tmp/pairs.txt"
# Per runtime: the ratio to the native process just before it, pair by pair, and their median.
awk '{
  for (f = 5; f <= NF; f += 2) { name[f] = $f; r[f, NR] = $(f + 1) / $4 }
  n = NR
} END {
  for (f in name) {
    m = 0
    for (i = 1; i <= n; ++i) v[++m] = r[f, i]
    for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    printf "roundtrip %s / native: median %.3f, min %.3f, max %.3f over %d pairs\n", name[f], med, v[1], v[m], m
  }
}' "$tmp/pairs.txt"
rm -rf "$tmp"
