// The spirv64 image of a program (issue 6, DESIGN.md pipeline): the linked device code goes
// through syclone's pre-codegen pass, LLVM 22's SPIR-V backend (in process, with the Intel
// extensions it supports) and syclone's post-pass on the binary (src/spirv/postpass.hpp).
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include <functional>

#include <map>
#include <string>
#include <vector>

namespace syclone::driver {

// Runs the passes `add` puts into a module pass manager over `module` (device link, SPIR-V
// lowering).
void run_passes(llvm::Module& module, const std::function<void(llvm::ModulePassManager&)>& add);

struct spirv_image {
  std::string binary; // the SPIR-V module
  // Stored with the image (syclone_image_descriptor::manifest); one record per line:
  //   spec_constant <unique stable name> <SpecId> <byte offset> <bytes>
  //   local_memory_argument <kernel> <parameter index>
  //   sub_group_size <kernel> <size>
  std::string manifest;
};

// Lowers `module` (linked, verified; its kernels are spir_kernel functions) to SPIR-V.
// `sub_group_sizes` maps kernel names to the sizes the plugin recorded ("16", "primary", ...).
// Throws driver_error naming the kernel or specialization constant it cannot lower.
spirv_image lower_to_spirv(llvm::Module& module,
                           const std::map<std::string, std::string>& sub_group_sizes);

} // namespace syclone::driver
