#!/usr/bin/env bash
# Device-code check (STYLE.md 9, third tier) for the value-type and builtin headers: vec,
# marray, half, math, atomic_ref, atomic_fence, functional, known_identity.
#
# 1. Every header compiles on its own, warning-free, for the host and for NVPTX and SPIR-V
#    device code, in C++17 and C++20.
# 2. A translation unit using all of them inside [[clang::sycl_kernel_entry_point]] kernels is
#    compiled for nvptx64 to bitcode; the bitcode must call libdevice (__nv_*) for the
#    transcendental functions and nothing else external (no host libm names such as expf, which
#    the NVPTX backend cannot resolve).
# 3. llc turns it into PTX for sm_90 with the __nv_* left external, and the PTX shows the
#    expected lowering: atom.global.add.f32 for a float fetch_add, sqrt.rn.f32 for sqrt(float),
#    fences around ordered read-modify-writes, ...
# 4. Linked against a stub that defines every referenced __nv_* function, the module is complete
#    and still compiles. Where a CUDA toolkit provides libdevice.10.bc ($LIBDEVICE, or found under
#    /usr/local/cuda*), every __nv_* declaration must also match libdevice's definition, and the
#    module linked with the real libdevice must compile to PTX without external functions.
# 5. The same TU compiles for spirv64 and llc's SPIR-V backend turns the math into OpenCL.std
#    extended instructions, without imported functions.
#
# Usage: tests/device/compile_headers.sh   (tools: $CLANGXX, $LLC, $LLVM_DIS, $LLVM_LINK)
# Exits non-zero with the failing check named; the work directory is kept on failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLANGXX="${CLANGXX:-clang++-22}"
LLC="${LLC:-llc-22}"
LLVM_DIS="${LLVM_DIS:-llvm-dis-22}"
LLVM_LINK="${LLVM_LINK:-llvm-link-22}"
# libdevice is optional: with a CUDA toolkit installed, the declarations are checked against it.
libdevice="${LIBDEVICE:-}"
if [[ -z "$libdevice" ]]; then
  for candidate in /usr/local/cuda/nvvm/libdevice/libdevice.10.bc \
    /usr/local/cuda-*/nvvm/libdevice/libdevice.10.bc /usr/lib/cuda/nvvm/libdevice/libdevice.10.bc; do
    if [[ -f "$candidate" ]]; then
      libdevice="$candidate"
      break
    fi
  done
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/syclone-device-headers.XXXXXX")"
failed=0

fail() {
  echo "FAIL: $*" >&2
  failed=1
}
finish() {
  if [[ $failed -ne 0 ]]; then
    echo "device header check failed; inputs and outputs kept in $work" >&2
    exit 1
  fi
  rm -rf "$work"
  echo "device header check passed"
}
trap finish EXIT

nvptx=(-fsycl -fsycl-device-only --offload-targets=nvptx64-nvidia-cuda -nocudalib)
spirv=(-fsycl -fsycl-device-only)
common=(-I"$root/include" -Wall -Wextra -Werror)

# ---- 1. each header on its own ----------------------------------------------------------------
headers=(half vec marray math atomic_ref atomic_fence functional known_identity)
for std in c++17 c++20; do
  for h in "${headers[@]}"; do
    src="$work/only_${h}.cpp"
    echo "#include <sycl/${h}.hpp>" >"$src"
    "$CLANGXX" -std=$std "${common[@]}" -fsyntax-only "$src" ||
      fail "sycl/${h}.hpp does not compile alone for the host (-std=$std)"
    "$CLANGXX" -std=$std "${common[@]}" "${nvptx[@]}" -fsyntax-only "$src" ||
      fail "sycl/${h}.hpp does not compile alone for nvptx64 (-std=$std)"
    "$CLANGXX" -std=$std "${common[@]}" "${spirv[@]}" -fsyntax-only "$src" ||
      fail "sycl/${h}.hpp does not compile alone for spirv64 (-std=$std)"
  done
done

# ---- 2. kernels using every header --------------------------------------------------------------
cat >"$work/kernels.cpp" <<'EOF'
#define SYCL_SIMPLE_SWIZZLES
#include <sycl/atomic_fence.hpp>
#include <sycl/atomic_ref.hpp>
#include <sycl/functional.hpp>
#include <sycl/half.hpp>
#include <sycl/known_identity.hpp>
#include <sycl/marray.hpp>
#include <sycl/math.hpp>
#include <sycl/vec.hpp>

