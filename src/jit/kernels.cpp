// The kernels of a device image and dropping the ones not asked for, so that O3 spends no time
// on them and their callees do not need libdevice.
#include "steps.hpp"

#include <llvm/IR/CallingConv.h>
#include <llvm/Transforms/IPO/Internalize.h>

namespace syclone::jit::detail {
namespace {

bool is_kernel(const llvm::Function& function) {
  return !function.isDeclaration() && function.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

// Erases local definitions and declarations nothing refers to, until none is left. (Unused
// cycles survive; O3's GlobalDCE removes them later.)
void erase_unreferenced(llvm::Module& module) {
  bool changed = true;
  while (changed) {
    changed = false;
    std::vector<llvm::GlobalValue*> dead;
    for (llvm::GlobalValue& value : module.global_values()) {
      value.removeDeadConstantUsers();
      if (!value.use_empty()) continue;
      bool declaration = value.isDeclaration();
      auto* function = llvm::dyn_cast<llvm::Function>(&value);
      if (function && function->isIntrinsic()) continue;
      if (value.hasLocalLinkage() || (declaration && function)) dead.push_back(&value);
    }
    for (llvm::GlobalValue* value : dead) {
      value->eraseFromParent();
      changed = true;
    }
  }
}

} // namespace

std::vector<std::string> kernel_names(const llvm::Module& module) {
  std::vector<std::string> names;
  for (const llvm::Function& function : module)
    if (is_kernel(function)) names.push_back(function.getName().str());
  return names;
}

void keep_kernels(llvm::Module& module, const std::string& kernel) {
  std::vector<std::string> kernels = kernel_names(module);
  if (kernels.empty())
    fail("the device image holds no kernel (no function with the ptx_kernel calling convention)");
  if (!kernel.empty() && std::find(kernels.begin(), kernels.end(), kernel) == kernels.end())
    fail("kernel `" + kernel + "` is not in the device image; it holds " + join(kernels) +
         ". The kernel was probably compiled into another image or translation unit");

  llvm::internalizeModule(module, [&](const llvm::GlobalValue& value) {
    auto* function = llvm::dyn_cast<llvm::Function>(&value);
    return function && is_kernel(*function) && (kernel.empty() || function->getName() == kernel);
  });
  erase_unreferenced(module);
}

} // namespace syclone::jit::detail
