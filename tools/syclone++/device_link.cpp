#include "device_link.hpp"

#include "diagnostics.hpp"
#include "spirv_lowering.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace syclone::driver {

namespace {

struct diagnostics {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

void collect(const llvm::DiagnosticInfo* info, void* context) {
  auto* sink = static_cast<diagnostics*>(context);
  std::string text;
  llvm::raw_string_ostream out(text);
  llvm::DiagnosticPrinterRawOStream printer(out);
  info->print(printer);
  out.flush();
  if (info->getSeverity() == llvm::DS_Error)
    sink->errors.push_back(std::move(text));
  else if (info->getSeverity() == llvm::DS_Warning)
    sink->warnings.push_back(std::move(text));
}

// "_ZTS5Named" -> "Named"; other symbols -> "f(int)".
std::string readable(llvm::StringRef name) {
  std::string text = llvm::demangle(name.str());
  constexpr std::string_view typeinfo = "typeinfo name for ";
  if (text.starts_with(typeinfo)) text.erase(0, typeinfo.size());
  return text;
}

// C++ features SYCL 2020 5.4 rules out of device code, by the runtime function they leave
// undefined: a clearer message than "undefined function __cxa_throw".
std::optional<std::string_view> unsupported_feature(std::string_view symbol) {
  static const std::pair<std::string_view, std::string_view> features[] = {
      {"__cxa_allocate_exception", "throws an exception"},
      {"__cxa_throw", "throws an exception"},
      {"__cxa_rethrow", "throws an exception"},
      {"__cxa_begin_catch", "catches an exception"},
      {"__cxa_end_catch", "catches an exception"},
      {"__cxa_guard_acquire", "initializes a function-local static variable"},
      {"__cxa_guard_release", "initializes a function-local static variable"},
      {"__cxa_pure_virtual", "calls a virtual function"},
      {"__dynamic_cast", "uses dynamic_cast"},
      {"_Znwm", "allocates with operator new"},
      {"_Znam", "allocates with operator new[]"},
      {"_ZdlPv", "deletes with operator delete"},
      {"_ZdlPvm", "deletes with operator delete"},
      {"_ZdaPv", "deletes with operator delete[]"},
  };
  for (const auto& [name, feature] : features)
    if (symbol == name) return feature;
  if (symbol.starts_with("_ZTV")) return "calls a virtual function";
  if (symbol.starts_with("_ZTI")) return "uses typeid or run-time type information";
  return std::nullopt;
}

// One input module of the link: its bitcode, copied so that it is aligned for the reader.
struct source_module {
  std::string origin;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
};

// Declarations with uses: the symbols a module needs from others.
std::vector<std::string> needed_symbols(const llvm::Module& module) {
  std::vector<std::string> names;
  for (const llvm::GlobalValue& value : module.global_values())
    if (value.isDeclaration() && !value.use_empty() && !value.getName().starts_with("llvm."))
      names.push_back(value.getName().str());
  return names;
}

// The roots' transitive uses: every global a root (a kernel or a SYCL_EXTERNAL function) can
// reach, with the first root that reaches it.
std::unordered_map<const llvm::GlobalValue*, const llvm::Function*>
reachable_from(const std::vector<const llvm::Function*>& roots) {
  std::unordered_map<const llvm::GlobalValue*, const llvm::Function*> reached;
  std::unordered_set<const llvm::Constant*> seen_constants;
  std::vector<const llvm::GlobalValue*> work;
  const llvm::Function* current = nullptr;

  std::vector<const llvm::Value*> stack;
  auto visit = [&](const llvm::Value* root) {
    stack.push_back(root);
    while (!stack.empty()) {
      const llvm::Value* value = stack.back();
      stack.pop_back();
      if (const auto* global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
        if (reached.try_emplace(global, current).second) work.push_back(global);
      } else if (const auto* constant = llvm::dyn_cast<llvm::Constant>(value)) {
        if (seen_constants.insert(constant).second)
          for (const llvm::Use& operand : constant->operands()) stack.push_back(operand.get());
      }
    }
  };

  for (const llvm::Function* root : roots) {
    current = root;
    visit(root);
    while (!work.empty()) {
      const llvm::GlobalValue* global = work.back();
      work.pop_back();
      if (const auto* function = llvm::dyn_cast<llvm::Function>(global)) {
        for (const llvm::BasicBlock& block : *function)
          for (const llvm::Instruction& instruction : block)
            for (const llvm::Use& operand : instruction.operands()) visit(operand.get());
      } else if (const auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(global)) {
        if (variable->hasInitializer()) visit(variable->getInitializer());
      } else if (const auto* alias = llvm::dyn_cast<llvm::GlobalAlias>(global)) {
        visit(alias->getAliasee());
      }
    }
  }
  return reached;
}

// SYCL 2020 5.10.1 and DESIGN.md "device images": an image holds what its kernels and
// SYCL_EXTERNAL functions reach, nothing else. The device compile of a translation unit also
// emits host-only code that no kernel calls (an explicit instantiation of a class template and
// through its vtable every virtual member, inline functions, static initializers); it must not
// reach the image, where the JIT would have to compile (and resolve the callees of) all of it.
// Everything but the roots becomes internal, then what the roots do not reach goes.
void keep_reachable(llvm::Module& module, const std::unordered_set<const llvm::Function*>& roots) {
  for (llvm::Function& function : module)
    if (!function.isDeclaration() && !roots.contains(&function))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& variable : module.globals())
    if (!variable.isDeclaration() && !variable.getName().starts_with("llvm."))
      variable.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalAlias& alias : module.aliases())
    alias.setLinkage(llvm::GlobalValue::InternalLinkage);
  // Host-only code marked `used` (attribute((used)), static initializers' registrations) is no
  // root of device code.
  for (const char* name :
       {"llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"})
    if (llvm::GlobalVariable* list = module.getNamedGlobal(name)) list->eraseFromParent();