template <typename Name, typename Kernel>
[[clang::sycl_kernel_entry_point(Name)]] void kernel_entry(Kernel k) {
  k();
}

class k_sqrt_float;
class k_exp_float_log_double;
class k_atomic_float_add;
class k_atomic_int_ordered;
class k_atomic_system;
class k_fences;
class k_vec;
class k_math_all;
class k_integer_geometric_relational;

// Every math function, for float, double and half.
template <typename F>
F all_math(F x, F y) {
  using namespace sycl;
  F ip, c;
  int e, q, s;
  return acos(x) + acosh(y) + acospi(x) + asin(x) + asinh(x) + asinpi(x) + atan(x) +
         atan2(x, y) + atanh(x) + atanpi(x) + atan2pi(x, y) + cbrt(x) + ceil(x) +
         copysign(x, y) + cos(x) + cosh(x) + cospi(x) + erfc(x) + erf(x) + exp(x) + exp2(x) +
         exp10(x) + expm1(x) + fabs(x) + fdim(x, y) + floor(x) + fma(x, y, x) + fmax(x, y) +
         fmin(x, y) + fmod(x, y) + hypot(x, y) + lgamma(x) + log(x) + log2(x) + log10(x) +
         log1p(x) + logb(x) + mad(x, y, x) + maxmag(x, y) + minmag(x, y) + nextafter(x, y) +
         pow(x, y) + powr(x, y) + remainder(x, y) + rint(x) + round(x) + rsqrt(x) + sin(x) +
         sinh(x) + sinpi(x) + sqrt(x) + tan(x) + tanh(x) + tanpi(x) + tgamma(x) + trunc(x) +
         fract(x, &ip) + ip + frexp(x, &e) + ldexp(x, e) + F(ilogb(x)) + modf(x, &ip) +
         remquo(x, y, &q) + F(q) + sincos(x, &c) + c + pown(x, 3) + rootn(x, 3) +
         lgamma_r(x, &s) + F(s);
}

