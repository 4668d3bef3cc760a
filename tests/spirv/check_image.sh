#!/usr/bin/env bash
# check_image.sh PROGRAM: the spirv64 image that syclone++ linked into PROGRAM (issue 6 part 4).
#  1. syclone-spirv extract finds it;
#  2. our validator accepts it (seed 003 rules included), warnings allowed;
#  3. Debian's spirv-val accepts a copy without what it predates (OpSubgroupBlockPrefetchINTEL,
#     cache controls), in its universal environment (the image's SPIR-V 1.4 is newer than any
#     OpenCL environment it knows);
#  4. disassembling and assembling it again gives back the same bytes.
# Environment: SYCLONE_SPIRV, STRIP_NEWER, SPIRV_VAL, WORK_DIR.
set -euo pipefail
program=$1
name=$(basename "$program")
work="$WORK_DIR/$name"
rm -rf "$work" && mkdir -p "$work"

if ! "$SYCLONE_SPIRV" extract --list "$program" > "$work/list" 2>&1; then
  if grep -q "holds no device images" "$work/list"; then
    echo "skip: $program has no kernels, so no device image"
    exit 77
  fi
  cat "$work/list"
  exit 1
fi
"$SYCLONE_SPIRV" extract --target spirv64 -o "$work/image" "$program" >/dev/null
spv=$(ls "$work"/image.*.spirv64.spv 2>/dev/null | head -n 1)
[ -n "$spv" ] || { echo "FAIL: $program has no spirv64 image"; exit 1; }

"$SYCLONE_SPIRV" validate "$spv"

"$STRIP_NEWER" "$spv" "$work/legacy.spv"
"$SPIRV_VAL" "$work/legacy.spv"

if "$SYCLONE_SPIRV" help | grep -q '^  as '; then
  "$SYCLONE_SPIRV" dis --raw-id -o "$work/image.spvasm" "$spv"
  "$SYCLONE_SPIRV" as -o "$work/again.spv" "$work/image.spvasm"
  cmp "$spv" "$work/again.spv" || { echo "FAIL: dis/as round trip of $spv differs"; exit 1; }
fi
echo "ok: $spv ($(stat -c %s "$spv") bytes)"
