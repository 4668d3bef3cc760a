// The LLVM pass plugin syclone++ loads into every host compile (-fpass-plugin): the work-item
// loop compiler (work_item_loops.hpp) at the start of the optimizer pipeline, after inlining
// made each kernel's body one function and before the loop vectorizer, which then vectorizes the
// work-item loops; after the vectorizer, the exchanges of sub-groups those loops run as vectors are
// kept in registers (exchange_forwarding.hpp). At -O0 neither runs; the runtime runs those kernels
// on fibers. Before the loops, at every level: each group_local_memory call of a kernel
// (sycl_ext_oneapi_local_memory) becomes a thread-local variable of its own (src/passes): a
// thread runs one work-group at a time, as loops or as fibers. First of all, at the start of the
// pipeline: the functions that reach a barrier become convergent (convergence.hpp), so that the
// simplification before the loop compiler keeps each barrier in its one place.
#include "convergence.hpp"
#include "exchange_forwarding.hpp"
#include "work_item_loops.hpp"

#include "passes/group_local_memory.hpp"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Plugins/PassPlugin.h>

namespace {
struct group_local_memory_pass : llvm::PassInfoMixin<group_local_memory_pass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
    if (!module.getFunction("__syclone_host_group_local_memory") &&
        !module.getFunction("__syclone_host_work_group_static"))
      return llvm::PreservedAnalyses::all();
    std::string why = syclone::passes::lower_group_local_memory(
        module, "__syclone_host_group_local_memory", 0, true);
    if (!why.empty()) module.getContext().diagnose(llvm::DiagnosticInfoGeneric(why));
    // sycl_ext_oneapi_work_group_static: each variable a thread-local variable.
    why = syclone::passes::lower_work_group_static(module, "__syclone_host_work_group_static", 0,
                                                   true);
    if (!why.empty()) module.getContext().diagnose(llvm::DiagnosticInfoGeneric(why));
    return llvm::PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "syclone-host-loops", "1", [](llvm::PassBuilder& builder) {
            builder.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager& passes, llvm::OptimizationLevel level) {
                  if (level != llvm::OptimizationLevel::O0)
                    passes.addPass(syclone::host_loops::convergence_pass());
                });
            builder.registerOptimizerEarlyEPCallback([&builder](llvm::ModulePassManager& passes,
                                                                llvm::OptimizationLevel level,
                                                                llvm::ThinOrFullLTOPhase) {
              passes.addPass(group_local_memory_pass());
              if (level != llvm::OptimizationLevel::O0)
                passes.addPass(syclone::host_loops::work_item_loops_pass(builder, level));
            });
            builder.registerVectorizerEndEPCallback(
                [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel level) {
                  if (level != llvm::OptimizationLevel::O0)
                    passes.addPass(syclone::host_loops::exchange_forwarding_pass());
                });
          }};
}
