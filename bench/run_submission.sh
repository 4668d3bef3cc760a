#!/usr/bin/env bash
# Issue 16 on a machine with an NVIDIA GPU and nvcc: submission throughput (cuda_submission
# against cuda_native_submission, a markdown table), the empty-kernel latency pair, the
# joint_prefetch walk with the PTX and SASS of both sides (syclone's from the JIT dump, nvcc's
# from -ptx and cuobjdump), and the GPU tests of the scheduler (async_submission,
# buffer_ordering, kernel_overlap, queue_wait_many). Writes everything to ${OUT:-.}.
# How to run it (issue 16, helper "perf"):
#   here, in /work/main after a full build:  cmake --build build --target bench &&
#                                            scripts/stage_gpu.sh build build-gpu-perf
#   on the GPU machine (carry build-gpu-perf, about 40 MiB):
#     bench/run_submission.sh build-gpu-perf; tests/run_cuda_suite.sh build-gpu-perf "$OUT"
#   (the second checks every e2e program on the H100 with the multi-stream scheduler).
set -uo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-gpu}
out=${OUT:-.}
mkdir -p "$out/ptx"
tmp=$(mktemp -d)
export SYCLONE_CACHE_DIR="$tmp/cache"
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
nvcc -O3 -arch=sm_90 bench/cuda_native_submission.cu -lcuda -o "$tmp/native_submission"
nvcc -O3 -arch=sm_90 bench/cuda_native_latency.cu -lcuda -o "$tmp/native_latency"
nvcc -O3 -arch=sm_90 bench/cuda_native_launch_forms.cu -lcuda -o "$tmp/launch_forms"
nvcc -O3 -arch=sm_90 bench/cuda_prefetch_native.cu -o "$tmp/prefetch_native"
nvcc -O3 -arch=sm_90 -ptx bench/cuda_prefetch_native.cu -o "$out/ptx/prefetch_native.ptx"
cuobjdump -sass "$tmp/prefetch_native" > "$out/ptx/prefetch_native.sass" 2>&1
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  git log -1 --format='commit %h %s' 2>/dev/null
  echo "=== tests (exit status 0 = pass)"
  for t in async_submission buffer_ordering kernel_overlap queue_wait_many; do
    if [ -x "$b/e2e/$t" ]; then
      timeout 120 "$b/e2e/$t"
      echo "test $t: exit $?"
    fi
  done
  echo "=== submission"
  "$b/bench/cuda_submission" 5000 5
  "$tmp/native_submission" 5000 5
  echo "=== one stream per out-of-order queue (SYCLONE_QUEUE_STREAMS=1), as before issue 16"
  SYCLONE_QUEUE_STREAMS=1 "$b/bench/cuda_submission" 5000 5 two_buffers | sed 's/impl=syclone/impl=syclone_1stream/'
  SYCLONE_QUEUE_STREAMS=1 "$b/bench/cuda_submission" 5000 5 graph | sed 's/impl=syclone/impl=syclone_1stream/'
  echo "=== lazy completion events (SYCLONE_CUDA_LAZY_EVENTS=1), same programs"
  SYCLONE_CUDA_LAZY_EVENTS=1 "$b/bench/cuda_submission" 5000 5 | sed 's/impl=syclone/impl=syclone_lazy/'
  SYCLONE_CUDA_LAZY_EVENTS=1 "$b/bench/cuda_latency"
  for t in async_submission buffer_ordering kernel_overlap queue_wait_many; do
    if [ -x "$b/e2e/$t" ]; then
      SYCLONE_CUDA_LAZY_EVENTS=1 timeout 120 "$b/e2e/$t" > /dev/null 2>&1
      echo "test $t with lazy events: exit $?"
    fi
  done
  echo "=== where a submission's time goes (SYCLONE_SUBMIT_PROFILE, one pattern per process)"
  for p in usm_inorder buffer_chain two_buffers empty graph; do
    echo "--- $p"
    SYCLONE_SUBMIT_PROFILE=1 "$b/bench/cuda_submission" 5000 1 "$p"
  done
  for p in usm_inorder empty; do
    echo "--- ${p}_lazy"
    SYCLONE_CUDA_LAZY_EVENTS=1 SYCLONE_SUBMIT_PROFILE=1 "$b/bench/cuda_submission" 5000 1 "$p"
  done
  echo "=== launch forms (host cost of each form of a launch, native)"
  "$tmp/launch_forms"
  echo "=== latency"
  "$b/bench/cuda_latency"
  "$tmp/native_latency"
  echo "=== prefetch (PTX of the JIT in ptx/)"
  SYCLONE_JIT_CACHE=0 SYCLONE_JIT_DUMP="$out/ptx" "$b/bench/cuda_prefetch"
  "$tmp/prefetch_native"
} 2>&1 | tee "$out/submission.log"
python3 bench/submission_table.py "$out/submission.log" -o "$out/submission.md"
# SASS of syclone's walk kernels, for a side-by-side reading with prefetch_native.sass.
for f in "$out"/ptx/*walk*.ptx; do
  [ -f "$f" ] || continue
  ptxas -O3 -arch=sm_90 "$f" -o "$tmp/k.cubin" && cuobjdump -sass "$tmp/k.cubin" > "${f%.ptx}.sass"
done
# A profile of the submitting thread, when perf is there (symbols: the staged libraries are
# stripped of local symbols, so syclone's own frames show as addresses).
if command -v perf >/dev/null; then
  perf record -q -g -o "$tmp/perf.data" "$b/bench/cuda_submission" 5000 2 >/dev/null 2>&1 &&
    perf report -i "$tmp/perf.data" --stdio --no-children --percent-limit 1 > "$out/perf_submission.txt" 2>&1
fi
ls -la "$out" "$out/ptx"
