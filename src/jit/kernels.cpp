// The kernels of a device image and dropping the ones not asked for, so that O3 spends no time
// on them and their callees do not need libdevice.
#include "steps.hpp"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>

namespace syclone::jit::detail {
namespace {

bool is_kernel(const llvm::Function& function) {
  return !function.isDeclaration() && function.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

// Erases local definitions and declarations nothing refers to, until none is left. GlobalDCE
// first: it also removes what only unreachable cycles use (a vtable and the virtual members
// that store it), which images linked before syclone++ pruned them still hold; the callees of
// such host-only code would otherwise have to resolve before O3.
void erase_unreferenced(llvm::Module& module) {
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb;
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::GlobalDCEPass());
    mpm.run(module, mam);
  }
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

  // Nothing but the kernel is a root of the JIT's module: host code marked `used` or run by
  // static initializers is not device code, and the annotations syclone's clang plugin leaves on
  // functions (sub-group sizes, read at link time) name functions parse() may not have loaded.
  for (const char* name : {"llvm.used", "llvm.compiler.used", "llvm.global_ctors",
                           "llvm.global_dtors", "llvm.global.annotations"})
    if (llvm::GlobalVariable* list = module.getNamedGlobal(name)) list->eraseFromParent();
  llvm::internalizeModule(module, [&](const llvm::GlobalValue& value) {
    auto* function = llvm::dyn_cast<llvm::Function>(&value);
    return function && is_kernel(*function) && (kernel.empty() || function->getName() == kernel);
  });
  erase_unreferenced(module);
}

} // namespace syclone::jit::detail
