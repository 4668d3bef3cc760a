// The smallest shared object holding the JIT, as the CUDA plugin will: jit.probe_size weighs it.
#include "jit/jit.hpp"

#include <cstring>

extern "C" __attribute__((visibility("default"))) int
syclone_jit_probe(const void* bitcode, std::size_t size, const char* kernel, const char* arch,
                  char* ptx, std::size_t capacity) {
  try {
    syclone::jit::request req;
    req.bitcode = {static_cast<const std::byte*>(bitcode), size};
    req.kernel = kernel;
    req.arch = arch;
    auto result = syclone::jit::compile(req);
    if (result.ptx.size() >= capacity) return -1;
    std::memcpy(ptx, result.ptx.c_str(), result.ptx.size() + 1);
    return 0;
  } catch (const syclone::jit::error&) {
    return -2;
  }
}
