#!/usr/bin/env bash
# The several-GPUs run (issue 18) on a machine with 2 or more NVIDIA GPUs and nvcc, from a folder
# staged here (scripts/stage_gpu.sh, or the few programs it names below): the multi-device
# tests with every GPU, with the host device as well and with one GPU plus the host; the
# interop tests (cuBLAS through get_native_mem and native commands); the peer-copy bandwidth
# table, syclone against cudaMemcpyPeerAsync in the same run. Logs go to ${OUT:-.}.
# Usage: bench/run_multi_gpu.sh <staged dir with lib/ bin/ e2e/ examples/ bench/>
set -uo pipefail
cd "$(dirname "$0")/.."
b=$1
out=${OUT:-.}
mkdir -p "$out"
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_CACHE_DIR=$(mktemp -d)
failed=0
run() { # run <log name> <env...> -- <program> [args]: records the exit status
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  echo "==== $name: ${envs[*]} $*"
  env "${envs[@]}" timeout 300 "$@" > "$out/$name.log" 2>&1
  local rc=$?
  cat "$out/$name.log"
  echo "==== $name: exit $rc"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then failed=$((failed + 1)); fi
  if [ "$rc" -eq 77 ]; then echo "SKIPPED: $name"; fi
}
{
  nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader
  nvidia-smi topo -m
  "$b/bin/syclone-ls" -v
} > "$out/machine.log" 2>&1
cat "$out/machine.log"

# Every GPU and the host device take turns on the same buffers; then the GPUs alone; then one
# GPU and the host (CUDA_VISIBLE_DEVICES=0).
run multi_device_all -- "$b/e2e/multi_device"
run multi_device_gpus SYCLONE_DEVICE_SELECTOR='cuda:*' -- "$b/e2e/multi_device"
run multi_device_one_gpu CUDA_VISIBLE_DEVICES=0 -- "$b/e2e/multi_device"
for exe in "$b/e2e/backend_interop" "$b/e2e/cuda_interop" "$b/examples/cublas_sgemm"; do
  [ -x "$exe" ] && run "$(basename "$exe")" SYCLONE_DEVICE_SELECTOR=cuda:gpu -- "$exe"
done
# The second GPU as the default device: interop on a device that is not ordinal 0.
run backend_interop_gpu1 SYCLONE_DEVICE_SELECTOR=cuda:1 -- "$b/e2e/backend_interop"

# Peer copies: syclone and native CUDA, same run.
tmp=$(mktemp -d)
if nvcc -O3 -arch=sm_90 bench/cuda_peer_copy_native.cu -o "$tmp/peer_native"; then
  {
    "$b/bench/cuda_peer_copy" 5
    "$tmp/peer_native" 5
    "$b/bench/cuda_peer_copy" 5
  } 2>&1 | tee "$out/peer_copy.log"
else
  echo "nvcc failed" | tee "$out/peer_copy.log"
  failed=$((failed + 1))
fi
echo "run_multi_gpu: $failed failed" | tee "$out/summary.log"
[ "$failed" -eq 0 ]
