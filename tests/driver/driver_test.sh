#!/usr/bin/env bash
# syclone++ end to end, without a GPU: compiles, links, and checks what the programs register.
# Usage: driver_test.sh <case> (run by ctest; see CMakeLists.txt for the environment).
#   SYCLONE_CXX      the syclone++ under test
#   SOURCE_DIR       the syclone source tree
#   BUILD_DIR        the syclone build tree (for the install case)
#   WORK_DIR         a scratch directory for this case
#   LLVM_TOOLS       directory of llvm-dis, llvm-readelf, llvm-ar
#   CMAKE            the cmake that configured syclone; CXX its C++ compiler
set -euo pipefail

case_name=$1
S=$SYCLONE_CXX
IN=$SOURCE_DIR/tests/driver/inputs
DUMP_SRC=$SOURCE_DIR/tests/driver/dump_images.cpp
W=$WORK_DIR/$case_name
rm -rf "$W"
mkdir -p "$W"
cd "$W"

fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}
# expect_in <file> <extended regex>...: every pattern occurs in the file.
expect_in() {
  local file=$1
  shift
  for pattern in "$@"; do
    grep -Eq -- "$pattern" "$file" || {
      echo "---- $file:" >&2
      cat "$file" >&2
      fail "'$pattern' not found in $file"
    }
  done
}
expect_not_in() {
  local file=$1
  shift
  for pattern in "$@"; do
    if grep -Eq -- "$pattern" "$file"; then
      echo "---- $file:" >&2
      cat "$file" >&2
      fail "'$pattern' unexpectedly found in $file"
    fi
  done
}
# expect_failure <log> <command...>: the command fails; its output goes to <log>.
expect_failure() {
  local log=$1
  shift
  if "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "'$*' succeeded but should have failed"
  fi
}
# The registry dumper (tests/driver/dump_images.cpp), host code only.
dump_object() {
  "$S" -fsycl-targets=host -std=c++20 -I"$SOURCE_DIR/src" -c "$DUMP_SRC" -o dump.o
}
# image_defines <image> <symbol regex>: the device image defines that function.
image_defines() {
  "$LLVM_TOOLS/llvm-dis" "$1" -o "$1.ll" || fail "$1 is not LLVM bitcode"
  expect_in "$1.ll" "^define .*@$2\\("
}
has_device_section() {
  "$LLVM_TOOLS/llvm-readelf" -S "$1" | grep -E '\.syclone\.dev\.nvptx64'
}
twice_kernel=_ZTS12twice_kernel

case $case_name in
two_tu)
  # (a) a kernel in one TU calls a SYCL_EXTERNAL function defined in another.
  "$S" -O2 -c "$IN/kernels.cpp" -o kernels.o
  "$S" -O2 -c "$IN/external.cpp" -o external.o
  dump_object
  # The device code travels in a section the final link drops (SHF_EXCLUDE: flag E).
  has_device_section kernels.o | grep -Eq ' E ' || fail "kernels.o: no excluded device section"
  "$S" kernels.o external.o dump.o -o app
  if has_device_section app; then fail "the executable kept the device section"; fi
  mkdir images
  ./app images >out.txt
  expect_in out.txt "^image nvptx64 llvm-bc [0-9]+ 1$" "^kernel nvptx64 $twice_kernel$" "^images 1$"
  image_defines images/nvptx64.0.img "$twice_kernel"
  image_defines images/nvptx64.0.img _Z5twicei
  # Two TUs instantiating the same kernels (a kernel template, a lambda of an inline function).
  "$S" "$IN/fill_user1.cpp" "$IN/fill_user2.cpp" dump.o -o fill_app
  ./fill_app >fill.txt
  expect_in fill.txt "^image nvptx64 llvm-bc [0-9]+ 3$" "^kernel nvptx64 _ZTS11fill_kernelIiE$" \
    "^kernel nvptx64 _ZTS11fill_kernelIfE$" "^kernel nvptx64 _ZTSZ11fill_lambdaPiEUlvE_$"
  # Two TUs whose kernels are named by internal-linkage types that mangle alike (a lambda in a
  # static function, a class of an anonymous namespace): four kernels, each unit's own.
  "$S" "$IN/tu_local1.cpp" "$IN/tu_local2.cpp" dump.o -o tu_local_app
  ./tu_local_app >tu_local.txt
  expect_in tu_local.txt "^image nvptx64 llvm-bc [0-9]+ 4$"
  [ "$(grep -c '^kernel nvptx64 .*tu_local' tu_local.txt)" = 4 ] ||
    fail "tu_local: expected 4 unit-scoped kernels: $(cat tu_local.txt)"
  ;;

