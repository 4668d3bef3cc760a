// libdevice, CUDA's math library as NVPTX bitcode (<cuda>/nvvm/libdevice/libdevice.10.bc):
// the NVPTX backend selects instructions for a few math operations only (sqrt, fabs, fma,
// rounding, exp2 for f32), so everything else — calls of __nv_* from device headers, C math
// functions, and the math intrinsics clang emits for them — is computed by libdevice's
// functions, linked into the module before O3 so that they inline and fold.
#include "steps.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

namespace syclone::jit::detail {
namespace {

namespace fs = std::filesystem;

// Math intrinsics and the libdevice function computing each: __nv_<name>f for float,
// __nv_<name> for double, __nv_fast_<name>f for float with the afn flag (CUDA's
// -use_fast_math) where libdevice has one.
enum class native { never, f32, f32_afn };
struct math_function {
  llvm::Intrinsic::ID id;
  const char* name;
  native selectable; // when the NVPTX backend selects an instruction itself
  bool has_fast;
};
constexpr math_function k_math_functions[] = {
    {llvm::Intrinsic::exp, "exp", native::never, true},
    {llvm::Intrinsic::exp2, "exp2", native::f32, false},
    {llvm::Intrinsic::exp10, "exp10", native::never, true},
    {llvm::Intrinsic::log, "log", native::never, true},
    {llvm::Intrinsic::log2, "log2", native::never, true},
    {llvm::Intrinsic::log10, "log10", native::never, true},
    {llvm::Intrinsic::sin, "sin", native::f32_afn, true},
    {llvm::Intrinsic::cos, "cos", native::f32_afn, true},
    {llvm::Intrinsic::tan, "tan", native::never, true},
    {llvm::Intrinsic::asin, "asin", native::never, false},
    {llvm::Intrinsic::acos, "acos", native::never, false},
    {llvm::Intrinsic::atan, "atan", native::never, false},
    {llvm::Intrinsic::atan2, "atan2", native::never, false},
    {llvm::Intrinsic::sinh, "sinh", native::never, false},
    {llvm::Intrinsic::cosh, "cosh", native::never, false},
    {llvm::Intrinsic::tanh, "tanh", native::never, false},
    {llvm::Intrinsic::pow, "pow", native::never, true},
    {llvm::Intrinsic::powi, "powi", native::never, false},
    {llvm::Intrinsic::sincos, "sincos", native::never, true},
    {llvm::Intrinsic::modf, "modf", native::never, false},
    {llvm::Intrinsic::lrint, "llrint", native::never, false},
    {llvm::Intrinsic::llrint, "llrint", native::never, false},
    {llvm::Intrinsic::lround, "llround", native::never, false},
    {llvm::Intrinsic::llround, "llround", native::never, false},
};

const math_function* math_function_for(llvm::Intrinsic::ID id) {
  for (const auto& function : k_math_functions)
    if (function.id == id) return &function;
  return nullptr;
}

// What the CUDA driver resolves when it loads PTX, and what NVVMReflect resolves.
bool provided_elsewhere(llvm::StringRef name) {
  return name == "vprintf" || name == "malloc" || name == "free" || name == "__assertfail" ||
         name == "__nvvm_reflect";
}

llvm::Type* element_type(llvm::Type* type) {
  if (auto* vector = llvm::dyn_cast<llvm::VectorType>(type)) return vector->getElementType();
  return type;
}

// Rewrites one call. Vectors are computed lane by lane, half and bfloat in float.
class math_lowering {
public:
  math_lowering(llvm::IntrinsicInst& call, const math_function& function)
      : m_call(call), m_function(function), m_builder(&call), m_module(*call.getModule()) {}

