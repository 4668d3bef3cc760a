#!/usr/bin/env bash
# Issue 16's submission patterns, syclone against native CUDA, measured so that the machine's
# drift cancels: cuda_native_submission and cuda_submission run in turn, one process each,
# `pairs` times; for each pattern the ratio of syclone's time to the native process just before
# it, pair by pair, and the median of those ratios. On the H100 machines one process against the
# next varies by 5 to 20 % (the native round trip alone: 8.6 to 10.1 us), more than the
# differences measured, so a single pair of runs says little.
# Usage (on the GPU machine, nvcc on the PATH, after scripts/stage_gpu.sh here):
#   bench/run_pairs.sh [staged build = build-gpu] [pairs = 15] [kernels = 5000] [reps = 3]
#                      [pattern = all]   (pattern: one of cuda_submission's, e.g. roundtrip)
# More runtimes, as further columns (the same cuda_submission binary with another
# libsyclone.so and its plugins, and runtime settings): PAIRS_LIBS="name=dir[,VAR=value...] ...".
# Prints every pair's lines, then one line per pattern and runtime:
#   median <pattern> <runtime>/<native variant> <median> (min <min>, max <max>, <n> pairs)
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-gpu}
pairs=${2:-15}
kernels=${3:-5000}
reps=${4:-3}
only=${5:-}
tmp=$(mktemp -d)
export SYCLONE_CACHE_DIR="$tmp/cache"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
nvcc -O3 -arch=sm_90 bench/cuda_native_submission.cu -lcuda -o "$tmp/native_submission"
libs="syclone=$PWD/$b/lib ${PAIRS_LIBS:-}"
# Warm the JIT cache, so that no pair pays for a compilation.
LD_LIBRARY_PATH="$PWD/$b/lib" "$b/bench/cuda_submission" 10 1 roundtrip > /dev/null
for ((i = 1; i <= pairs; ++i)); do
  "$tmp/native_submission" "$kernels" "$reps" $only | sed "s/^result /pair=$i result /"
  for l in $libs; do
    rest=${l#*=}
    settings=""
    [ "${rest#*,}" != "$rest" ] && settings=${rest#*,} && settings=${settings//,/ }
    env LD_LIBRARY_PATH="${rest%%,*}" $settings "$b/bench/cuda_submission" "$kernels" "$reps" $only |
      sed "s/^result /pair=$i result /; s/impl=syclone/impl=${l%%=*}/"
  done
done | grep '^pair=' | tee "$tmp/pairs.txt"
python3 - "$tmp/pairs.txt" <<'PY'
import re, statistics, sys
times = {}  # (pair, pattern, impl, variant) -> us
for line in open(sys.argv[1]):
    m = re.match(r'pair=(\d+) result pattern=(\S+) impl=(\S+) variant=(\S+) us=([\d.]+)', line)
    if m:
        times[(int(m[1]), m[2], m[3], m[4])] = float(m[5])
# What each pattern is compared with: the native loop, and where there is one, the native
# program's other form (two streams, a CUDA Graph replay).
against = {'usm_inorder': ['total'], 'buffer_chain': ['total'], 'two_buffers': ['total', 'two_streams'],
           'empty': ['total'], 'graph': ['total', 'cuda_graph_replay'], 'roundtrip': ['total']}
impls = sorted({k[2] for k in times if k[2] != 'cuda'})
for pattern, variants in against.items():
    for impl in impls:
        for v in variants:
            r = [times[(p, pattern, impl, 'total')] / times[(p, pattern, 'cuda', v)]
                 for p in sorted({k[0] for k in times})
                 if (p, pattern, impl, 'total') in times and (p, pattern, 'cuda', v) in times]
            if r:
                print(f'median {pattern} {impl}/{v} {statistics.median(r):.3f} '
                      f'(min {min(r):.3f}, max {max(r):.3f}, {len(r)} pairs)')
PY
rm -rf "$tmp"