archive)
  # (b) the SYCL_EXTERNAL function in a static archive; the kernel's object in an archive too.
  "$S" -c "$IN/kernels.cpp" -o kernels.o
  "$S" -c "$IN/external.cpp" -o external.o
  "$S" -c "$IN/caller.cpp" -o caller.o
  dump_object
  "$LLVM_TOOLS/llvm-ar" rcs libext.a external.o
  "$LLVM_TOOLS/llvm-ar" rcs libkern.a kernels.o
  # Host code never references twice(): only the device link extracts external.o.
  "$S" kernels.o dump.o -L. -lext -o app_l
  "$S" kernels.o dump.o libext.a -o app_path
  # kernels.o is extracted because caller.o references run_twice.
  "$S" caller.o dump.o libkern.a libext.a -o app_extracted
  # Nothing references kernels.o: the linker leaves it out, and so does the device link...
  "$S" dump.o libkern.a libext.a -o app_unused
  # ...unless the archive is linked whole.
  "$S" dump.o -Wl,--whole-archive libkern.a -Wl,--no-whole-archive libext.a -o app_whole
  for app in app_l app_path app_extracted app_whole; do
    mkdir "$app.images"
    "./$app" "$app.images" >"$app.txt"
    expect_in "$app.txt" "^kernel nvptx64 $twice_kernel$" "^images 1$"
    image_defines "$app.images/nvptx64.0.img" _Z5twicei
  done
  ./app_unused >app_unused.txt
  expect_in app_unused.txt "^images 0$"
  ;;

host_only_code)
  # Issue 11: BabelStream's layout (tests/e2e/babel_layout). The explicit instantiation of a class
  # template with virtual members makes the device compile emit the vtables and every member,
  # host-only ones too; the images hold the kernels and what they reach, nothing else, and what
  # the host-only code needs (queue::submit, operator new, strcmp) is no link error.
  B=$SOURCE_DIR/tests/e2e/babel_layout
  dump_object
  "$S" -O2 -fsycl-targets=nvptx64,spirv64 -c "$B/sycl_stream.cpp" -o sycl_stream.o
  "$S" sycl_stream.o dump.o -o app
  mkdir images
  ./app images >out.txt
  # 6 kernels per instantiation (init, copy, mul, add, triad, dot).
  expect_in out.txt "^image nvptx64 llvm-bc [0-9]+ 12$" "^image spirv64 spirv [0-9]+ 12$"
  host_only='submit_impl|_Znwm|_Znam|_ZdlPv|_ZdaPv|strcmp|strcpy|accumulate|describe|device_summary|read_arrays|_ZTV|_ZTI|g_banner|malloc_device'
  nvptx=$(ls images/nvptx64.*.img)
  "$LLVM_TOOLS/llvm-dis" "$nvptx" -o nvptx.ll || fail "$nvptx is not LLVM bitcode"
  [ "$(grep -Ec '^define .*ptx_kernel' nvptx.ll)" = 12 ] || fail "nvptx64 image: not 12 kernels"
  expect_not_in nvptx.ll "$host_only"
  spirv=$(ls images/spirv64.*.img)
  spirv-dis "$spirv" -o spirv.dis || fail "$spirv is not SPIR-V"
  [ "$(grep -c 'OpEntryPoint Kernel' spirv.dis)" = 12 ] || fail "spirv64 image: not 12 kernels"
  expect_not_in spirv.dis "$host_only"
  ;;

undefined_call)
  # A kernel that calls a function only host code defines: a link error naming the function,
  # the kernel and the unit, and no executable.
  "$S" -c "$IN/undefined_call.cpp" -o undefined_call.o
  "$S" -fsycl-targets=host -c "$IN/host_helper.cpp" -o host_helper.o
  expect_failure log.txt "$S" undefined_call.o host_helper.o -o app
  expect_in log.txt \
    "syclone\+\+: error: undefined device function 'host_helper\(int\)' \(_Z11host_helperi\)" \
    "used by kernel 'main::calls_undefined' in undefined_call.o"
  [ ! -e app ] || fail "an executable was written despite the error"
  ;;

