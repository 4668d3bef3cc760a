// The NVPTX JIT: an nvptx64 device image (LLVM bitcode) in, PTX text out, with the
// specialization constants of the launch folded in before optimization (DESIGN.md: native
// specialization on NVIDIA; SYCL 2020 4.9.5 and 4.11.12 specialization constants).
//
// No LLVM type appears here: the CUDA backend and the tests include this header, and LLVM is
// linked statically into libsyclone_jit.a behind it.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace syclone::jit {

// A failure to compile: a broken image, a kernel or libdevice function that cannot be found,
// a specialization constant of the wrong size, an LLVM diagnostic. The message names the cause
// and what to do about it.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The value of one specialization constant. `name` is the stable string the device code passes
// to __syclone_spec_constant (include/sycl/kernel_handler.hpp: the unique stable name of the
// specialization_id's tag); `value` holds exactly sizeof(T) bytes of the value.
struct spec_constant {
  std::string name;
  std::vector<std::byte> value;
};

struct request {
  // An nvptx64-nvidia-cuda device image: LLVM bitcode, possibly holding several kernels.
  std::span<const std::byte> bitcode;
  // The kernel to compile (its symbol, the kernel name's unique stable name); the image's other
  // kernels are dropped before optimization. Empty: compile every kernel of the image.
  std::string kernel;
  // The GPU architecture, e.g. "sm_90".
  std::string arch;
  // The PTX ISA version as an LLVM feature, e.g. "+ptx80". Empty: the default for `arch`
  // (default_ptx_feature). The PTX must not be newer than the CUDA driver accepts; see
  // ptx_feature_for_cuda_version.
  std::string ptx_version_feature;
  // Values replacing the defaults; a constant not listed keeps its default.
  std::vector<spec_constant> spec_constants;
  // libdevice.10.bc, linked when the kernel calls CUDA math functions (__nv_*, or C math
  // functions LLVM cannot lower for NVPTX). Empty: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda,
  // /usr/lib/cuda and /opt/cuda are searched (<root>/nvvm/libdevice/libdevice.10.bc).
  std::string libdevice_path;
};

struct result {
  std::string ptx;
  // Wall time of compile(), lookups included.
  double milliseconds = 0;
  // True when the PTX came from the in-memory or the on-disk cache.
  bool from_cache = false;
};

// Compiles one request. Thread-safe; concurrent calls compile in parallel. The image is always
// optimized (O3), also when it was compiled with -O0. Device code must choose architecture-
// specific instructions by __nvvm_reflect("__CUDA_ARCH") (the JIT's target, e.g. 900), so that
// the other branches are gone before instruction selection; an instruction the target cannot
// express is an error naming the kernel and LLVM's reason.
//
// Results are cached in memory and on disk, keyed by everything that determines the PTX (the
// bitcode, kernel, arch, PTX version, specialization constants, libdevice file, the LLVM and
// JIT versions). The disk cache lives in $SYCLONE_CACHE_DIR, else $XDG_CACHE_HOME/syclone,
// else $HOME/.cache/syclone (in its jit/ folder). SYCLONE_JIT_CACHE=0 turns both caches off.
// SYCLONE_JIT_DUMP=<dir> writes each result as <dir>/<kernel>-<arch>-<key>.ptx, and the
// optimized LLVM IR of each fresh compilation next to it as .ll.
//
// Throws error.
result compile(const request& req);

// The PTX version used for `arch` when a request names none: the oldest PTX ISA that supports
// the architecture, but at least 7.8 (CUDA 11.8), and 8.0 on sm_90 (CUDA 12.0), so that the
// instructions the device headers emit (prefetch eviction priorities, sm_90 bulk prefetch)
// exist. Throws error for an architecture LLVM does not know.
std::string default_ptx_feature(const std::string& arch);

// The newest PTX version a CUDA driver accepts, as a feature for request::ptx_version_feature,
// from cuDriverGetVersion's value (e.g. 12040 for CUDA 12.4 -> "+ptx84"); capped at the
// newest PTX this LLVM can write. Empty for a driver older than CUDA 10.0.
std::string ptx_feature_for_cuda_version(int cuda_driver_version);

} // namespace syclone::jit
