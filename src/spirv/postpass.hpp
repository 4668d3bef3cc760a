// syclone's post-pass on the SPIR-V that LLVM's backend writes for a linked image (DESIGN.md
// "Target mapping", issue 6 part 2). Device code marks what the backend cannot express with
// calls of two functions the backend leaves as Import-linkage declarations
// (include/sycl/detail/device/spirv_memory.hpp):
//   __syclone_spirv_prefetch(global char* p, size_t bytes, int level, int non_temporal)
//     -> OpExtInst OpenCL.std prefetch(p, bytes)
//   __syclone_spirv_block_prefetch(global char* p, uint bytes_per_invocation, int level, int nt)
//     -> OpSubgroupBlockPrefetchINTEL p bytes_per_invocation (seed 003), with
//        OpCapability SubgroupBufferPrefetchINTEL and OpExtension
//        "SPV_INTEL_subgroup_buffer_prefetch"
// and the cache level of either becomes CacheControlLoadINTEL decorations
// (SPV_INTEL_cache_controls) on a copy of the pointer. The declarations, their names and linkage go
// away.
#pragma once

#include "module.hpp"

#include <cstddef>

namespace syclone::spirv {

struct postpass_statistics {
  std::size_t prefetches = 0;       // OpenCL.std prefetch written
  std::size_t block_prefetches = 0; // OpSubgroupBlockPrefetchINTEL written
  std::size_t cache_controls = 0;   // CacheControlLoadINTEL decorations written
};

// Throws spirv::error where a marker call does not have the form the device headers promise
// (e.g. a block prefetch whose byte count is not a constant power of two in 1..64): a bug in
// syclone, named as such.
postpass_statistics lower_syclone_markers(module& m);

} // namespace syclone::spirv