missing_external)
  # (c) the kernel's SYCL_EXTERNAL function is defined nowhere.
  "$S" -c "$IN/kernels.cpp" -o kernels.o
  dump_object
  expect_failure log.txt "$S" kernels.o dump.o -o app
  expect_in log.txt "syclone\+\+: error: undefined device function 'twice\(int\)' \(_Z5twicei\)" \
    "kernel 'twice_kernel'" "in kernels.o" "SYCL_EXTERNAL"
  [ ! -e app ] || fail "an executable was written despite the error"
  # The same through a one-step build names the source.
  expect_failure log2.txt "$S" "$IN/kernels.cpp" dump.o -o app
  expect_in log2.txt "undefined device function 'twice\(int\)'.* in $IN/kernels.cpp"
  ;;

spec_constants)
  # The specialization constants each kernel reads, recorded in the image (descriptor version 2):
  # read directly, through a helper, through a SYCL_EXTERNAL function of another object.
  dump_object
  first=_ZTSN4sycl3_V16detail17spec_constant_tagIL_Z5firstEEE
  second=_ZTSN4sycl3_V16detail17spec_constant_tagIL_Z6secondEEE
  third=_ZTSN4sycl3_V16detail17spec_constant_tagIL_Z5thirdEEE
  for opt in -O0 -O2; do
    "$S" $opt -c "$IN/spec_kernels.cpp" -o spec_kernels.o
    "$S" $opt -c "$IN/spec_external.cpp" -o spec_external.o
    "$S" spec_kernels.o spec_external.o dump.o -o app$opt
    "./app$opt" >out$opt.txt
    expect_in out$opt.txt "^image nvptx64 llvm-bc [0-9]+ 4$" \
      "^spec nvptx64 _ZTS13direct_kernel $first$" \
      "^spec nvptx64 _ZTS13helper_kernel $first$" "^spec nvptx64 _ZTS13helper_kernel $second$" \
      "^spec nvptx64 _ZTS15external_kernel $third$" "^app_kernel _ZTS11none_kernel$"
    expect_not_in out$opt.txt "^spec nvptx64 _ZTS11none_kernel" \
      "^spec nvptx64 _ZTS13direct_kernel _.*second" "^spec nvptx64 _ZTS15external_kernel .*first"
  done
  # Without device code the host program still lists its kernels (get_kernel_ids).
  "$S" -fsycl-targets=host "$IN/spec_kernels.cpp" "$IN/spec_external.cpp" dump.o -o app_host
  ./app_host >host.txt
  expect_in host.txt "^images 0$" "^app_kernel _ZTS13direct_kernel$" "^app_kernel _ZTS11none_kernel$"
  # What SYCL 2020 makes unavailable does not compile.
  expect_failure use_input.txt "$S" -fsyntax-only -DUSE_INPUT "$IN/bundle_misuse.cpp"
  expect_in use_input.txt "use_kernel_bundle takes an executable bundle"
  expect_failure set_exe.txt "$S" -fsyntax-only -DSET_EXE "$IN/bundle_misuse.cpp"
  expect_in set_exe.txt "no matching member function for call to 'set_specialization_constant'"
  expect_failure get_kernel.txt "$S" -fsyntax-only -DGET_KERNEL_INPUT "$IN/bundle_misuse.cpp"
  expect_in get_kernel.txt "no matching member function for call to 'get_kernel'"
  "$S" -fsyntax-only "$IN/bundle_misuse.cpp" || fail "bundle_misuse.cpp without misuse"
  ;;

host_only)
  # (d) -fsycl-targets=host: no device code, no image.
  "$S" -fsycl-targets=host -c "$IN/kernels.cpp" -o kernels.o
  if has_device_section kernels.o; then fail "host-only object has a device section"; fi
  dump_object
  "$S" -fsycl-targets=host kernels.o dump.o -o app
  ./app >out.txt
  expect_in out.txt "^images 0$"
  # At link time -fsycl-targets=host drops the device code of objects that have it.
  "$S" -c "$IN/kernels.cpp" -o kernels_dev.o
  "$S" -c "$IN/external.cpp" -o external.o
  "$S" -fsycl-targets=host kernels_dev.o external.o dump.o -o app2
  ./app2 >out2.txt
  expect_in out2.txt "^images 0$"
  ;;

