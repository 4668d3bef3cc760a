#!/usr/bin/env bash
# sycl_ext_oneapi_group_load_store against CUB: cuda_group_load_store (syclone, group_load /
# group_store) and cuda_group_load_store_cub.cu (cub::BlockLoad / cub::BlockStore, built here
# with nvcc -arch=sm_90) run in turn, `rounds` times, and for each number of items per work-item
# the median of syclone's bandwidth over CUB's, round by round:
#   work_group / warp_transpose   the blocked pass (CUB's BLOCK_{LOAD,STORE}_WARP_TRANSPOSE)
#   work_group / best             against CUB's fastest algorithm in that round
#   sub_group / warp_transpose    the same pass through sub-groups
#   striped / striped             the coalesced placement, no exchange on either side
#   direct / direct               each work-item's own elements, no extension, no CUB exchange
# Usage (on the GPU machine, nvcc on the PATH, after `cmake --build --preset default --target
# bench` and scripts/stage_gpu.sh here; or here from a build tree, with a GPU):
#   bench/group_load_store/run.sh [build = build-gpu] [n = 2^28] [reps = 20] [rounds = 3]
# Prints every run's `result` line, then `ratio ...` lines (above 1: syclone faster).
set -euo pipefail
cd "$(dirname "$0")/../.."
b=${1:-build-gpu}
n=${2:-$((1 << 28))}
reps=${3:-20}
rounds=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O3 -arch=sm_90 bench/group_load_store/cuda_group_load_store_cub.cu -o "$tmp/cub"
sycl="$b/bench/cuda_group_load_store"
if [ ! -x "$sycl" ]; then
  if [ -x "$b/bin/syclone++" ]; then
    "$b/bin/syclone++" -O3 bench/group_load_store/cuda_group_load_store.sycl.cpp -o "$tmp/sycl"
    sycl="$tmp/sycl"
  else
    echo "no $sycl: build it with cmake --build --preset default --target bench (then stage)" >&2
    exit 1
  fi
fi
export SYCLONE_CACHE_DIR="$tmp/cache"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
export LD_LIBRARY_PATH="$PWD/$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
# JIT-compile the kernels once, so that no round pays for it.
"$sycl" $((1 << 22)) 1 > /dev/null
for ((r = 1; r <= rounds; ++r)); do
  "$tmp/cub" "$n" "$reps" | sed "s/^result /round=$r result /"
  "$sycl" "$n" "$reps" | sed "s/^result /round=$r result /"
done | tee "$tmp/log.txt"
python3 - "$tmp/log.txt" <<'PY'
import re, statistics, sys
gbps = {}  # (round, impl, variant, items) -> GB/s
for line in open(sys.argv[1]):
    m = re.match(r'round=(\d+) result impl=(\S+) variant=(\S+) items=(\d+) ms=\S+ gbps=([\d.]+)', line)
    if m:
        gbps[(int(m[1]), m[2], m[3], int(m[4]))] = float(m[5])
rounds = sorted({k[0] for k in gbps})
items = sorted({k[3] for k in gbps})
pairs = [('work_group', 'warp_transpose'), ('work_group', 'best'), ('sub_group', 'warp_transpose'),
         ('striped', 'striped'), ('direct', 'direct')]
for n in items:
    for ours, theirs in pairs:
        r = []
        for rd in rounds:
            mine = gbps.get((rd, 'syclone', ours, n))
            if theirs == 'best':
                cub = [v for k, v in gbps.items() if k[0] == rd and k[1] == 'cub' and k[3] == n]
                other = max(cub) if cub else None
            else:
                other = gbps.get((rd, 'cub', theirs, n))
            if mine and other:
                r.append(mine / other)
        if r:
            print(f'ratio items={n} syclone/{ours} cub/{theirs} {statistics.median(r):.3f} '
                  f'(min {min(r):.3f}, max {max(r):.3f}, {len(r)} rounds)')
PY
