#!/usr/bin/env bash
# Fault injection for every driver call (issue 28): runs tests/cuda_unit/fake_faults.cpp against
# the fake driver once per entry point the program calls and per moment (its first call, and one
# in the middle of the program), with that one call failing; each case in its own process, with a
# time limit. Prints a Markdown table (the README's "Driver failures") and exits 1 if any case
# crashed, hung, lost data, or reported the failure badly.
# Usage: fault_matrix.sh <fake_faults program> <fake driver dir> [table file]
set -u
prog=$1
fake=$2
table=${3:-/dev/null}
export LD_LIBRARY_PATH="$fake${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SYCLONE_DEVICE_SELECTOR=cuda:gpu
entries=$("$prog" --list) || { echo "fault_matrix: the program fails without a fault"; exit 1; }
bad=0
{
  echo "| driver call | fails at call | outcome | errc | names the call | buffer data | queue usable after |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} >"$table"
while read -r entry calls; do
  # What the driver answers: out of memory for allocations, an invalid value otherwise.
  case $entry in
  cuMemAlloc*|cuMemHostAlloc) code=2 ;;
  cuGetErrorString|cuGetErrorName) continue ;; # asked only to word another failure
  *) code=1 ;;
  esac
  moments=1
  [ "$calls" -gt 2 ] && moments="1 $((calls / 2 + 1))"
  for nth in $moments; do
    # A free the driver refuses keeps the memory: LeakSanitizer would count the fake's block.
    leaks=1
    case $entry in cuMemFree*) leaks=0 ;; esac
    out=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=$leaks" FAKE_CUDA_FAIL="$entry:$nth:$code" \
      timeout 60 "$prog" 2>&1)
    rc=$?
    line=$(grep -m1 '^RESULT' <<<"$out")
    if [ "$rc" -eq 124 ]; then verdict="HANG"
    elif [ "$rc" -gt 128 ]; then verdict="CRASH (signal $((rc - 128)))"
    elif [ "$rc" -ne 0 ]; then verdict="FAILED"
    else verdict=ok
    fi
    if [ "$verdict" != ok ]; then
      bad=$((bad + 1))
      echo "fault_matrix: $entry at call $nth: $verdict"
      echo "$out" | tail -5
    fi
    read -r _ outcome errc names data recovered <<<"${line:-RESULT - errc=- names_call=- data=- recovered=-}"
    echo "| \`$entry\` | $nth of $calls | $outcome | ${errc#errc=} | ${names#names_call=} | ${data#data=} | ${recovered#recovered=} |" >>"$table"
  done
done <<<"$entries"
echo "fault_matrix: $(grep -c '^| `' "$table" 2>/dev/null || echo 0) cases, $bad failed"
[ "$bad" -eq 0 ]