verbose)
  # (e) -v prints every command; -### prints without running.
  "$S" -v -O2 -DVALUE=3 -c "$IN/kernels.cpp" -o kernels.o 2>compile.txt
  expect_in compile.txt \
    "clang\+\+[^ ]* -fsycl -fsycl-host-only .*-O2 -DVALUE=3 .*kernels\.cpp -c -o kernels\.o" \
    "clang\+\+[^ ]* -fsycl -fsycl-device-only --offload-targets=nvptx64-nvidia-cuda -nocudalib .*-O2 -DVALUE=3 .*-c -emit-llvm" \
    "embed the nvptx64 device code in kernels\.o"
  "$S" -c "$IN/external.cpp" -o external.o
  dump_object
  "$S" -v kernels.o external.o dump.o -o app 2>link.txt
  expect_in link.txt "register\.cpp" "clang\+\+[^ ]* .*kernels\.o external\.o dump\.o .*register\.o .*-lsyclone"
  ./app >/dev/null
  "$S" '-###' -c "$IN/kernels.cpp" -o dry.o 2>dry.txt
  expect_in dry.txt "-fsycl-host-only" "-fsycl-device-only"
  [ ! -e dry.o ] || fail "-### wrote an object"
  "$S" --version >version.txt
  expect_in version.txt "^syclone\+\+ version" "nvptx64" "^clang: "
  ;;

unknown_target)
  # (f) an unknown -fsycl-targets value names the accepted ones.
  expect_failure log.txt "$S" -fsycl-targets=nvptx64,gfx90a -c "$IN/kernels.cpp" -o kernels.o
  expect_in log.txt "syclone\+\+: error: unknown SYCL target 'gfx90a'" "nvptx64" "host"
  [ "$(wc -l <log.txt)" -eq 1 ] || fail "expected one line"
  [ ! -e kernels.o ] || fail "an object was written"
  # The triple is an accepted alias.
  "$S" -fsycl-targets=nvptx64-nvidia-cuda -c "$IN/kernels.cpp" -o kernels.o
  has_device_section kernels.o >/dev/null || fail "alias nvptx64-nvidia-cuda gave no device code"
  ;;

syntax_error)
  # (g) clang's diagnostic, once (host and device both report it), and a failing status.
  expect_failure log.txt "$S" -c "$IN/syntax_error.cpp" -o bad.o
  expect_in log.txt "syntax_error\.cpp:4:[0-9]+: error: expected ';'"
  [ "$(grep -c "error: expected ';'" log.txt)" -eq 1 ] || fail "the diagnostic is not shown once"
  [ ! -e bad.o ] || fail "an object was written"
  # Errors only the device compile finds name the target.
  printf '%s\n' '#include "kernel_entry.hpp"' \
    '#ifdef __SYCL_DEVICE_ONLY__' 'int device_only = undeclared_name;' '#endif' >device_error.cpp
  expect_failure log2.txt "$S" -I"$IN" -c device_error.cpp -o device_error.o
  expect_in log2.txt "use of undeclared identifier 'undeclared_name'" \
    "device compilation of device_error\.cpp for target nvptx64 failed"
  [ ! -e device_error.o ] || fail "an object was written"
  # clang missing: one line saying how to install it.
  expect_failure log3.txt env SYCLONE_CLANG=/nonexistent/clang++-22 "$S" -c "$IN/kernels.cpp"
  expect_in log3.txt "apt-get install clang-22"
  [ "$(wc -l <log3.txt)" -eq 1 ] || fail "expected one line"
  ;;

device_checks)
  # C math functions resolve at run time (libdevice); exceptions are refused with the reason.
  dump_object
  "$S" -O2 "$IN/math.cpp" dump.o -o app
  ./app >out.txt
  expect_in out.txt "^kernel nvptx64 _ZTS11math_kernel$"
  expect_failure log.txt "$S" "$IN/throws.cpp" dump.o -o app2
  expect_in log.txt "kernel 'throwing_kernel' throws an exception .*SYCL 2020 5\.4"
  ;;

one_step)
  # Sources, a C file and the dumper compiled and linked in one command.
  mkdir images
  "$S" -std=c++20 -I"$SOURCE_DIR/src" "$IN/kernels.cpp" "$IN/external.cpp" "$IN/c_helper.c" \
    "$DUMP_SRC" -o app
  ./app images >out.txt
  expect_in out.txt "^kernel nvptx64 $twice_kernel$" "^images 1$"
  image_defines images/nvptx64.0.img _Z5twicei
  # A .c source is C++ to syclone++, as to clang++ and icpx -fsycl (Makefiles that compile every
  # source with $(CXX) rely on it), with a warning; -x c before it keeps it C (issue 30).
  cat >sycl_in_c.c <<'SRC'