void submit(float* f, double* d, int* i, unsigned long* ul, sycl::half* h, sycl::float4* v,
            sycl::int4* iv) {
  kernel_entry<k_sqrt_float>([=] { f[0] = sycl::sqrt(f[1]); });
  kernel_entry<k_exp_float_log_double>([=] {
    f[2] = sycl::exp(f[3]);
    d[0] = sycl::log(d[1]);
  });
  kernel_entry<k_atomic_float_add>([=] {
    sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device,
                     sycl::access::address_space::global_space>
        a(f[4]);
    a.fetch_add(f[5]);
  });
  kernel_entry<k_atomic_int_ordered>([=] {
    sycl::atomic_ref<int, sycl::memory_order::acq_rel, sycl::memory_scope::device> a(i[0]);
    a.fetch_max(i[1]);
    i[2] = a.load();
  });
  kernel_entry<k_atomic_system>([=] {
    sycl::atomic_ref<unsigned long, sycl::memory_order::relaxed, sycl::memory_scope::system> a(
        ul[0]);
    a += ul[1];
  });
  kernel_entry<k_fences>([=] {
    i[3] = 1;
    sycl::atomic_fence(sycl::memory_order::acq_rel, sycl::memory_scope::work_group);
    i[4] = 2;
    sycl::atomic_fence(sycl::memory_order::seq_cst, sycl::memory_scope::system);
    i[5] = 3;
  });
  kernel_entry<k_vec>([=] {
    using namespace sycl;
    float4 a = v[0], b = v[1];
    float4 r = a * b + a.wzyx() - 2.0f;
    r.xy() = b.zw();
    r.swizzle<3, 0>() += float2(1.0f, 2.0f);
    iv[0] = (a < b) & iv[1];
    iv[2] = r.convert<int, rounding_mode::rte>();
    v[2] = r + iv[3].as<float4>();
    half4 hv = a.convert<half>();
    v[3] = (hv * hv + hv).convert<float>();
    marray<float, 3> m(a.x(), a.y(), a.z());
    m = m * 2.0f + 1.0f;
    v[4] = float4(m[0], m[1], m[2], known_identity_v<maximum<>, float>);
    v[5] = float4(plus<>()(a.x(), b.x()), minimum<float>()(a.y(), b.y()), 0.0f, 0.0f);
  });
  kernel_entry<k_math_all>([=] {
    using namespace sycl;
    float x = f[6], y = f[7];
    f[8] = all_math(x, y);
    f[10] = native::cos(x) + native::divide(x, y) + native::exp(x) + native::exp2(x) +
            native::exp10(x) + native::log(x) + native::log2(x) + native::log10(x) +
            native::powr(x, y) + native::recip(x) + native::rsqrt(x) + native::sin(x) +
            native::sqrt(x) + native::tan(x) + half_precision::exp(x) + half_precision::sin(x);
    d[4] = all_math(d[2], d[3]);
    h[0] = all_math(h[1], h[2]);
    float4 a = v[6];
    v[7] = clamp(a, 0.0f, 1.0f) + degrees(a) + radians(a) + max(a, 0.5f) + min(a, a) +
           mix(a, a.wzyx(), 0.25f) + step(0.5f, a) + smoothstep(0.0f, 1.0f, a) + sign(a) +
           sin(a.xyzw()) + pow(a, a);
  });
  kernel_entry<k_integer_geometric_relational>([=] {
    using namespace sycl;
    int a = i[6], b = i[7];
    unsigned long ua = ul[2], ub = ul[3];
    i[8] = abs(a) + abs_diff(a, b) + add_sat(a, b) + hadd(a, b) + rhadd(a, b) + clamp(a, 0, 9) +
           clz(a) + ctz(a) + mad_hi(a, b, a) + mad_sat(a, b, a) + max(a, b) + min(a, b) +
           mul_hi(a, b) + rotate(a, b) + sub_sat(a, b) + popcount(a) + mad24(a, b, a) +
           mul24(a, b) + int(upsample(short(a), (unsigned short)b));
    ul[4] = mul_hi(ua, ub) + mad_sat(ua, ub, ua) + rotate(ua, ub);
    float4 p = v[8], q = v[9];
    float3 cr = cross(p.xyz(), q.xyz());
    f[11] = dot(p, q) + length(p) + distance(p, q) + normalize(p).x() + fast_length(q) +
            fast_distance(p, q) + fast_normalize(q).y() + cr.z();
    iv[4] = isequal(p, q) | isnotequal(p, q) | isgreater(p, q) | isgreaterequal(p, q) |
            isless(p, q) | islessequal(p, q) | islessgreater(p, q) | isfinite(p) | isinf(p) |
            isnan(p) | isnormal(p) | isordered(p, q) | isunordered(p, q) | signbit(p);
    i[9] = any(iv[5]) + all(iv[6]) + int(isnan(f[12]));
    v[10] = select(p, q, iv[7]) + bitselect(p, q, v[11]);
  });
}
EOF

kernels=(k_sqrt_float k_exp_float_log_double k_atomic_float_add k_atomic_int_ordered
         k_atomic_system k_fences k_vec k_math_all k_integer_geometric_relational)

# The PTX of one kernel (from its .entry to the closing brace).
kernel_ptx() {
  local k=$1
  awk -v entry=".entry _ZTS${#k}${k}(" 'index($0, entry) { on = 1 } on { print } on && /^}/ { exit }' \
    "$ptx"
}

# Requires `pattern` (an extended regex) in `file`; names the check on failure.
expect() {
  local file=$1 pattern=$2 what=$3
  grep -Eq -- "$pattern" "$file" || fail "$what: no match for /$pattern/ in $(basename "$file")"
}

