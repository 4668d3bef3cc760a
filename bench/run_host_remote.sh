#!/usr/bin/env bash
# The host-device benchmarks of issue 29 on another machine's CPU (the GPU machine's 16 cores,
# which are quiet), from a staged folder: DIR/lib (libsyclone), DIR/host (host_group_kernels,
# host_group_kernels_omp, host_subgroup, and BabelStream's models from bench/babelstream_host.sh
# with the OpenMP runtime). Prints one log; loops and fibers for the group kernels, OpenMP beside.
# Usage: bench/run_host_remote.sh DIR [log2n] [reps]
set -euo pipefail
dir=$(cd "$1" && pwd)
log2n=${2:-22}
reps=${3:-7}
export LD_LIBRARY_PATH="$dir/lib:$dir/host${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_DEVICE_SELECTOR=host
h=$dir/host
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
echo "flags: $(grep -m1 flags /proc/cpuinfo | tr ' ' '\n' | grep -E '^avx(2|512f)$' | tr '\n' ' ')"
SYCLONE_HOST_KERNELS=report "$h/host_group_kernels" "$log2n" "$reps"
SYCLONE_HOST_KERNELS=fibers "$h/host_group_kernels" "$log2n" 3
OMP_PROC_BIND=false "$h/host_group_kernels_omp" "$log2n" "$reps"
"$h/host_subgroup"
for round in 1 2; do
  echo "== BabelStream v5.0, round $round"
  OMP_PROC_BIND=false "$h/omp" -s $((1 << 25)) -n 100 --csv
  for model in sycl2020-usm sycl2020-acc sycl; do
    "$h/$model" -s $((1 << 25)) -n 100 --csv
  done
done