#include <sycl/sycl.hpp>
#include <cstdio>
int main() {
  sycl::queue q;
  int* v = sycl::malloc_shared<int>(4, q);
  q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { v[i] = int(i[0]) * 3; }).wait();
  std::printf("sum %d\n", v[0] + v[1] + v[2] + v[3]);
  sycl::free(v, q);
}
SRC
  "$S" -fsycl-targets=host sycl_in_c.c -o sycl_in_c 2>warn.txt
  expect_in warn.txt "treating 'c' input '.*sycl_in_c\.c' as 'c\+\+'"
  ./sycl_in_c >out.txt
  expect_in out.txt "^sum 18$"
  printf 'int answer(void) { int new = 42; return new; }\n' >plain.c
  "$S" -x c -c plain.c -o plain.o
  expect_failure log.txt "$S" -fsycl-targets=host -c plain.c -o plain2.o
  # -c with several sources names the objects after them.
  "$S" -c "$IN/kernels.cpp" "$IN/external.cpp"
  has_device_section kernels.o >/dev/null && has_device_section external.o >/dev/null ||
    fail "objects of a multi-source -c lack device code"
  ;;

cuda_source)
  # A .cu source (or -x cuda) is SYCL C++ in which CUDA's execution-space qualifiers mean what
  # they say to DPC++ given a .cu with -fsycl: a __device__ function is one SYCL kernels call,
  # here defined in the .cu and called from a kernel of another unit, on the host device and in
  # the nvptx64 device code (issue 30; the CTS's cuda_interop category links one in). What needs
  # CUDA's own language is an error naming the SYCL way.
  cat >device.cu <<'SRC'
#include <sycl/sycl.hpp>
SYCL_EXTERNAL __host__ __device__ int scaled(int x) { return 3 * x + 1; }
template <typename T> __device__ __forceinline__ T twice(T x) { return x + x; }
SYCL_EXTERNAL __device__ int twice_scaled(int x) { return twice(scaled(x)); }
SRC
  cat >main.cpp <<'SRC'
#include <sycl/sycl.hpp>
#include <cstdio>
SYCL_EXTERNAL int twice_scaled(int x);
int main() {
  sycl::queue q;
  int* v = sycl::malloc_shared<int>(4, q);
  q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { v[i] = twice_scaled(int(i[0])); }).wait();
  std::printf("values %d %d %d %d\n", v[0], v[1], v[2], v[3]);
  sycl::free(v, q);
}
SRC
  "$S" -fsycl-targets=host device.cu main.cpp -o app 2>warn.txt
  expect_not_in warn.txt "treating"
  ./app >out.txt
  expect_in out.txt "^values 2 8 14 20$"
  # For nvptx64: the function is in the linked device image; SYCL_BACKEND_CUDA is defined.
  "$S" -c device.cu -o device.o
  has_device_section device.o >/dev/null || fail "device.o lacks device code"
  "$S" -c -x cuda device.cu -o device_x.o
  has_device_section device_x.o >/dev/null || fail "device_x.o (-x cuda) lacks device code"
  printf '#include <sycl/sycl.hpp>\n#ifndef SYCL_BACKEND_CUDA\n#error no SYCL_BACKEND_CUDA\n#endif\n' >backend.cpp
  "$S" -fsyntax-only backend.cpp
  printf '#include <sycl/sycl.hpp>\n#ifdef SYCL_BACKEND_CUDA\n#error SYCL_BACKEND_CUDA for the host\n#endif\n' >host_backend.cpp
  "$S" -fsycl-targets=host -fsyntax-only host_backend.cpp
  printf '__global__ void k(int* p) { *p = 1; }\n' >kernel.cu
  expect_failure log.txt "$S" -fsycl-targets=host -c kernel.cu -o kernel.o
  expect_in log.txt "a CUDA kernel \(__global__\) needs CUDA's language"
  ;;

shared_library)
  # A shared library registers its own image when loaded.
  "$S" -shared -fPIC "$IN/unnamed.cpp" "$IN/kernels.cpp" "$IN/external.cpp" -o libkernels.so
  dump_object
  "$S" dump.o -L. -lkernels -Wl,-rpath,"$W" -Wl,--no-as-needed -o app
  ./app >out.txt
  expect_in out.txt "^image nvptx64 llvm-bc [0-9]+ 2$" "^kernel nvptx64 $twice_kernel$" \
    "^kernel nvptx64 _ZTSZ11run_unnamedPfEUlvE_$"
  ;;

