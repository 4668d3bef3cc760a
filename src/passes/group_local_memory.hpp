// sycl_ext_oneapi_local_memory's allocations (include/sycl/ext/oneapi/group_local_memory.hpp): a
// pass shared by the three compilers of device code (the NVPTX JIT, syclone++'s SPIR-V lowering
// and the host compile's pass plugin).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

#include <string>

namespace syclone::passes {

// Gives each call of `builtin(bytes, alignment)` in `module` a variable of its own, `bytes` long,
// in `address_space` (the work-group's shared memory on GPU targets), or thread-local where
// `per_thread` (the host device, whose threads each run one work-group at a time), and replaces
// the call by the variable's address. The headers' always-inline functions around the call are
// inlined first, so that each call in the kernel's source is one call here. Returns why it
// cannot (a size that is not a constant), or nothing.
std::string lower_group_local_memory(llvm::Module& module, llvm::StringRef builtin,
                                     unsigned address_space, bool per_thread);

} // namespace syclone::passes