  run_passes(module, [](llvm::ModulePassManager& mpm) { mpm.addPass(llvm::GlobalDCEPass()); });
  // Declarations only dead code used.
  std::vector<llvm::Function*> unused;
  for (llvm::Function& function : module)
    if (function.isDeclaration() && function.use_empty() && !function.isIntrinsic())
      unused.push_back(&function);
  for (llvm::Function* function : unused) function->eraseFromParent();
}

// For each kernel, the specialization constants it can read: the names passed to
// __syclone_spec_constant (include/sycl/kernel_handler.hpp) in every function the kernel can
// reach. The runtime answers kernel_bundle::has_specialization_constant and
// contains_specialization_constants from this list, without LLVM (SYCL 2020 4.11.11).
std::vector<std::vector<std::string>>
spec_constants_by_kernel(const llvm::Module& module,
                         const std::vector<const llvm::Function*>& kernels) {
  std::vector<std::vector<std::string>> result(kernels.size());
  const llvm::Function* marker = module.getFunction("__syclone_spec_constant");
  if (!marker) return result;
  std::unordered_map<const llvm::Function*, std::set<std::string>> read_in;
  for (const llvm::User* user : marker->users())
    if (const auto* call = llvm::dyn_cast<llvm::CallBase>(user);
        call && call->getCalledOperand() == marker && call->arg_size() == 3)
      if (auto name = spec_constant_name(call->getArgOperand(0)))
        read_in[call->getFunction()].insert(*name);
  if (read_in.empty()) return result;

  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::set<std::string> names;
    std::unordered_set<const llvm::Function*> seen{kernels[k]};
    std::unordered_set<const llvm::Constant*> seen_constants;
    std::vector<const llvm::Function*> work{kernels[k]};
    std::vector<const llvm::Value*> stack;
    while (!work.empty()) {
      const llvm::Function* function = work.back();
      work.pop_back();
      if (auto it = read_in.find(function); it != read_in.end())
        names.insert(it->second.begin(), it->second.end());
      for (const llvm::BasicBlock& block : *function)
        for (const llvm::Instruction& instruction : block)
          for (const llvm::Use& operand : instruction.operands()) {
            stack.push_back(operand.get());
            while (!stack.empty()) {
              const llvm::Value* value = stack.back();
              stack.pop_back();
              if (const auto* callee = llvm::dyn_cast<llvm::Function>(value)) {
                if (!callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
              } else if (const auto* alias = llvm::dyn_cast<llvm::GlobalAlias>(value)) {
                stack.push_back(alias->getAliasee());
              } else if (llvm::isa<llvm::ConstantExpr, llvm::ConstantAggregate>(value)) {
                const auto* constant = llvm::cast<llvm::Constant>(value);
                if (seen_constants.insert(constant).second)
                  for (const llvm::Use& inner : constant->operands()) stack.push_back(inner.get());
              }
            }
          }
    }
    result[k].assign(names.begin(), names.end());
  }
  return result;
}

} // namespace

