// spirv_strip_newer IN OUT: a copy of a module without what Debian's spirv-val (SPIRV-Tools
// 2023.1) predates, so that it can check everything else (issue 6 part 4): the
// OpSubgroupBlockPrefetchINTEL instructions with their capability and extension (seed 003), and
// the SPV_INTEL_cache_controls decorations with theirs. Prints what it removed.
#include "grammar.hpp"
#include "module.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

using namespace syclone::spirv;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: spirv_strip_newer IN.spv OUT.spv\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    module m = read(std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
    std::size_t prefetches = 0, decorations = 0, declarations = 0;
    std::erase_if(m.instructions, [&](const instruction& x) {
      if (x.opcode == op::SubgroupBlockPrefetchINTEL) return ++prefetches, true;
      if (x.opcode == op::Decorate && x.operands.size() >= 2 &&
          (x.operands[1] == decoration::CacheControlLoadINTEL ||
           x.operands[1] == decoration::CacheControlStoreINTEL))
        return ++decorations, true;
      if (x.opcode == op::Capability && x.operands.size() == 1 &&
          (x.operands[0] == capability::SubgroupBufferPrefetchINTEL ||
           x.operands[0] == capability::CacheControlsINTEL))
        return ++declarations, true;
      if (x.opcode == op::Extension) {
        std::string name = x.string_at(0);
        if (name == "SPV_INTEL_subgroup_buffer_prefetch" || name == "SPV_INTEL_cache_controls")
          return ++declarations, true;
      }
      return false;
    });
    auto out_bytes = write(m);
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(out_bytes.data()),
              static_cast<std::streamsize>(out_bytes.size()));
    std::printf("removed %zu OpSubgroupBlockPrefetchINTEL, %zu cache-control decorations, %zu "
                "capabilities/extensions\n",
                prefetches, decorations, declarations);
    return out ? 0 : 1;
  } catch (const error& e) {
    std::fprintf(stderr, "spirv_strip_newer: %s: %s\n", argv[1], e.what());
    return 1;
  }
}
