#!/usr/bin/env bash
# Runs the GPU (cuda-labelled) programs of a build tree on a machine that has an NVIDIA GPU but
# no CMake/LLVM: every e2e program not marked SYCLONE_E2E_HOST_ONLY, the examples and the GPU
# smoke test, each with SYCLONE_DEVICE_SELECTOR=cuda:gpu. Prints "N passed, N failed".
# Usage: tests/run_cuda_suite.sh <dir with lib/ bin/ e2e/ examples/> [log dir]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
b=$1
logs=${2:-.}
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
"$b/bin/syclone-ls" -v
passed=0 failed=0 names=()
for exe in "$b"/e2e/* "$b"/examples/* "$b"/bin/cuda_smoke; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  src="$root/tests/e2e/$name.cpp"
  if [ -f "$src" ] && head -1 "$src" | grep -q SYCLONE_E2E_HOST_ONLY; then continue; fi
  timeout 120 "$exe" > "$logs/last.log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    names+=("$name")
    echo "FAILED: $name (exit $rc$([ "$rc" -eq 124 ] && echo ', timed out after 120 s'))"
    tail -5 "$logs/last.log"
  fi
done
echo "cuda suite: $passed passed, $failed failed ${names[*]:-}"
[ "$failed" -eq 0 ]
