#!/usr/bin/env bash
# Device-code check for the SPIR-V target (DESIGN.md "Target mapping", STYLE.md "three tiers of
# tests": device code checked without a device). Every e2e program, example and bench SYCL
# source is compiled for spirv64 exactly as syclone++ -fsycl-targets=spirv64 would (the device
# command that `syclone++ -###` prints, attribute plugin included), lowered by LLVM's SPIR-V
# backend and checked by spirv-val. Fails listing every program that does not compile, lower or
# validate, that leave a call to anything but a SPIR-V built-in or syclone's link-step markers
# unresolved, or whose block prefetches lack the constant size the link step needs.
#
# Usage: device_code_test.sh [source.cpp...]   (default: all of them; run by ctest)
#   SYCLONE_CXX   the syclone++ under test
#   SOURCE_DIR    the syclone source tree
#   WORK_DIR      a scratch directory
#   LLC           llc of LLVM 22 (default llc-22)
#   SPIRV_VAL     spirv-val (default spirv-val)
#   SPIRV_DIS     spirv-dis (default spirv-dis)
set -uo pipefail

: "${SYCLONE_CXX:?set SYCLONE_CXX to the syclone++ under test}"
: "${SOURCE_DIR:?set SOURCE_DIR to the syclone source tree}"
: "${WORK_DIR:?set WORK_DIR to a scratch directory}"
LLC=${LLC:-llc-22}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}
SPIRV_DIS=${SPIRV_DIS:-spirv-dis}

# The extensions the SPIR-V target may use: sub-group shuffles and block prefetch
# (SPV_INTEL_subgroups), cache-level hints (SPV_INTEL_cache_controls) and the uniform-group
# arithmetic (SPV_KHR_uniform_group_instructions).
SPIRV_EXTENSIONS=+SPV_INTEL_subgroups,+SPV_INTEL_cache_controls,+SPV_KHR_uniform_group_instructions

if [ $# -gt 0 ]; then
  sources=("$@")
else
  # The e2e programs and examples are linked for spirv64 by the build itself and their images
  # checked by spirv.e2e.* / spirv.example.* (check_image.sh); the benchmarks are not built for
  # spirv64, so their device code is checked here.
  sources=("$SOURCE_DIR"/bench/*.sycl.cpp)
fi

mkdir -p "$WORK_DIR"
failed=()
passed=0
for src in "${sources[@]}"; do
  rel=${src#"$SOURCE_DIR"/}
  name=$(echo "$rel" | tr '/.' '__')
  out=$WORK_DIR/$name
  rm -rf "$out"
  mkdir -p "$out"
  # The program's own driver flags (tests/CMakeLists.txt: SYCLONE_E2E_ARGS on the first line),
  # without its target choice: this test always asks for spirv64.
  extra=()
  first=$(head -n 1 "$src")
  if [[ $first =~ SYCLONE_E2E_ARGS:(.*)$ ]]; then
    for arg in ${BASH_REMATCH[1]}; do
      [[ $arg == -fsycl-targets=* ]] || extra+=("$arg")
    done
  fi
  # The device command syclone++ would run, with its outputs moved into this test's directory.
  if ! "$SYCLONE_CXX" -### -O2 "${extra[@]}" -fsycl-targets=spirv64 -c "$src" -o "$out/x.o" \
      >"$out/driver.txt" 2>&1; then
    failed+=("$rel (driver: $(tail -n 1 "$out/driver.txt"))")
    continue
  fi
  cmd=$(grep -- '--offload-targets=spirv64' "$out/driver.txt" | head -n 1)
  if [ -z "$cmd" ]; then
    failed+=("$rel (syclone++ -### printed no spirv64 device command)")
    continue
  fi
  cmd=$(echo "$cmd" | sed -E \
    -e "s# -o [^ ]+# -o $out/device.bc#" \
    -e "s#-fplugin-arg-syclone-out=[^ ]+#-fplugin-arg-syclone-out=$out/device.sub_groups#")
  if ! (cd "$SOURCE_DIR" && eval "$cmd") >"$out/compile.txt" 2>&1; then
    failed+=("$rel (compile: $(grep -m1 'error' "$out/compile.txt"))")
    continue
  fi
  if ! "$LLC" -O2 -mtriple=spirv64 -filetype=obj --spirv-ext=$SPIRV_EXTENSIONS "$out/device.bc" \
      -o "$out/device.spv" >"$out/llc.txt" 2>&1; then
    failed+=("$rel (llc: $(grep -m1 -i 'error' "$out/llc.txt"))")
    continue
  fi
  if ! "$SPIRV_VAL" "$out/device.spv" >"$out/val.txt" 2>&1; then
    failed+=("$rel (spirv-val: $(head -n 1 "$out/val.txt"))")
    continue
  fi
  "$SPIRV_DIS" "$out/device.spv" -o "$out/device.spvasm"
  # What the module leaves to the link step: built-in variables (BuiltIn-decorated) and
  # syclone's markers only. Any other import is a device function nothing defines (a builtin
  # name LLVM's SPIR-V backend did not recognize, or a host-only function).
  unresolved=$(awk '
    / LinkageAttributes ".*" Import$/ { imported[$2] = 1 }
    / BuiltIn / && $1 == "OpDecorate" { builtin[$2] = 1 }
    END { for (id in imported) if (!(id in builtin)) print substr(id, 2) }' "$out/device.spvasm" |
    grep -Ev '^(__syclone_local_memory|__syclone_spec_constant|__syclone_spirv_prefetch|__syclone_spirv_block_prefetch)$' |
    sort | tr '\n' ' ')
  if [ -n "$unresolved" ]; then
    failed+=("$rel (undefined device functions: $unresolved)")
    continue
  fi
  # The block prefetch marker's size must be a constant the post-pass can read: a power of two
  # in 1..64 (seed 003 OpSubgroupBlockPrefetchINTEL NumBytes).
  bad_block=$(awk '
    $2 == "=" && $3 == "OpConstant" && $4 == "%uint" { value[$1] = $5 }
    $3 == "OpFunctionCall" && $5 == "%__syclone_spirv_block_prefetch" {
      v = value[$7]
      if (!(v == 1 || v == 2 || v == 4 || v == 8 || v == 16 || v == 32 || v == 64)) print $0
    }' "$out/device.spvasm")
  if [ -n "$bad_block" ]; then
    failed+=("$rel (block prefetch without a constant power-of-two size: $(echo "$bad_block" | head -n 1))")
    continue
  fi
  passed=$((passed + 1))
done

echo "spirv64 device code: $passed of ${#sources[@]} programs compile and validate"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAIL: ${#failed[@]} program(s) (logs under $WORK_DIR):" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