for std in c++17 c++20; do
  bc="$work/kernels.$std.bc"
  ll="$work/kernels.$std.ll"
  ptx="$work/kernels.$std.ptx"
  if ! "$CLANGXX" -std=$std "${common[@]}" "${nvptx[@]}" -O2 -c -emit-llvm \
    "$work/kernels.cpp" -o "$bc"; then
    fail "kernels.cpp does not compile for nvptx64 (-std=$std)"
    continue
  fi
  "$CLANGXX" -std=$std "${common[@]}" -fsycl -fsycl-host-only -c "$work/kernels.cpp" \
    -o "$work/kernels.$std.host.o" || fail "kernels.cpp does not compile for the host (-std=$std)"
  "$LLVM_DIS" "$bc" -o "$ll"

  for k in "${kernels[@]}"; do
    name_len=${#k}
    expect "$ll" "define .*ptx_kernel void @_ZTS${name_len}${k}\(" "kernel $k emitted"
  done
  expect "$ll" 'call( [a-z]+)* float @__nv_expf\(' "sycl::exp(float) calls libdevice"
  expect "$ll" 'call( [a-z]+)* double @__nv_log\(' "sycl::log(double) calls libdevice"
  expect "$ll" '@llvm\.sqrt\.f32\(' "sycl::sqrt(float) is the sqrt intrinsic"
  # Only libdevice and LLVM intrinsics may stay external: a host libm name (expf, sinf ...)
  # has no definition on NVPTX.
  externals="$(grep -E '^declare ' "$ll" | grep -vE '@(llvm\.|__nv_)' || true)"
  [[ -z "$externals" ]] || fail "bitcode (-std=$std) declares non-libdevice functions:
$externals"
  # Nor may libm-style intrinsics reach NVPTX: it would expand them into the same libm calls.
  libm_intrinsics="$(grep -oE '@llvm\.(exp|exp10|log|log2|log10|pow|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|frexp|modf|sincos)\.f[0-9]+' "$ll" | sort -u || true)"
  [[ -z "$libm_intrinsics" ]] || fail "bitcode (-std=$std) uses libm intrinsics: $libm_intrinsics"

  # ---- 3. PTX ---------------------------------------------------------------------------------
  if ! "$LLC" -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 "$bc" -o "$ptx"; then
    fail "llc cannot compile the bitcode to PTX (-std=$std)"
    continue
  fi
  kernel_ptx k_atomic_float_add >"$work/float_add.ptx"
  expect "$work/float_add.ptx" '(atom|red)\.global\.add\.f32' "float atomic fetch_add"
  # An acq_rel read-modify-write: release fence, the atom, acquire fence (LLVM's NVPTX backend
  # drops the order of the atom itself).
  kernel_ptx k_atomic_int_ordered | grep -oE 'fence\.acq_rel\.gpu|atom\.global\.max\.s32' |
    tr '\n' ' ' >"$work/ordered.txt"
  expect "$work/ordered.txt" '^fence\.acq_rel\.gpu atom\.global\.max\.s32 fence\.acq_rel\.gpu' \
    "acq_rel fetch_max fenced on both sides"
  expect "$ptx" 'ld\.acquire\.[a-z]+(\.global)?\.b32' "acquire load"
  expect "$ptx" 'atom(\.[a-z_]+)*\.sys(\.[a-z]+)*\.cas\.b64' "system-scope RMW as a CAS loop"
  expect "$ptx" 'fence\.acq_rel\.cta' "work-group atomic_fence"
  expect "$ptx" 'fence\.sc\.sys' "seq_cst system atomic_fence"
  expect "$ptx" 'sqrt\.rn\.f32' "sycl::sqrt(float)"
  expect "$ptx" 'sqrt\.rn\.f64' "sycl::sqrt(double)"
  expect "$ptx" 'fma\.rn\.f32' "sycl::fma(float)"
  expect "$ptx" 'fma\.rn\.f16' "sycl::fma(half)"
  expect "$ptx" 'cvt\.rni\.(s32\.f32|f32\.f32)' "round to nearest even (rint, convert rte)"
  expect "$ptx" 'ex2\.approx' "sycl::native::exp2"
  expect "$ptx" 'mul\.hi\.u64' "sycl::mul_hi(unsigned long)"
  expect "$ptx" 'clz\.b32' "sycl::clz(int)"
  expect "$ptx" 'popc\.b32' "sycl::popcount(int)"
  # Every function the PTX needs from outside is libdevice's.
  others="$(grep -E '^\.extern \.func' "$ptx" |
    sed -E 's/^\.extern \.func\s+(\([^)]*\)\s*)?([A-Za-z_$][A-Za-z0-9_$]*).*/\2/' |
    grep -v '^__nv_' | sort -u || true)"
  [[ -z "$others" ]] || fail "PTX (-std=$std) calls external functions that are not libdevice: $others"

  # ---- 4. link against a libdevice stand-in -----------------------------------------------------
  stub="$work/libdevice_stub.$std.ll"
  {
    echo 'target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"'
    echo 'target triple = "nvptx64-nvidia-cuda"'
    grep -E '^declare .*@__nv_' "$ll" | sed -E 's/ (dso_local|local_unnamed_addr|#[0-9]+)//g' |
      while read -r _ ret rest; do
        sig="${rest%%)*})"
        if [[ "$ret" == void ]]; then
          echo "define void ${sig} { ret void }"
        else
          echo "define ${ret} ${sig} { ret ${ret} zeroinitializer }"
        fi
      done
  } >"$stub"
  linked="$work/linked.$std.bc"
  if "$LLVM_LINK" "$bc" "$stub" -o "$linked"; then
    left="$("$LLVM_DIS" "$linked" -o - | grep -E '^declare ' | grep -v '@llvm\.' || true)"
    [[ -z "$left" ]] || fail "after linking libdevice, still unresolved (-std=$std):
