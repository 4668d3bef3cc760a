#!/usr/bin/env bash
# Hand-written modules (tests/spirv/data/invalid/*.spvasm), one per rule of seed 003: each is
# assembled by syclone-spirv as and must be reported by syclone-spirv validate with exactly the
# rule its "; expect: <rule> [warning]" line names (exit 1 for an error, 0 for a warning, no
# diagnostic for "none"), its message naming the instruction.
# Environment: SYCLONE_SPIRV, DATA_DIR, WORK_DIR.
set -uo pipefail
mkdir -p "$WORK_DIR"
failures=0
for text in "$DATA_DIR"/*.spvasm; do
  name=$(basename "$text" .spvasm)
  expect=$(sed -n 's/^; expect: //p' "$text")
  rule=${expect%% *}
  level=error
  [[ $expect == *" warning" ]] && level=warning
  if ! "$SYCLONE_SPIRV" as -o "$WORK_DIR/$name.spv" "$text"; then
    echo "FAIL $name: does not assemble"
    failures=$((failures + 1))
    continue
  fi
  "$SYCLONE_SPIRV" validate "$WORK_DIR/$name.spv" > "$WORK_DIR/$name.out" 2>&1
  status=$?
  problem=""
  if [ "$rule" = none ]; then
    [ $status -eq 0 ] && grep -q "0 error(s), 0 warning(s)" "$WORK_DIR/$name.out" ||
      problem="expected no diagnostic"
  else
    reported=$(grep -o '\[[a-z.-]*\]$' "$WORK_DIR/$name.out" | sort -u | tr -d '[]' | tr '\n' ' ')
    [ "$reported" = "$rule " ] || problem="expected rule $rule, got '${reported}'"
    want_status=1
    [ $level = warning ] && want_status=0
    [ $status -eq $want_status ] || problem="$problem; exit status $status, expected $want_status"
    grep -q "^.*$level: instruction [0-9]* \`OpSubgroupBlockPrefetchINTEL" "$WORK_DIR/$name.out" ||
      problem="$problem; the $level does not name the OpSubgroupBlockPrefetchINTEL instruction"
  fi
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem"
    cat "$WORK_DIR/$name.out"
    failures=$((failures + 1))
  else
    echo "ok   $name ($expect)"
  fi
done
exit $((failures > 0))