  void run() {
    llvm::Type* result = m_call.getType();
    llvm::Value* replacement;
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(m_call.getArgOperand(0)->getType())) {
      replacement = llvm::PoisonValue::get(result);
      for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
        std::vector<llvm::Value*> arguments;
        for (llvm::Value* argument : m_call.args())
          arguments.push_back(argument->getType()->isVectorTy()
                                  ? m_builder.CreateExtractElement(argument, lane)
                                  : argument);
        auto parts = scalar(arguments);
        if (auto* structure = llvm::dyn_cast<llvm::StructType>(result)) {
          for (unsigned i = 0; i < structure->getNumElements(); ++i) {
            llvm::Value* part = m_builder.CreateExtractValue(replacement, i);
            part = m_builder.CreateInsertElement(part, parts[i], lane);
            replacement = m_builder.CreateInsertValue(replacement, part, i);
          }
        } else {
          replacement = m_builder.CreateInsertElement(replacement, parts[0], lane);
        }
      }
    } else {
      std::vector<llvm::Value*> arguments(m_call.arg_begin(), m_call.arg_end());
      auto parts = scalar(arguments);
      if (auto* structure = llvm::dyn_cast<llvm::StructType>(result)) {
        replacement = llvm::PoisonValue::get(structure);
        for (unsigned i = 0; i < parts.size(); ++i)
          replacement = m_builder.CreateInsertValue(replacement, parts[i], i);
      } else {
        replacement = parts[0];
      }
    }
    m_call.replaceAllUsesWith(replacement);
    m_call.eraseFromParent();
  }

private:
  // The scalar results: one value, or two for sincos {sin, cos} and modf {fraction, integral}.
  std::vector<llvm::Value*> scalar(std::vector<llvm::Value*> arguments) {
    llvm::LLVMContext& context = m_module.getContext();
    llvm::Type* source = arguments[0]->getType();
    bool widen = !source->isFloatTy() && !source->isDoubleTy(); // half, bfloat
    llvm::Type* real = widen ? llvm::Type::getFloatTy(context) : source;
    for (auto& argument : arguments)
      if (argument->getType()->isFloatingPointTy() && widen)
        argument = m_builder.CreateFPExt(argument, real);

    bool single = real->isFloatTy();
    bool fast = single && m_function.has_fast && m_call.hasApproxFunc();
    std::string name =
        std::string(fast ? "__nv_fast_" : "__nv_") + m_function.name + (single ? "f" : "");

    std::vector<llvm::Value*> results;
    llvm::Intrinsic::ID id = m_function.id;
    if (id == llvm::Intrinsic::powi) // __nv_powif(float, int), __nv_powi(double, int)
      arguments[1] = m_builder.CreateSExtOrTrunc(arguments[1], llvm::Type::getInt32Ty(context));
    if (id == llvm::Intrinsic::sincos || id == llvm::Intrinsic::modf) {
      // void __nv_sincosf(float, float* sin, float* cos); float __nv_modff(float, float* integral)
      unsigned outputs = id == llvm::Intrinsic::sincos ? 2 : 1;
      std::vector<llvm::Value*> slots;
      llvm::IRBuilder<> entry(&m_call.getFunction()->getEntryBlock().front());
      for (unsigned i = 0; i < outputs; ++i) {
        llvm::Value* slot = entry.CreateAlloca(real);
        slots.push_back(slot);
        arguments.push_back(
            m_builder.CreateAddrSpaceCast(slot, llvm::PointerType::get(context, 0)));
      }
      llvm::Type* returned = id == llvm::Intrinsic::sincos ? llvm::Type::getVoidTy(context) : real;
      llvm::Value* value = call(name, returned, arguments);
      if (id == llvm::Intrinsic::modf) results.push_back(value);
      for (llvm::Value* slot : slots) results.push_back(m_builder.CreateLoad(real, slot));
    } else if (element_type(m_call.getType())->isIntegerTy()) {
      // lrint/llrint/lround/llround: libdevice returns long long.
      llvm::Value* value = call(name, llvm::Type::getInt64Ty(context), arguments);
      results.push_back(m_builder.CreateSExtOrTrunc(value, element_type(m_call.getType())));
      return results;
    } else {
      results.push_back(call(name, real, arguments));
    }
    for (auto& result : results)
      if (widen) result = m_builder.CreateFPTrunc(result, source);
    return results;
  }

