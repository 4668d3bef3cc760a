#!/usr/bin/env bash
# syclone-spirv specialize on the pipeline image, with the SpecId map syclone-spirv extract wrote
# next to it: named values land as constants, no OpSpecConstant is left, the result passes our
# validator and (on a copy without what it predates) spirv-val; bad requests fail with a message
# naming the SpecId or name, and leave no output.
# Constants are named by the specialization_id's C++ name (int_id) or the map's own name.
# Environment: SYCLONE_SPIRV, STRIP_NEWER, SPIRV_VAL, IMAGE (the .spv; its .map beside it),
# WORK_DIR.
set -euo pipefail
work=$WORK_DIR/specialize_command
rm -rf "$work" && mkdir -p "$work"
map=${IMAGE%.spv}.map
fail() { echo "FAIL: $*"; exit 1; }
name_of() { grep -m1 "$1" "$map" | cut -d' ' -f1; }

int_id=$(name_of 'L6int_id')
pair_id=$(name_of 'L7pair_id')
bool_spec_id=$(grep -m1 'L7bool_id' "$map" | cut -d' ' -f2)
[ -n "$int_id" ] && [ -n "$pair_id" ] && [ -n "$bool_spec_id" ] || fail "map $map lacks the pipeline's constants"

"$SYCLONE_SPIRV" specialize "$IMAGE" -o "$work/s.spv" --map "$map" \
  --set-name int_id=42 --set-name "$pair_id=9,1.5" --set "$bool_spec_id=0"
"$SYCLONE_SPIRV" dis "$work/s.spv" > "$work/s.spvasm"
! grep -q OpSpecConstant "$work/s.spvasm" || fail "OpSpecConstant left after specialization"
for value in 42 9 1.5; do
  grep -Eq "OpConstant %[A-Za-z0-9_]+ $value\$" "$work/s.spvasm" || fail "no constant $value"
done
"$SYCLONE_SPIRV" validate "$work/s.spv"
"$STRIP_NEWER" "$work/s.spv" "$work/legacy.spv" >/dev/null
"$SPIRV_VAL" "$work/legacy.spv"

expect_error() {
  local pattern=$1
  shift
  if "$SYCLONE_SPIRV" specialize "$IMAGE" -o "$work/bad.spv" "$@" 2> "$work/err"; then
    fail "specialize $* succeeded"
  fi
  grep -q "$pattern" "$work/err" || fail "specialize $*: message lacks '$pattern': $(cat "$work/err")"
  [ ! -e "$work/bad.spv" ] || fail "specialize $* wrote an output"
}
expect_error "SpecId 999" --set 999=1
expect_error "no_such_constant" --map "$map" --set-name no_such_constant=1
expect_error "$bool_spec_id" --set "$bool_spec_id=70000"
echo "ok"
