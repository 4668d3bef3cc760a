#include "sub_groups.hpp"

#include "diagnostics.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <unordered_set>

namespace syclone::driver {

namespace {

std::string lines_starting(const std::string& text, std::initializer_list<const char*> kinds) {
  std::string kept;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    for (const char* kind : kinds)
      if (line.rfind(std::string(kind) + " ", 0) == 0) kept += line + "\n";
  return kept;
}

std::string readable(const std::string& symbol) {
  std::string text = llvm::demangle(symbol);
  constexpr std::string_view typeinfo = "typeinfo name for ";
  if (text.starts_with(typeinfo)) text.erase(0, typeinfo.size());
  return text;
}

} // namespace

std::string merge_sub_group_records(const std::string& host_file, const std::string& device_file) {
  return lines_starting(host_file, {"kernel", "reads", "reqd_work_group_size",
                                    "work_group_size_hint", "device_has"}) +
         lines_starting(device_file, {"define", "declare"});
}

sub_group_records read_sub_group_records(const link_inputs& inputs) {
  sub_group_records records;
  for (const auto& unit : inputs.units()) {
    if (!unit.included) continue;
    for (const auto& record : unit.records) {
      if (record.target != sub_group_section_target) continue;
      std::istringstream lines(record.bitcode.str());
      for (std::string text; std::getline(lines, text);) {
        std::istringstream in(text);
        std::string kind, name, size;
        if (!(in >> kind >> name)) continue;
        if (kind == "reqd_work_group_size" || kind == "work_group_size_hint" ||
            kind == "device_has") {
          auto& values = kind == "device_has"             ? records.device_has[name]
                         : kind == "reqd_work_group_size" ? records.reqd_work_group_size[name]
                                                          : records.work_group_size_hint[name];
          values.clear();
          for (std::string value; in >> value && value != "end";) values.push_back(value);
          continue;
        }
        if (!(in >> size)) continue;
        if (kind == "kernel") {
          // A kernel stating no size runs with the primary one; only compile_sub_group_size
          // tells it apart (0, SYCL 2020), so it gets no record.
          if (size == "unstated") {
            size = "primary";
            records.unstated_kernels.insert(name);
          }
          if (size.rfind("sycl:", 0) == 0) {
            size.erase(0, 5);
            records.core_kernels.insert(name);
          }
          records.kernels[name] = size;
        } else if (kind == "reads")
          records.reads[name].insert(size); // "reads <kernel> <specialization constant>"
        else if (kind == "define")
          records.defined[name].push_back({size, unit.origin});
        else if (kind == "declare")
          records.declared[name].push_back({size, unit.origin});
      }
    }
  }
  return records;
}

bool check_sub_group_sizes(const sub_group_records& records, const device_image& image) {
  std::vector<std::string> errors;
  // One size per SYCL_EXTERNAL function in every translation unit that defines or calls it.
  for (const auto& [symbol, definitions] : records.defined) {
    const auto& definition = definitions.front();
    auto uses = records.declared.find(symbol);
    if (uses == records.declared.end()) continue;
    for (const auto& use : uses->second)
      if (use.size != definition.size)
        errors.push_back("SYCL_EXTERNAL function '" + readable(symbol) + "' is defined in " +
                         definition.origin + " with sub-group size " + (definition.size) + " but " +
                         use.origin + " calls it with sub-group size " + (use.size) +
                         "; give both declarations the same sub-group size attribute (seed 004)");
  }

  // Kernels: the SYCL_EXTERNAL functions a kernel reaches must have the kernel's size.
  if (!records.defined.empty() && !records.kernels.empty()) {
    llvm::LLVMContext context;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(image.bitcode(), "image", false);
    auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
    if (!module)
      throw driver_error("cannot read the linked " + image.target +
                         " device code: " + llvm::toString(module.takeError()));
    for (const auto& kernel_name : image.kernels) {
      auto kernel_size = records.kernels.find(kernel_name);
      if (kernel_size == records.kernels.end()) continue;
      const llvm::Function* kernel = (*module)->getFunction(kernel_name);
      if (!kernel) continue;
      std::unordered_set<const llvm::Function*> seen{kernel};
      std::vector<const llvm::Function*> work{kernel};
      std::set<std::string> reported;
      while (!work.empty()) {
        const llvm::Function* f = work.back();
        work.pop_back();
        for (const llvm::BasicBlock& block : *f)
          for (const llvm::Instruction& instruction : block)
            for (const llvm::Use& operand : instruction.operands()) {
              const auto* callee =
                  llvm::dyn_cast<llvm::Function>(operand.get()->stripPointerCasts());
              if (!callee || !seen.insert(callee).second) continue;
              work.push_back(callee);
              auto definition = records.defined.find(callee->getName().str());
              if (definition == records.defined.end()) continue;
              const auto& def = definition->second.front();
              if (def.size != kernel_size->second && reported.insert(def.origin).second)
                errors.push_back("kernel '" + readable(kernel_name) + "' has sub-group size " +
                                 (kernel_size->second) + " but calls SYCL_EXTERNAL function '" +
                                 readable(callee->getName().str()) + "' compiled in " + def.origin +
                                 " for sub-group size " + (def.size) +
                                 "; give the function the kernel's sub-group size attribute "
                                 "(seed 004: sizes must match exactly)");
            }
      }
    }
  }
  for (const auto& error : errors) llvm::errs() << "syclone++: error: " << error << "\n";
  return errors.empty();
}

std::optional<std::string> build_sub_group_registration(const sub_group_records& records,
                                                        const toolchain& tools, const runner& run,
                                                        temp_dir& temp) {
  std::string table;
  std::size_t count = 0;
  for (const auto& [kernel, size] : records.kernels) {
    if (records.unstated_kernels.count(kernel)) continue; // the runtime's default
    std::string value = size == "automatic" ? "0xfffffffeu"
                        : size == "primary" ? "0xffffffffu"
                        : records.core_kernels.count(kernel)
                            ? size + "u | SYCLONE_SUB_GROUP_SIZE_CORE"
                            : size + "u";
    table += "    {\"" + kernel + "\", " + value + "},\n";
    ++count;
  }
  // The specialization constants each kernel reads, as the host compile saw them.
  std::string reads;
  std::size_t read_count = 0;
  for (const auto& [kernel, names] : records.reads)
    for (const auto& name : names) {
      reads += "    {\"" + kernel + "\", \"" + name + "\"},\n";
      ++read_count;
    }
  // SYCL 2020 5.8.1 kernel attributes.
  std::set<std::string> attributed;
  for (const auto* m :
       {&records.reqd_work_group_size, &records.work_group_size_hint, &records.device_has})
    for (const auto& [kernel, values] : *m) attributed.insert(kernel);
  std::string aspect_lists, attributes;
  std::size_t attribute_count = 0;
  auto sizes_of = [](const std::map<std::string, std::vector<std::string>>& m,
                     const std::string& kernel) {
    auto it = m.find(kernel);
    std::size_t dims = it == m.end() ? 0 : std::min<std::size_t>(it->second.size(), 3);
    std::string text = std::to_string(dims) + "u, {";
    for (std::size_t d = 0; d < 3; ++d)
      text += (d ? ", " : "") + (d < dims ? it->second[d] + "ull" : std::string("0"));
    return text + "}";
  };
  for (const auto& kernel : attributed) {
    std::string aspects = "-1, nullptr";
    if (auto it = records.device_has.find(kernel); it != records.device_has.end()) {
      std::string list_name = "aspects_" + std::to_string(attribute_count);
      std::string values;
      for (const auto& v : it->second) values += v + ", ";
      aspect_lists += "const int32_t " + list_name + "[] = {" + values + "0};\n";
      aspects = std::to_string(it->second.size()) + ", " + list_name;
    }
    attributes += "    {\"" + kernel + "\", " + sizes_of(records.reqd_work_group_size, kernel) +
                  ", " + sizes_of(records.work_group_size_hint, kernel) + ", " + aspects + "},\n";
    ++attribute_count;
  }
  if (count == 0 && read_count == 0 && attribute_count == 0) return std::nullopt;
  if (count == 0) table = "    {nullptr, 0},\n"; // no zero-length arrays
  if (read_count == 0) reads = "    {nullptr, nullptr},\n";
  if (attribute_count == 0)
    attributes = "    {nullptr, 0u, {0, 0, 0}, 0u, {0, 0, 0}, -1, nullptr},\n";
  std::string source = temp.file("sub_groups.cpp");
  write_file(source,
             "/* Generated by syclone++: the kernels' required sub-group sizes (seed 004) and the\n"
             "   specialization constants they read (host compile). */\n"
             "#include <sycl/detail/kernel_info.hpp>\n\n"
             "namespace {\n"
             "const syclone_kernel_sub_group_size sizes[] = {\n" +
                 table +
                 "};\n"
                 "const syclone_kernel_spec_constant reads[] = {\n" +
                 reads + "};\n" + aspect_lists +
                 "const syclone_kernel_attributes attributes[] = {\n" + attributes +
                 "};\n"
                 "__attribute__((constructor(101))) void register_sub_group_sizes() {\n"
                 "  __syclone_register_sub_group_sizes(sizes, " +
                 std::to_string(count) +
                 ");\n"
                 "  __syclone_register_kernel_spec_constants(reads, " +
                 std::to_string(read_count) +
                 ");\n"
                 "  __syclone_register_kernel_attributes(attributes, " +
                 std::to_string(attribute_count) +
                 ");\n"
                 "}\n"
                 "} // namespace\n");
  std::string object = temp.file("sub_groups.o");
  int status = run.run({{tools.clangxx(), "-c", "-fPIC", "-O1", "-w", "-x", "c++", "-std=c++17",
                         "-isystem", tools.include_dir(), source, "-o", object},
                        {}});
  if (status != 0)
    throw driver_error("compiling the generated sub-group size registration " + source +
                       " failed (a bug in syclone++); rerun with -save-temps to keep it");
  return object;
}

} // namespace syclone::driver