partial_link)
  # ld -r keeps the device code of both objects in one section; the final link splits it.
  "$S" -c "$IN/kernels.cpp" -o kernels.o
  "$S" -c "$IN/external.cpp" -o external.o
  "$S" -r kernels.o external.o -o combined.o
  has_device_section combined.o >/dev/null || fail "partial link dropped the device code"
  dump_object
  mkdir images
  "$S" combined.o dump.o -o app
  ./app images >out.txt
  expect_in out.txt "^kernel nvptx64 $twice_kernel$"
  image_defines images/nvptx64.0.img _Z5twicei
  ;;

launcher)
  # CMake's launcher form: syclone++ --launcher [own flags] <compiler> <args>.
  "$S" --launcher "$CXX" -c "$IN/kernels.cpp" -o kernels.o
  has_device_section kernels.o >/dev/null || fail "launcher compile has no device code"
  "$S" --launcher -fsycl-targets=host "$CXX" -c "$IN/kernels.cpp" -o host.o
  if has_device_section host.o; then fail "launcher -fsycl-targets=host has device code"; fi
  "$S" --launcher "$CXX" -c "$IN/external.cpp" -o external.o
  dump_object
  echo "kernels.o external.o dump.o" >objects.rsp
  "$S" --launcher "$CXX" @objects.rsp -o app
  ./app >out.txt
  expect_in out.txt "^kernel nvptx64 $twice_kernel$"
  ;;

install)
  # (h) the installed tree, moved to another prefix, used through find_package(syclone).
  "$CMAKE" --install "$BUILD_DIR" --prefix "$W/staged" >install.txt
  mv "$W/staged" "$W/prefix"
  "$W/prefix/bin/syclone++" --version >version.txt
  expect_in version.txt "headers: $W/prefix/include" "runtime: $W/prefix/lib.* \(installed\)"
  [ -f "$W/prefix/lib/cmake/syclone/sycloneConfig.cmake" ] || fail "no sycloneConfig.cmake"
  "$CMAKE" -S "$SOURCE_DIR/tests/driver/install_project" -B build -G Ninja \
    -DCMAKE_PREFIX_PATH="$W/prefix" -DCMAKE_CXX_COMPILER="$CXX" \
    -DSYCLONE_SOURCE_DIR="$SOURCE_DIR" >configure.txt 2>&1 || {
    cat configure.txt >&2
    fail "configure failed"
  }
  "$CMAKE" --build build -- -v >build.txt 2>&1 || {
    cat build.txt >&2
    fail "build failed"
  }
  expect_in build.txt "$W/prefix/bin/syclone\+\+ --launcher"
  mkdir images
  build/app images >app.txt
  expect_in app.txt "^kernel nvptx64 $twice_kernel$" "^images 1$"
  image_defines images/nvptx64.0.img _Z5twicei
  build/host_app >host_app.txt
  expect_in host_app.txt "^images 0$"
  ;;

host_loops)
  # Issue 29: the host compile runs the work-item loop compiler. A kernel with a barrier becomes
  # a .work_group_loops function that no longer calls the barrier builtin (the regions are
  # loops); at -O0 the marker call stays and the runtime runs the kernel on fibers.
  cat >barrier.cpp <<'SRC'