  llvm::Value* call(const std::string& name, llvm::Type* returned,
                    const std::vector<llvm::Value*>& arguments) {
    std::vector<llvm::Type*> parameters;
    for (llvm::Value* argument : arguments) parameters.push_back(argument->getType());
    auto callee =
        m_module.getOrInsertFunction(name, llvm::FunctionType::get(returned, parameters, false));
    llvm::CallInst* result = m_builder.CreateCall(callee, arguments);
    result->copyFastMathFlags(&m_call);
    return result;
  }

  llvm::IntrinsicInst& m_call;
  const math_function& m_function;
  llvm::IRBuilder<> m_builder;
  llvm::Module& m_module;
};

bool needs_lowering(const llvm::IntrinsicInst& call, const math_function& function) {
  llvm::Type* type = element_type(call.getArgOperand(0)->getType());
  if (!type->isFloatingPointTy()) return false;
  bool single = type->isFloatTy() || type->isHalfTy() || type->isBFloatTy();
  switch (function.selectable) {
  case native::f32:
    return !single;
  case native::f32_afn:
    return !(single && call.hasApproxFunc());
  case native::never:
    break;
  }
  return true;
}

// libdevice files read so far, shared by all compilations (read-only after loading).
struct loaded_file {
  fs::file_time_type modified;
  std::uintmax_t size = 0;
  std::unique_ptr<llvm::MemoryBuffer> contents;
};

const llvm::MemoryBuffer& read_libdevice(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, loaded_file> files;
  std::error_code ec;
  auto modified = fs::last_write_time(path, ec);
  auto size = ec ? 0 : fs::file_size(path, ec);
  if (ec) fail("cannot read libdevice `" + path + "`: " + ec.message());
  std::lock_guard lock(mutex);
  loaded_file& file = files[path];
  if (!file.contents || file.modified != modified || file.size != size) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) fail("cannot read libdevice `" + path + "`: " + buffer.getError().message());
    // An older buffer may still be in use by another compilation: keep it alive.
    static std::vector<std::unique_ptr<llvm::MemoryBuffer>> retired;
    if (file.contents) retired.push_back(std::move(file.contents));
    file = {modified, size, std::move(*buffer)};
  }
  return *file.contents;
}

std::string candidate(const fs::path& root) {
  return (root / "nvvm" / "libdevice" / "libdevice.10.bc").string();
}

} // namespace

bool lower_math_intrinsics(llvm::Module& module) {
  std::vector<std::pair<llvm::IntrinsicInst*, const math_function*>> calls;
  for (llvm::Function& function : module) {
    if (!function.isIntrinsic()) continue;
    const math_function* math = math_function_for(function.getIntrinsicID());
    if (!math) continue;
    for (llvm::User* user : function.users())
      if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(user))
        if (needs_lowering(*call, *math)) calls.emplace_back(call, math);
  }
  for (auto [call, math] : calls) math_lowering(*call, *math).run();
  return !calls.empty();
}

std::vector<std::string> undefined_functions(const llvm::Module& module) {
  std::vector<std::string> names;
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() ||
        provided_elsewhere(function.getName()))
      continue;
    bool used = false;
    for (const llvm::User* user : function.users())
      used |= !llvm::isa<llvm::Constant>(user) || !user->use_empty();
    if (used) names.push_back(function.getName().str());
  }
  return names;
}

