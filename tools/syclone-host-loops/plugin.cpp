// The LLVM pass plugin syclone++ loads into every host compile (-fpass-plugin): the work-item
// loop compiler (work_item_loops.hpp) at the start of the optimizer pipeline, after inlining
// made each kernel's body one function and before the loop vectorizer, which then vectorizes the
// work-item loops; after the vectorizer, the exchanges of sub-groups those loops run as vectors are
// kept in registers (exchange_forwarding.hpp). At -O0 neither runs; the runtime runs those kernels
// on fibers.
#include "exchange_forwarding.hpp"
#include "work_item_loops.hpp"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Plugins/PassPlugin.h>

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "syclone-host-loops", "1", [](llvm::PassBuilder& builder) {
            builder.registerOptimizerEarlyEPCallback([&builder](llvm::ModulePassManager& passes,
                                                                llvm::OptimizationLevel level,
                                                                llvm::ThinOrFullLTOPhase) {
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