#include <sycl/sycl.hpp>
void tile(sycl::queue& q, float* p) {
  q.submit([&](sycl::handler& h) {
    sycl::local_accessor<float> t(64, h);
    h.parallel_for(sycl::nd_range<1>(1024, 64), [=](sycl::nd_item<1> it) {
      t[it.get_local_id(0)] = p[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      p[it.get_global_id(0)] = t[63 - it.get_local_id(0)];
    });
  });
}
SRC
  "$S" -fsycl-targets=host -O2 -fsycl-host-only -S -emit-llvm barrier.cpp -o o2.ll
  expect_in o2.ll "^define internal .*\\.work_group_loops\\(ptr"
  awk '/^define internal .*work_group_loops/,/^}/' o2.ll >loops.ll
  expect_in loops.ll "__syclone_host_loop_storage|load"
  expect_not_in loops.ll "call void @__syclone_host_barrier" "__syclone_host_work_group_loops"
  expect_not_in o2.ll "call .*@__syclone_host_work_group_loops"
  "$S" -fsycl-targets=host -O0 -fsycl-host-only -S -emit-llvm barrier.cpp -o o0.ll
  expect_in o0.ll "call .*@__syclone_host_work_group_loops"
  expect_not_in o0.ll "\\.work_group_loops\\(ptr"
  # Sub-groups as vectors: a kernel with sub-group shifts also gets loops whose lane loop is a
  # sub-group of 8 and of 16 work-items, chosen at run time; on AVX2 the lane loop of 8 becomes
  # vector code: one vector load of the neighbours' slots at the shift's offset, no gather.
  cat >shift.cpp <<'SRC'
#include <sycl/sycl.hpp>
void shifts(sycl::queue& q, float* p) {
  q.parallel_for(sycl::nd_range<1>(1024, 64), [=](sycl::nd_item<1> it) {
    sycl::sub_group sg = it.get_sub_group();
    float v = p[it.get_global_id(0)];
    for (std::uint32_t d = sg.get_max_local_range()[0] / 2; d > 0; d /= 2)
      v += sycl::shift_group_left(sg, v, d);
    p[it.get_global_id(0)] = v;
  });
}
SRC
  # (-fno-sanitize=all: a sanitized build's syclone++ instruments host code, which keeps loops
  # scalar; the IR is what is checked here.)
  "$S" -fsycl-targets=host -O2 -mavx2 -fno-sanitize=all -fsycl-host-only -S -emit-llvm shift.cpp \
    -o shift.ll
  expect_in shift.ll "^define internal .*\\.work_group_loops\\.sg16\\(ptr" \
    "^define internal .*\\.work_group_loops\\.sg8\\(ptr"
  awk '/^define internal .*work_group_loops.sg8/,/^}/' shift.ll >sg8.ll
  expect_in sg8.ll "load <8 x float>" "fadd <8 x float>"
  expect_not_in sg8.ll "masked.gather" "__syclone_host_sub_group"
  # The shifts' exchanges stay in registers (a chain of regions per sub-group, its loop over the
  # shifts unrolled, exchange_forwarding): the one vector load is p's, the one store p's, and the
  # neighbours' values are shuffles.
  [ "$(grep -c "load <8 x float>" sg8.ll)" = 1 ] || fail "a shift reads the slots from memory"
  [ "$(grep -c "store " sg8.ll)" = 1 ] || fail "the shifts' values are stored to the slots"
  expect_in sg8.ll "shufflevector <8 x float>"
  # A sub-group size the launch's properties require: loops for that size alone (32 here, which
  # the primary sizes do not cover). The reduction there is a tree over the sub-group's slots,
  # computed where the leader writes it, and the leader-only region visits one lane per
  # sub-group (no per-lane chain of 31 selects).
  cat >leader.cpp <<'SRC'
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
void leader(sycl::queue& q, const float* in, float* out) {
  q.parallel_for(sycl::nd_range<1>(1024, 64), syclex::properties{syclex::sub_group_size<32>},
                 [=](sycl::nd_item<1> it) {
                   sycl::sub_group sg = it.get_sub_group();
                   float s = sycl::reduce_over_group(sg, in[it.get_global_id(0)], sycl::plus<>());
                   if (sg.leader()) out[it.get_global_id(0) / 32] = s;
                 });
}
SRC
  "$S" -fsycl-targets=host -O2 -mavx2 -fno-sanitize=all -fsycl-host-only -S -emit-llvm leader.cpp \
    -o leader.ll
  expect_in leader.ll "^define internal .*\\.work_group_loops\\.sg32\\(ptr"
  expect_not_in leader.ll "\\.work_group_loops\\.sg16\\(ptr" "\\.work_group_loops\\.sg8\\(ptr"
  awk '/^define internal .*work_group_loops.sg32/,/^}/' leader.ll >sg32.ll
  expect_in sg32.ll "fadd"
  expect_not_in sg32.ll "select i1 .*float"
  # The kernel is one loop over sub-groups (the region that writes the slots and the leader's,
  # one after the other for each sub-group): one vector load of the sub-group's values, the
  # reduction from registers, one store (the leader's sum, none to the slots), no lane loop.
  expect_in sg32.ll "load <32 x float>"
  [ "$(grep -c "icmp eq i64 .*, 32$" sg32.ll)" = 0 ] || fail "the sub-group's chain loops over lanes"
  [ "$(grep -c "store " sg32.ll)" = 1 ] || fail "the sub-group's values go through memory"
  # A stencil whose halo one work-item at each end writes before the barrier: each halo becomes
  # a region of that work-item, so the tile's region is vector code as well as the stencil's
  # (two vectorized loops; one before, the tile's region holding the conditional stores).
  cat >halo.cpp <<'SRC'
#include <sycl/sycl.hpp>
void stencil(sycl::queue& q, const float* in, float* out, std::size_t n) {
  q.submit([&](sycl::handler& h) {
    sycl::local_accessor<float> t(258, h);
    h.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
      std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
      t[l + 1] = in[i];
      if (l == 0) t[0] = i > 0 ? in[i - 1] : 0.0f;
      if (l == 255) t[257] = i + 1 < n ? in[i + 1] : 0.0f;
      sycl::group_barrier(it.get_group());
      out[i] = 0.25f * t[l] + 0.5f * t[l + 1] + 0.25f * t[l + 2];
    });
  });
}
SRC
  "$S" -fsycl-targets=host -O2 -mavx2 -fno-sanitize=all -fsycl-host-only -S -emit-llvm halo.cpp \
    -o halo.ll -Rpass=loop-vectorize 2>halo.txt
  [ "$(grep -c "remark: vectorized loop" halo.txt)" = 2 ] ||
    fail "the stencil's tile region is not vector code: $(grep -c "remark: vectorized loop" halo.txt) vectorized loops"
  # A grid-stride loop (work-items leave it after different numbers of iterations) runs one
  # iteration of every work-item per region: the loops for large groups are vector code with
  # contiguous loads (the index is the start plus the group's iteration count times the stride,
  # not a value kept per work-item: no gather), and small groups get loops of their own (several
  # iterations per region), chosen at run time by a .work_group function.
  cat >stride.cpp <<'SRC'
