// One compilation, bitcode to PTX: parse, keep the kernel, specialize, link libdevice, O3, emit.
#include "passes/device_global.hpp"
#include "passes/group_local_memory.hpp"
#include "steps.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <unordered_set>

namespace syclone::jit::detail {
namespace {

// Reads the image lazily and materializes only `kernel` and what it reaches (function bodies are
// what costs: an image of thousands of kernels, as a CTS category's, was parsed whole for each
// of them). The bodies nothing reached are dropped. An empty `kernel`, or one the image does
// not hold, materializes everything (keep_kernels then reports what the image holds).
std::unique_ptr<llvm::Module> parse(std::span<const std::byte> bitcode, llvm::LLVMContext& context,
                                    const std::string& kernel, const job& what) {
  llvm::StringRef bytes(reinterpret_cast<const char*>(bitcode.data()), bitcode.size());
  auto lazy = llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(bytes, "device image"), context);
  if (!lazy)
    fail("cannot read the device image (compiling " + what.describe() +
         "): " + llvm::toString(lazy.takeError()));
  std::unique_ptr<llvm::Module> module = std::move(*lazy);
  auto check = [&](llvm::Error error) {
    if (error)
      fail("cannot read the device image (compiling " + what.describe() +
           "): " + llvm::toString(std::move(error)));
  };
  if (llvm::Function* root = kernel.empty() ? nullptr : module->getFunction(kernel)) {
    std::unordered_set<const llvm::Value*> seen;
    std::vector<llvm::GlobalValue*> work{root};
    std::vector<const llvm::Value*> stack;
    auto visit = [&](const llvm::Value* value) {
      stack.push_back(value);
      while (!stack.empty()) {
        const llvm::Value* v = stack.back();
        stack.pop_back();
        if (!seen.insert(v).second) continue;
        if (const auto* global = llvm::dyn_cast<llvm::GlobalValue>(v))
          work.push_back(const_cast<llvm::GlobalValue*>(global));
        else if (const auto* constant = llvm::dyn_cast<llvm::Constant>(v))
          for (const llvm::Use& operand : constant->operands()) stack.push_back(operand.get());
      }
    };
    seen.insert(root);
    while (!work.empty()) {
      llvm::GlobalValue* global = work.back();
      work.pop_back();
      if (auto* function = llvm::dyn_cast<llvm::Function>(global)) {
        check(function->materialize());
        for (const llvm::BasicBlock& block : *function)
          for (const llvm::Instruction& instruction : block)
            for (const llvm::Use& operand : instruction.operands()) visit(operand.get());
      } else if (auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(global)) {
        if (variable->hasInitializer()) visit(variable->getInitializer());
      } else if (auto* alias = llvm::dyn_cast<llvm::GlobalAlias>(global)) {
        visit(alias->getAliasee());
      }
    }
    for (llvm::Function& function : *module)
      if (function.isMaterializable()) function.deleteBody();
  }
  check(module->materializeAll());
  const llvm::Triple& triple = module->getTargetTriple();
  if (triple.getArch() != llvm::Triple::nvptx64)
    fail("the device image of " + what.describe() + " is for " + triple.str() +
         ", not nvptx64-nvidia-cuda; compile the program with -fsycl-targets=nvptx64");
  return module;
}

// Every function gets the target's CPU and PTX version (so that libdevice's functions inline
// into kernels compiled for another PTX version), and the kernels' float denormal mode, which
// also decides __nvvm_reflect("__CUDA_FTZ") in libdevice.
void unify_function_attributes(llvm::Module& module, const target_choice& target) {
  bool flush_to_zero = false;
  for (const llvm::Function& function : module)
    if (!function.isDeclaration() && function.getCallingConv() == llvm::CallingConv::PTX_Kernel &&
        function.getDenormalModeF32Raw().Output == llvm::DenormalMode::PreserveSign)
      flush_to_zero = true;
  module.setModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", flush_to_zero ? 1 : 0);

  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.addFnAttr("target-cpu", target.arch);
    function.addFnAttr("target-features", target.features);
    if (flush_to_zero) function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
}

void verify(llvm::Module& module, const job& what, const char* stage) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(module, &out))
    fail("the IR of " + what.describe() + " is invalid " + stage + ": " + problems);
}

// Calls that must be gone once O3 ran NVVMReflect.
void check_reflect_resolved(const llvm::Module& module, const job& what) {
  for (const char* name : {"__nvvm_reflect", "llvm.nvvm.reflect"})
    if (const llvm::Function* reflect = module.getFunction(name); reflect && !reflect->use_empty())
      fail("__nvvm_reflect is still called after optimizing " + what.describe() +
           "; its argument must be a constant string");
}

void write_ir(const llvm::Module& module, const std::string& path) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (!ec) module.print(out, nullptr);
}

} // namespace

std::string compile_uncached(const request& req, const target_choice& target,
                             const std::string& libdevice_path, const std::string& dump_ir) {
  job what{req.kernel, target.arch};
  std::string ptx;
  run_guarded(what, [&] {
    llvm::LLVMContext context;
    context.setDiscardValueNames(dump_ir.empty());
    diagnostics diags(context);

    std::unique_ptr<llvm::Module> module = parse(req.bitcode, context, req.kernel, what);
    // An image compiled with -O0 is optimized all the same: O3 must remove the branches
    // __nvvm_reflect("__CUDA_ARCH") rules out, or instructions of other architectures remain,
    // which the backend cannot select.
    for (llvm::Function& function : *module) function.removeFnAttr(llvm::Attribute::OptimizeNone);
    keep_kernels(*module, req.kernel);
    specialize_constants(*module, req.spec_constants, what);
    // sycl_ext_oneapi_local_memory: each group_local_memory call a shared-memory variable.
    if (std::string why =
            passes::lower_group_local_memory(*module, "__syclone_group_local_memory", 3, false);
        !why.empty())
      fail(what.describe() + ": " + why);
    // sycl_ext_oneapi_work_group_static: each variable a shared-memory variable.
    if (std::string why =
            passes::lower_work_group_static(*module, "__syclone_work_group_static", 3, false);
        !why.empty())
      fail(what.describe() + ": " + why);

    auto machine = create_target_machine(target);
    module->setTargetTriple(machine->getTargetTriple());
    module->setDataLayout(machine->createDataLayout());
    lower_hierarchical(*module, what);
    // sycl_ext_oneapi_device_global: loads of pointers the runtime sets after loading the module
    // (cuda_kernels.cpp), one instance per device for every module.
    if (std::string why =
            passes::lower_device_globals(*module, "__syclone_device_global", true, 1, nullptr);
        !why.empty())
      fail(what.describe() + ": " + why);

    lower_math_intrinsics(*module);
    link_libdevice(*module, libdevice_path, what);
    unify_function_attributes(*module, target);
    diags.check(what, "linking");
    verify(*module, what, "before optimization");

    optimize(*module, *machine);
    // O3 may form math intrinsics of its own (pow(2, x) -> exp2(x), for instance).
    if (lower_math_intrinsics(*module)) {
      link_libdevice(*module, libdevice_path, what);
      unify_function_attributes(*module, target);
      optimize(*module, *machine);
    }
    diags.check(what, "optimization");
    check_reflect_resolved(*module, what);
    if (!dump_ir.empty()) write_ir(*module, dump_ir);

    ptx = emit_ptx(*module, *machine, diags, what);
  });
  return ptx;
}

} // namespace syclone::jit::detail
