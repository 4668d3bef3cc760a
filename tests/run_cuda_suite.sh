#!/usr/bin/env bash
# Runs the GPU (cuda-labelled) programs of a build tree on a machine that has an NVIDIA GPU but
# no CMake/LLVM: every e2e program not marked SYCLONE_E2E_HOST_ONLY, the examples and the GPU
# smoke test, each with SYCLONE_DEVICE_SELECTOR=cuda:gpu. Prints "N passed, N failed".
# Usage: tests/run_cuda_suite.sh <dir with lib/ bin/ e2e/ examples/> [log dir]
# SYCLONE_SUITE_WRAPPER, when set, runs before each program (e.g. "compute-sanitizer --tool
# memcheck --error-exitcode 99"); SYCLONE_SUITE_TIMEOUT is the time limit per program (120 s).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
b=$1
logs=${2:-.}
export LD_LIBRARY_PATH="$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
"$b/bin/syclone-ls" -v
passed=0 failed=0 skipped=0 names=()
limit=${SYCLONE_SUITE_TIMEOUT:-120}
read -r -a wrapper <<<"${SYCLONE_SUITE_WRAPPER:-}"
for exe in "$b"/e2e/* "$b"/examples/* "$b"/bin/cuda_smoke "$b"/bin/jit_failure \
  "$b"/bin/free_in_flight "$b"/bin/memory_pressure "$b"/bin/fault_recovery; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  src="$root/tests/e2e/$name.cpp"
  if [ -f "$src" ] && grep -q SYCLONE_E2E_HOST_ONLY "$src"; then continue; fi
  env=()
  # tests/cuda_unit/jit_failure.cpp: libdevice missing on purpose (as ctest's cuda.jit_failure).
  if [ "$name" = jit_failure ]; then
    env=(SYCLONE_LIBDEVICE=/nonexistent/libdevice.10.bc SYCLONE_CACHE_DIR="$(mktemp -d)")
  fi
  # tests/cuda_unit/memory_pressure.cpp: buffers of twice the memory it may use (as ctest's).
  if [ "$name" = memory_pressure ]; then env=(SYCLONE_DEVICE_MEMORY_LIMIT=64M); fi
  # tests/cuda_unit/fault_recovery.cpp: goes on on the host device when the GPU cannot recover.
  if [ "$name" = fault_recovery ]; then env=("SYCLONE_DEVICE_SELECTOR=cuda:gpu;host:*"); fi
  env "${env[@]}" timeout "$limit" "${wrapper[@]}" "$exe" > "$logs/last.log" 2>&1
  rc=$?
  if [ -n "${SYCLONE_SUITE_WRAPPER:-}" ]; then
    { echo "==== $name (exit $rc)"; cat "$logs/last.log"; } >>"$logs/wrapped.log"
  fi
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
  elif [ "$rc" -eq 77 ]; then
    # The program says why (a library it loads is missing): shown, not counted as a failure.
    skipped=$((skipped + 1))
    echo "SKIPPED: $name: $(tail -1 "$logs/last.log")"
  else
    failed=$((failed + 1))
    names+=("$name")
    echo "FAILED: $name (exit $rc$([ "$rc" -eq 124 ] && echo ", timed out after $limit s"))"
    tail -5 "$logs/last.log"
  fi
done
echo "cuda suite: $passed passed, $failed failed, $skipped skipped ${names[*]:-}"
[ "$failed" -eq 0 ]
