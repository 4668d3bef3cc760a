// sycl_ext_oneapi_device_global (include/sycl/ext/oneapi/experimental/device_global.hpp): every
// access to a device_global in device code calls `__syclone_device_global(&object)`. This pass,
// shared by the NVPTX JIT and syclone++'s SPIR-V lowering, replaces those calls.
#pragma once

#include "device_global_names.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace syclone::passes {

// indirect: each call becomes a load of the pointer variable of its object (an externally
// initialized global in `address_space`, shared by every call on the same object), which the
// runtime sets to the device's instance after loading the module, so that every module of a
// device shares one instance; `names` receives the pointer variables' names.
// !indirect: each call becomes its argument, the module's own variable (one instance per image).
// Functions between a call and the object it names are inlined first. Returns why it cannot (an
// object the pass cannot trace to a variable: reached through recursion or a function pointer),
// or nothing.
std::string lower_device_globals(llvm::Module& module, llvm::StringRef builtin, bool indirect,
                                 unsigned address_space, std::vector<std::string>* names);

} // namespace syclone::passes
