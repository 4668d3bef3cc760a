// sycl_ext_oneapi_local_memory's allocations (include/sycl/ext/oneapi/group_local_memory.hpp) and
// sycl_ext_oneapi_work_group_static's variables: passes shared by the three compilers of device
// code (the NVPTX JIT, syclone++'s SPIR-V lowering and the host compile's pass plugin).
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

// sycl_ext_oneapi_work_group_static (include/sycl/ext/oneapi/experimental/work_group_static.hpp):
// each call of `builtin(object, bytes, alignment)` becomes the address of the storage of
// `object`, the work_group_static variable whose value is asked for: one variable of `bytes` per
// work_group_static variable (a global, or a block-scope one's alloca), in `address_space` or
// thread-local as lower_group_local_memory makes them. Storage of a variable other units may
// name has one linkonce_odr name in every unit. Returns why it cannot (an object that is not
// known at compile time, a size that is not a constant), or nothing.
std::string lower_work_group_static(llvm::Module& module, llvm::StringRef builtin,
                                    unsigned address_space, bool per_thread);

} // namespace syclone::passes