std::string find_libdevice(const std::string& requested, std::vector<std::string>* searched) {
  if (!requested.empty()) {
    if (searched) searched->push_back(requested);
    return requested;
  }
  std::error_code ec;
  auto found = [&](const std::string& path) {
    if (searched) searched->push_back(path);
    return fs::is_regular_file(path, ec);
  };
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char* root = std::getenv(variable); root && *root)
      if (auto path = candidate(root); found(path)) return path;
  if (auto path = candidate("/usr/local/cuda"); found(path)) return path;
  // Versioned installations without the /usr/local/cuda link, newest first.
  std::vector<std::pair<std::vector<int>, std::string>> versioned;
  for (const auto& entry : fs::directory_iterator("/usr/local", ec)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("cuda-")) continue;
    std::vector<int> version;
    for (std::size_t at = 5; at < name.size(); at = name.find('.', at) + 1) {
      version.push_back(std::atoi(name.c_str() + at));
      if (name.find('.', at) == std::string::npos) break;
    }
    versioned.emplace_back(std::move(version), entry.path().string());
  }
  std::sort(versioned.begin(), versioned.end(), std::greater<>());
  for (const auto& [version, root] : versioned)
    if (auto path = candidate(root); found(path)) return path;
  for (std::string path : {candidate("/usr/lib/cuda"),
                           std::string("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"),
                           candidate("/opt/cuda")})
    if (found(path)) return path;
  return "";
}

void link_libdevice(llvm::Module& module, const std::string& libdevice_path, const job& what) {
  std::vector<std::string> undefined = undefined_functions(module);
  if (undefined.empty()) return;

  std::error_code ec;
  bool present = !libdevice_path.empty() && fs::is_regular_file(libdevice_path, ec);
  if (!present) {
    std::vector<std::string> searched;
    find_libdevice(libdevice_path, &searched);
    std::string looked = "looked for " + join(searched);
    std::vector<std::string> math;
    for (const auto& name : undefined)
      if (llvm::StringRef(name).starts_with("__nv_")) math.push_back(name);
    if (!math.empty())
      fail(what.describe() + " calls " + join(math) +
           " from libdevice, CUDA's math library, which was not found (" + looked +
           "). Install the CUDA toolkit (its nvvm/libdevice/libdevice.10.bc), set CUDA_HOME to "
           "the installation, or give the file's path in the request");
    fail(what.describe() + " calls " + join(undefined) +
         ", defined neither in the device image nor in libdevice (not found: " + looked +
         "). A SYCL_EXTERNAL function must be defined in a translation unit linked into the "
         "program; C math functions need libdevice (set CUDA_HOME)");
  }

  llvm::LLVMContext& context = module.getContext();
  const llvm::MemoryBuffer& file = read_libdevice(libdevice_path);
  auto library = llvm::getOwningLazyBitcodeModule(
      llvm::MemoryBuffer::getMemBuffer(file.getMemBufferRef(), false), context);
  if (!library)
    fail("libdevice `" + libdevice_path +
         "` is not valid bitcode: " + llvm::toString(library.takeError()));
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());

  // C math functions (expf, sin, ...) are libdevice's __nv_<name>.
  for (const auto& name : undefined) {
    llvm::Function* user = module.getFunction(name);
    llvm::Function* provider = (*library)->getFunction("__nv_" + name);
    if (!provider || provider->getFunctionType() != user->getFunctionType()) continue;
    if (llvm::Function* existing = module.getFunction(provider->getName())) {
      if (existing->getFunctionType() != user->getFunctionType()) continue;
      user->replaceAllUsesWith(existing);
      user->eraseFromParent();
    } else {
      user->setName(provider->getName());
    }
  }

  bool failed = llvm::Linker::linkModules(
      module, std::move(*library), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module& linked, const llvm::StringSet<>& imported) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue& value) {
          return !value.hasName() || !imported.contains(value.getName());
        });
      });
  if (failed)
    fail("linking libdevice `" + libdevice_path + "` into " + what.describe() + " failed");

  undefined = undefined_functions(module);
  if (!undefined.empty())
    fail(what.describe() + " calls " + join(undefined) +
         ", defined neither in the device image nor in libdevice `" + libdevice_path +
         "`. A SYCL_EXTERNAL function must be defined in a translation unit linked into the "
         "program");
}

} // namespace syclone::jit::detail