$left"
    "$LLC" -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 "$linked" -o "$work/linked.$std.ptx" ||
      fail "llc cannot compile the module linked with libdevice (-std=$std)"
  else
    fail "llvm-link cannot link the bitcode with a libdevice stand-in (-std=$std)"
  fi

  # ---- 4b. the real libdevice, where a CUDA toolkit provides one --------------------------------
  if [[ -n "$libdevice" ]]; then
    # Our declarations must match libdevice's definitions: the same return and parameter types.
    signature() {
      sed -E 's/^(declare|define)( (dso_local|internal|linkonce_odr|noundef|zeroext|signext))*//;
              s/ (local_unnamed_addr|unnamed_addr).*$//; s/ #[0-9]+.*$//; s/ \{.*$//' |
        awk '{ ret = $1; match($0, /@[A-Za-z0-9_.]+/); name = substr($0, RSTART, RLENGTH);
               p = substr($0, index($0, "(") + 1); sub(/\).*$/, "", p);
               n = split(p, a, ","); s = "";
               for (i = 1; i <= n; i++) { split(a[i], t, " "); s = s (i > 1 ? "," : "") t[1] }
               print name, ret "(" s ")" }' | sort
    }
    grep -E '^declare .*@__nv_' "$ll" | signature >"$work/ours.$std.txt"
    "$LLVM_DIS" "$libdevice" -o - | grep -E '^define .*@__nv_' | signature >"$work/libdevice.txt"
    mismatch="$(join "$work/ours.$std.txt" "$work/libdevice.txt" | awk '$2 != $3')"
    missing="$(join -v1 "$work/ours.$std.txt" "$work/libdevice.txt")"
    [[ -z "$mismatch" ]] || fail "declarations differ from libdevice's (-std=$std): $mismatch"
    [[ -z "$missing" ]] || fail "functions missing from libdevice (-std=$std): $missing"
    real="$work/real_libdevice.$std.bc"
    if "$LLVM_LINK" "$bc" "$libdevice" --only-needed -o "$real"; then
      "$LLC" -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 "$real" -o "$work/real.$std.ptx" ||
        fail "llc cannot compile the module linked with $libdevice (-std=$std)"
      ! grep -q '^\.extern' "$work/real.$std.ptx" ||
        fail "PTX linked with libdevice still has external functions (-std=$std)"
    else
      fail "llvm-link cannot link $libdevice (-std=$std)"
    fi
  fi

  # ---- 5. SPIR-V --------------------------------------------------------------------------------
  spv_bc="$work/kernels.$std.spirv.bc"
  spv="$work/kernels.$std.spvasm"
  if ! "$CLANGXX" -std=$std "${common[@]}" "${spirv[@]}" -O2 -c -emit-llvm "$work/kernels.cpp" \
    -o "$spv_bc"; then
    fail "kernels.cpp does not compile for spirv64 (-std=$std)"
    continue
  fi
  if ! "$LLC" -mtriple=spirv64-unknown-unknown --spirv-ext=all "$spv_bc" -o "$spv"; then
    fail "llc's SPIR-V backend rejects the kernels (-std=$std)"
    continue
  fi
  expect "$spv" 'OpExtInst %[A-Za-z0-9_]+ %[0-9]+ exp ' "SPIR-V exp as OpenCL.std"
  expect "$spv" 'OpExtInst %[A-Za-z0-9_]+ %[0-9]+ native_exp2 ' "SPIR-V native_exp2"
  expect "$spv" 'OpAtomicFAddEXT' "SPIR-V float atomic add"
  if grep -q 'LinkageAttributes .* Import' "$spv"; then
    fail "SPIR-V module imports functions (-std=$std): $(grep 'LinkageAttributes' "$spv")"
  fi
done