// The name a __syclone_spec_constant call passes: a constant string, also behind casts and
// behind a call of a function that only returns it (device code built with -O0 calls
// detail::spec_constant_name<S>() without inlining it). The JIT resolves names the same way.
std::optional<std::string> spec_constant_name(const llvm::Value* value, int depth) {
  llvm::StringRef text;
  if (llvm::getConstantStringInfo(value, text)) return text.str();
  if (depth > 4) return std::nullopt;
  const auto* call = llvm::dyn_cast<llvm::CallBase>(value->stripPointerCasts());
  if (!call || call->arg_size() != 0) return std::nullopt;
  const llvm::Function* callee = call->getCalledFunction();
  if (!callee || callee->isDeclaration() || callee->size() != 1) return std::nullopt;
  const auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&callee->getEntryBlock().front());
  if (!ret || !ret->getReturnValue()) return std::nullopt;
  return spec_constant_name(ret->getReturnValue(), depth + 1);
}

std::optional<device_image>
link_device_code(const link_inputs& inputs, const device_target& target, const runner& run,
                 const std::set<std::string>& external_roots,
                 const std::map<std::string, std::string>& sub_group_sizes) {
  std::vector<source_module> included, candidates;
  for (const auto& unit : inputs.units())
    for (const auto& record : unit.records)
      if (record.target == target.name)
        (unit.included ? included : candidates)
            .push_back(
                {unit.origin, llvm::MemoryBuffer::getMemBufferCopy(record.bitcode, unit.origin)});
  if (included.empty()) return std::nullopt;
  if (target.image_format != "llvm-bc" && target.image_format != "spirv")
    throw driver_error("syclone++ cannot write " + std::string(target.image_format) +
                       " images (target " + std::string(target.name) + ")");

  llvm::LLVMContext context;
  diagnostics diags;
  context.setDiagnosticHandlerCallBack(collect, &diags, /*RespectFilters=*/true);
  auto composite = std::make_unique<llvm::Module>("syclone." + std::string(target.name), context);
  llvm::Linker linker(*composite);
  std::map<std::string, std::vector<std::string>> users; // symbol -> origins that use it

  auto link = [&](std::unique_ptr<llvm::Module> module, const std::string& origin) {
    for (auto& name : needed_symbols(*module)) users[name].push_back(origin);
    // A kernel is named after its kernel name type, so translation units that instantiate the
    // same kernel (a kernel template, a lambda of an inline function) define the same function
    // under the one-definition rule: keep one, as for inline functions.
    for (llvm::Function& function : *module)
      if (!function.isDeclaration() &&
          function.getCallingConv() == target.kernel_calling_convention &&
          function.hasExternalLinkage())
        function.setLinkage(llvm::GlobalValue::WeakODRLinkage);
    bool failed = linker.linkInModule(std::move(module));
    for (const auto& warning : diags.warnings)
      llvm::errs() << "syclone++: warning: " << origin << ": " << warning << "\n";
    diags.warnings.clear();
    if (failed || !diags.errors.empty()) {
      std::string message =
          "cannot link the " + std::string(target.name) + " device code of " + origin;
      for (const auto& error : diags.errors) message += ": " + error;
      throw driver_error(message);
    }
  };

  for (auto& source : included) {
    auto module = llvm::parseBitcodeFile(source.buffer->getMemBufferRef(), context);
    if (!module)
      throw driver_error("cannot read the " + std::string(target.name) + " device code of " +
                         source.origin + ": " + llvm::toString(module.takeError()) +
                         "; rebuild it with this syclone++");
    link(std::move(*module), source.origin);
  }

  // Archive members the host link leaves out but whose device code defines what the device code
  // needs (a SYCL_EXTERNAL function only kernels call is not referenced by host code).
  std::vector<std::unique_ptr<llvm::Module>> lazy(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto module = llvm::getLazyBitcodeModule(candidates[i].buffer->getMemBufferRef(), context);
    if (!module)
      throw driver_error("cannot read the " + std::string(target.name) + " device code of " +
                         candidates[i].origin + ": " + llvm::toString(module.takeError()));
    lazy[i] = std::move(*module);
  }
  // Only what the roots reach counts: host-only code of a unit needs nothing from archives.
  auto roots_of = [&] {
    std::vector<const llvm::Function*> roots;
    for (const llvm::Function& function : *composite)
      if (!function.isDeclaration() &&
          (function.getCallingConv() == target.kernel_calling_convention ||
           external_roots.contains(function.getName().str())))
        roots.push_back(&function);
    return roots;
  };
  auto needed_by_roots = [&] {
    std::set<std::string> names;
    for (const auto& [global, root] : reachable_from(roots_of()))
      if (global->isDeclaration() && !global->getName().starts_with("llvm."))
        names.insert(global->getName().str());
    return names;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (const auto& name : needed_by_roots()) {
      if (target.provides(name)) continue;
      for (std::size_t i = 0; i < lazy.size(); ++i) {
        if (!lazy[i]) continue;
        const llvm::GlobalValue* definition = lazy[i]->getNamedValue(name);
        if (!definition || definition->isDeclaration()) continue;
        run.step("device code of " + candidates[i].origin + " defines " + name + " for " +
                 std::string(target.name));
        link(std::move(lazy[i]), candidates[i].origin);
        progress = true;
        break;
      }
    }
  }

  // What the kernels and SYCL_EXTERNAL functions need and nothing defines. Host-only code of
  // the same translation units may need anything: it is no error, and it goes below.
  std::vector<const llvm::Function*> roots = roots_of();
  auto is_kernel = [&](const llvm::Function* f) {
    return f->getCallingConv() == target.kernel_calling_convention;
  };
  auto describe = [&](const llvm::Function* root) {
    return (is_kernel(root) ? "kernel '" : "SYCL_EXTERNAL function '") + readable(root->getName()) +
           "'";
  };
  std::vector<std::string> errors;
  std::map<std::string, const llvm::Function*> missing;
  for (const auto& [global, root] : reachable_from(roots))
    if (global->isDeclaration() && !target.provides(global->getName()))
      missing.emplace(global->getName().str(), root);
  std::set<std::pair<std::string_view, const llvm::Function*>> reported_features;
  for (const auto& [name, root] : missing) {
    std::string used_in;
    for (const auto& origin : users[name]) used_in += (used_in.empty() ? "" : ", ") + origin;
    if (used_in.empty()) used_in = "the program";
    if (auto feature = unsupported_feature(name)) {
      if (reported_features.insert({*feature, root}).second)
        errors.push_back(describe(root) + " " + std::string(*feature) + " (" + name + " in " +
                         used_in +
                         "), which device code cannot do (SYCL 2020 5.4); keep it out of the "
                         "code kernels call");
      continue;
    }
    const llvm::GlobalValue* global = composite->getNamedValue(name);
    bool is_function = global && llvm::isa<llvm::Function>(global);
    errors.push_back(std::string("undefined device ") + (is_function ? "function" : "variable") +
                     " '" + readable(name) + "' (" + name + ") for " + std::string(target.name) +
                     ", used by " + describe(root) + " in " + used_in +
                     "; define it with SYCL_EXTERNAL in a source compiled by syclone++ and "
                     "link that object or archive");
  }
  if (!errors.empty()) {
    for (const auto& error : errors) llvm::errs() << "syclone++: error: " << error << "\n";
    throw tool_failed{1};
  }

  keep_reachable(*composite, {roots.begin(), roots.end()});
  std::vector<const llvm::Function*> kernels;
  for (const llvm::Function& function : *composite)
    if (!function.isDeclaration() && is_kernel(&function)) kernels.push_back(&function);

  std::string broken;
  llvm::raw_string_ostream verifier(broken);
  if (llvm::verifyModule(*composite, &verifier))
    throw driver_error("the linked " + std::string(target.name) +
                       " device code is invalid (a bug in syclone++ or clang): " + broken);

  device_image image;
  image.target = std::string(target.name);
  image.format = std::string(target.image_format);
  std::sort(kernels.begin(), kernels.end(), [](const llvm::Function* a, const llvm::Function* b) {
    return a->getName() < b->getName();
  });
  for (const llvm::Function* kernel : kernels) image.kernels.push_back(kernel->getName().str());
  image.kernel_spec_constants = spec_constants_by_kernel(*composite, kernels);
  if (target.image_format == "spirv") {
    llvm::raw_string_ostream linked(image.linked_bitcode);
    llvm::WriteBitcodeToFile(*composite, linked);
    linked.flush();
    run.step("lower the " + std::string(target.name) +
             " device code to SPIR-V (pre-codegen pass, LLVM SPIR-V backend, post-pass)");
    spirv_image spirv = lower_to_spirv(*composite, sub_group_sizes);
    image.data = std::move(spirv.binary);
    image.manifest = std::move(spirv.manifest);
    return image;
  }
  llvm::raw_string_ostream out(image.data);
  llvm::WriteBitcodeToFile(*composite, out);
  out.flush();
  return image;
}

} // namespace syclone::driver
