// O3 and PTX emission with the NVPTX TargetMachine, and turning LLVM's complaints into errors.
#include "steps.hpp"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

namespace syclone::jit::detail {

void fail(const std::string& message) {
  throw error("syclone JIT: " + message);
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) {
    if (!text.empty()) text += ", ";
    text += item;
  }
  return text.empty() ? "nothing" : text;
}

std::string job::describe() const {
  return (kernel.empty() ? std::string("all kernels of the device image")
                         : "kernel `" + kernel + "`") +
         " for " + arch;
}

diagnostics::diagnostics(llvm::LLVMContext& context) {
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo* info, void* self) {
        if (info->getSeverity() != llvm::DS_Error) return;
        std::string text;
        llvm::raw_string_ostream out(text);
        llvm::DiagnosticPrinterRawOStream printer(out);
        info->print(printer);
        static_cast<diagnostics*>(self)->m_errors.push_back(std::move(text));
      },
      this);
}

void diagnostics::check(const job& what, const char* stage) {
  if (m_errors.empty()) return;
  std::string message = std::string(stage) + " of " + what.describe() + " failed: ";
  for (std::size_t i = 0; i < m_errors.size(); ++i) message += (i ? "; " : "") + m_errors[i];
  m_errors.clear();
  fail(message);
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.SLPVectorization = true; // as clang -O3
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, modules);
}

std::string emit_ptx(llvm::Module& module, llvm::TargetMachine& machine, diagnostics& diags,
                     const job& what) {
  llvm::SmallString<0> text;
  {
    llvm::raw_svector_ostream out(text);
    llvm::legacy::PassManager passes;
    if (machine.addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::AssemblyFile))
      fail("the NVPTX target cannot write PTX for " + what.describe());
    passes.run(module);
  }
  diags.check(what, "PTX generation");
  return std::string(text.str());
}

} // namespace syclone::jit::detail