#include <sycl/sycl.hpp>
void saxpy(sycl::queue& q, const float* x, float* y, std::size_t n) {
  q.parallel_for(sycl::nd_range<1>(1024, 256), [=](sycl::nd_item<1> it) {
    for (std::size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0))
      y[i] = 2.0f * x[i] + y[i];
  });
}
SRC
  "$S" -fsycl-targets=host -O2 -mavx2 -fno-sanitize=all -fsycl-host-only -S -emit-llvm stride.cpp \
    -o stride.ll -Rpass=loop-vectorize 2>stride.txt
  expect_in stride.ll "^define internal .*\\.work_group\\(ptr"
  awk '/^define internal .*work_group_loops\(ptr/,/^}/' stride.ll >large.ll
  expect_in large.ll "masked.load.v8f32|load <8 x float>"
  expect_not_in large.ll "masked.gather" "__syclone_host_barrier"
  [ "$(grep -c "remark: vectorized loop" stride.txt)" -ge 1 ] ||
    fail "the grid-stride loop's iterations are not vector code"
  ;;

opencl_headers)
  # (q) Where the OpenCL headers are installed, <sycl/sycl.hpp> declares the OpenCL API's scalar
  # types (cl_int, cl_bool, ...) for host and device code, setting CL_TARGET_OPENCL_VERSION to 300
  # unless the program chose one. A stand-in <CL/cl.h> with the real header's typedefs.
  mkdir -p ocl/CL
  cat >ocl/CL/cl.h <<'HDR'
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#error "CL_TARGET_OPENCL_VERSION is not set"
#endif
typedef signed int cl_int;
typedef unsigned int cl_uint;
typedef cl_uint cl_bool;
HDR
  "$S" -Iocl -DEXPECTED_VERSION=300 "$IN/opencl_scalars.cpp" -o app
  SYCLONE_DEVICE_SELECTOR='host:*' ./app || fail "OpenCL scalar types: wrong values"
  "$S" -std=c++20 -Iocl -DCL_TARGET_OPENCL_VERSION=120 -DEXPECTED_VERSION=120 \
    "$IN/opencl_scalars.cpp" -o app120
  SYCLONE_DEVICE_SELECTOR='host:*' ./app120 || fail "the program's CL_TARGET_OPENCL_VERSION was not kept"
  # Without OpenCL headers, sycl::opencl's types are there and the OpenCL API's are not.
  expect_failure nocl.txt "$S" -fsycl-targets=host -DEXPECTED_VERSION=300 -c "$IN/opencl_scalars.cpp" -o nocl.o
  expect_in nocl.txt "unknown type name 'cl_int'|use of undeclared identifier 'cl_bool'|unknown type name 'cl_bool'"
  ;;

*)
  fail "unknown case"
  ;;
esac
echo "PASS ($case_name)"
