#!/usr/bin/env bash
# Seed 004 sub-group size attributes through syclone++ and its clang plugin: a kernel calling a
# SYCL_EXTERNAL function of another translation unit links and runs when the sizes match, and is
# a link-time error when the kernel's or the declaration's size differs from the definition's;
# attributes the seed rules out are compile errors; -fsycl-default-sub-group-size is checked; bad
# SYCL 2020 kernel attributes (reqd_work_group_size, device_has) are compile errors, also after a
# lambda's parameter list.
# Usage: sub_group_sizes_test.sh (SYCLONE_CXX=<syclone++>, SOURCE_DIR, WORK_DIR from CMake)
set -euo pipefail
inputs="$SOURCE_DIR/tests/driver/inputs"
work="$WORK_DIR/sub_group_sizes"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}
expect_error() { # <name> <expected text> <command...>
  local name=$1 text=$2
  shift 2
  if "$@" >"$name.log" 2>&1; then
    fail "$name: succeeded, expected an error"
  elif ! grep -q -- "$text" "$name.log"; then
    fail "$name: the error does not say '$text':"
    cat "$name.log"
  fi
}

"$SYCLONE_CXX" -c "$inputs/sg_external_lib.cpp" -o lib.o

# Matching sizes: links, and the kernel runs with sub-group size 8 on the host device.
"$SYCLONE_CXX" "$inputs/sg_external_main.cpp" lib.o -o ok
SYCLONE_DEVICE_SELECTOR=host ./ok || fail "matching sizes: the program failed"

# The kernel's size differs from the function's: a link-time diagnostic.
expect_error kernel_size "kernel .* has sub-group size 16 but calls SYCL_EXTERNAL function 'twice(int)' compiled in lib.o for sub-group size 8" \
  "$SYCLONE_CXX" -DKERNEL_SIZE=16 "$inputs/sg_external_main.cpp" lib.o -o bad
# The declaration lacks the attribute (primary by default) while the definition has 8.
expect_error declaration "SYCL_EXTERNAL function 'twice(int)' is defined in lib.o with sub-group size 8 but .*sg_external_main.cpp calls it with sub-group size primary" \
  "$SYCLONE_CXX" -DDECLARATION= "$inputs/sg_external_main.cpp" lib.o -o bad
# -fsycl-default-sub-group-size=8 gives the bare declaration size 8: links again.
"$SYCLONE_CXX" -fsycl-default-sub-group-size=8 -DDECLARATION= "$inputs/sg_external_main.cpp" \
  lib.o -o default8 || fail "-fsycl-default-sub-group-size=8: the link failed"

expect_error not_power_of_two "must be an integral constant expression with a power of two" \
  "$SYCLONE_CXX" -DBAD=1 -c "$inputs/sg_bad_attributes.cpp" -o bad.o
expect_error two_sizes "only one sub-group size attribute" \
  "$SYCLONE_CXX" -DBAD=2 -c "$inputs/sg_bad_attributes.cpp" -o bad.o
expect_error unknown_name "must be 'automatic' or 'primary'" \
  "$SYCLONE_CXX" -DBAD=3 -c "$inputs/sg_bad_attributes.cpp" -o bad.o
expect_error property_and_attribute "differs from the sub_group_size property" \
  "$SYCLONE_CXX" -DBAD=4 -c "$inputs/sg_bad_attributes.cpp" -o bad.o
expect_error bad_default "use a power of two" \
  "$SYCLONE_CXX" -fsycl-default-sub-group-size=12 -c "$inputs/sg_external_lib.cpp" -o bad.o

# SYCL 2020 kernel attributes: after a lambda's parameter list the plugin applies its own
# attributes to the call operator and keeps clang's error for any other attribute there.
expect_error foreign_type_attribute "'nodiscard' attribute cannot be applied to types" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=1 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
expect_error zero_work_group_size "must be positive integral constant expressions" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=2 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
expect_error not_an_aspect "must be sycl::aspect values" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=3 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
expect_error four_dimensions "takes one, two or three work-group dimensions" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=4 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
expect_error vec_hint_not_vector "'vec_type_hint' takes a scalar arithmetic type or a sycl::vec, not 'not_a_vector'" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=5 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
expect_error vec_hint_expression "expected a type" \
  "$SYCLONE_CXX" -fsycl-targets=host -DBAD=6 -c "$inputs/kernel_attribute_errors.cpp" -o bad.o
"$SYCLONE_CXX" -Werror -DBAD=0 -c "$inputs/kernel_attribute_errors.cpp" -o hinted.o >vec_hint.log 2>&1 ||
  {
    fail "vec_type_hint: valid uses do not compile cleanly:"
    cat vec_hint.log
  }

if [[ $failed -ne 0 ]]; then exit 1; fi
echo "sub-group size checks passed"
