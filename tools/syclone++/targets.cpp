#include "targets.hpp"

#include <llvm/IR/CallingConv.h>

namespace syclone::driver {

const std::vector<device_target>& device_targets() {
  static const std::vector<device_target> targets = {
      {
          .name = "nvptx64",
          .aliases = {"nvptx64-nvidia-cuda"},
          // -nocudalib: the JIT links what it needs; no CUDA installation at compile time.
          // -unroll-runtime=false: a loop whose trip count is a specialization constant must
          // reach the JIT whole; runtime unrolling here would split it and mark the rest
          // "do not unroll", so the JIT could not fully unroll it once the count is known.
          .compile_flags = {"--offload-targets=nvptx64-nvidia-cuda", "-nocudalib", "-mllvm",
                            "-unroll-runtime=false"},
          .image_format = "llvm-bc",
          .kernel_calling_convention = llvm::CallingConv::PTX_Kernel,
          // libdevice and NVVM builtins, the CUDA device runtime's printf/malloc/assert, and the
          // runtime's own markers (__syclone_*, e.g. specialization constants).
          .provided_prefixes = {"__nv_", "__nvvm_", "__syclone_"},
          .provided_names = {"vprintf", "malloc", "free", "__assertfail"},
          // C math functions the JIT maps to libdevice's __nv_<name> (src/jit/libdevice.cpp).
          .provided_math =
              {"acos",   "acosh",   "asin",       "asinh",   "atan",      "atan2",     "atanh",
               "cbrt",   "ceil",    "copysign",   "cos",     "cosh",      "cospi",     "erf",
               "erfc",   "erfcinv", "erfcx",      "erfinv",  "exp",       "exp10",     "exp2",
               "expm1",  "fabs",    "fdim",       "floor",   "fma",       "fmax",      "fmin",
               "fmod",   "frexp",   "hypot",      "ilogb",   "j0",        "j1",        "jn",
               "ldexp",  "lgamma",  "llrint",     "llround", "log",       "log10",     "log1p",
               "log2",   "logb",    "modf",       "nan",     "nearbyint", "nextafter", "norm3d",
               "norm4d", "normcdf", "normcdfinv", "pow",     "rcbrt",     "remainder", "remquo",
               "rhypot", "rint",    "rnorm3d",    "rnorm4d", "round",     "rsqrt",     "scalbn",
               "sin",    "sincos",  "sincospi",   "sinh",    "sinpi",     "sqrt",      "tan",
               "tanh",   "tgamma",  "trunc",      "y0",      "y1",        "yn"},
      },
      {
          .name = "spirv64",
          .aliases = {"spirv64-unknown-unknown", "spir64"},
          // Same unrolling rule as nvptx64: a specialization constant's loop stays whole for the
          // consumer's compiler, which sees the value.
          // -fno-slp-vectorize: LLVM 22's SPIR-V backend rejects some vectors the SLP
          // vectorizer forms from element-wise code ("incompatible result and operand types in
          // a bitcast"); the consumer's compiler vectorizes for its own hardware anyway.
          .compile_flags = {"--offload-targets=spirv64", "-mllvm", "-unroll-runtime=false",
                            "-fno-slp-vectorize"},
          .image_format = "spirv",
          .kernel_calling_convention = llvm::CallingConv::SPIR_KERNEL,
          // SPIR-V builtins (__spirv_*, also Itanium-mangled: the backend turns them into
          // instructions) and the runtime's markers that syclone++'s SPIR-V passes replace.
          .provided_prefixes = {"__spirv_", "__syclone_"},
          // OpenCL C's printf: OpenCL.std printf (spirv_lowering.cpp gives it its format string
          // in the constant address space).
          .provided_names = {"printf"},
          // OpenCL C built-ins the backend lowers to OpenCL.std extended instructions; the
          // device headers give the C math functions their mangled names (_Z4sqrtf).
          .provided_math = {"acos",  "acosh",     "asin", "asinh",     "atan",  "atan2",
                            "atanh", "cbrt",      "ceil", "copysign",  "cos",   "cosh",
                            "erf",   "erfc",      "exp",  "exp2",      "expm1", "fabs",
                            "fdim",  "floor",     "fma",  "fmax",      "fmin",  "fmod",
                            "hypot", "lgamma",    "log",  "log10",     "log1p", "log2",
                            "logb",  "nextafter", "pow",  "remainder", "rint",  "round",
                            "sin",   "sinh",      "sqrt", "tan",       "tanh",  "tgamma",
                            "trunc"},
          .math_is_mangled = true,
      },
  };
  return targets;
}

bool device_target::provides(std::string_view function) const {
  if (function.starts_with("llvm.")) return true;
  // The base name of an Itanium-mangled function, "_Z20__spirv_SpecConstantii" ->
  // "__spirv_SpecConstant", so that prefixes match overloaded builtins too.
  std::string_view base_name = function;
  if (function.starts_with("_Z")) {
    std::size_t i = 2, length = 0;
    while (i < function.size() && function[i] >= '0' && function[i] <= '9')
      length = length * 10 + static_cast<std::size_t>(function[i++] - '0');
    if (i > 2 && i + length <= function.size()) base_name = function.substr(i, length);
  }
  for (auto prefix : provided_prefixes)
    if (function.starts_with(prefix) || base_name.starts_with(prefix)) return true;
  for (auto name : provided_names)
    if (function == name) return true;
  // The double function and its float variant: sin, sinf; mangled: _Z3sinf -> sin.
  std::string_view base = function.ends_with('f') ? function.substr(0, function.size() - 1) : "";
  for (auto name : provided_math)
    if (math_is_mangled ? base_name != function && base_name == name
                        : function == name || base == name)
      return true;
  return false;
}

const device_target* find_target(std::string_view name) {
  for (const auto& target : device_targets()) {
    if (target.name == name) return &target;
    for (auto alias : target.aliases)
      if (alias == name) return &target;
  }
  return nullptr;
}

std::string accepted_targets() {
  std::string text;
  for (const auto& target : device_targets()) {
    text += std::string(target.name);
    if (!target.aliases.empty()) {
      text += " (alias";
      for (auto alias : target.aliases) text += " " + std::string(alias);
      text += ")";
    }
    text += ", ";
  }
  return text + "host";
}

std::string device_section_name(std::string_view target) {
  return std::string(device_section_prefix) + std::string(target);
}

} // namespace syclone::driver
