#include "driver.hpp"

#include "device_code.hpp"
#include "device_link.hpp"
#include "diagnostics.hpp"
#include "options.hpp"
#include "paths.hpp"
#include "registration.hpp"
#include "sub_groups.hpp"
#include "targets.hpp"
#include "toolchain.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>

namespace syclone::driver {

void warning(const std::string& message) {
  llvm::errs() << "syclone++: warning: " << message << "\n";
}

void note(const std::string& message) {
  llvm::errs() << "syclone++: note: " << message << "\n";
}

namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

struct session {
  const command_line& line;
  const toolchain& tools;
  runner run;
  temp_dir temp;
};

std::vector<std::string> compile_targets(const command_line& line) {
  if (line.targets) return *line.targets;
  return {std::string(device_targets().front().name)};
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// --- Diagnostics of concurrent host and device compiles
// Both compiles parse the same source, so most device diagnostics repeat host ones: the host
// output is printed as clang wrote it, then the device diagnostics that add something.

std::string without_colors(std::string_view text) {
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= '@' && text[i] <= '~')) ++i;
      continue;
    }
    plain += text[i];
  }
  return plain;
}

bool is_diagnostic_header(const std::string& plain) {
  return plain.find(": error: ") != std::string::npos ||
         plain.find(": warning: ") != std::string::npos ||
         plain.find(": fatal error: ") != std::string::npos;
}

bool is_summary(const std::string& plain) {
  return plain.ends_with(" generated.") &&
         (plain.find(" warning") != std::string::npos || plain.find(" error") != std::string::npos);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

// The device output minus diagnostics the host output already shows and minus clang's
// "N warnings generated." lines.
std::string new_device_diagnostics(const std::string& host, const std::string& device) {
  std::set<std::string> shown;
  for (const auto& line : lines_of(host)) {
    std::string plain = without_colors(line);
    if (is_diagnostic_header(plain)) shown.insert(plain);
  }
  struct block {
    std::vector<std::string> lines;
    std::string header;
  };
  std::vector<block> blocks(1);
  for (const auto& line : lines_of(device)) {
    std::string plain = without_colors(line);
    if (is_summary(plain)) continue;
    bool header = is_diagnostic_header(plain);
    bool include_chain = plain.starts_with("In file included from ");
    const block& last = blocks.back();
    bool last_is_chain = !last.lines.empty() && last.header.empty() &&
                         without_colors(last.lines.back()).starts_with("In file included from ");
    if ((header && !last.header.empty()) || (header && !last_is_chain && !last.lines.empty()) ||
        (include_chain && !last_is_chain && !last.lines.empty()))
      blocks.emplace_back();
    blocks.back().lines.push_back(line);
    if (header && blocks.back().header.empty()) blocks.back().header = plain;
  }
  std::string kept;
  for (const auto& b : blocks)
    if (b.header.empty() ? !b.lines.empty() : !shown.count(b.header))
      for (const auto& line : b.lines) kept += line + "\n";
  return kept;
}

std::string read_if_exists(const std::string& file) {
  if (file.empty() || !fs::exists(file)) return {};
  return read_file(file);
}

// --- Compiling

std::vector<std::string> source_tokens(const input& in) {
  return input_tokens(in);
}

// What the headers learn of the compile's device targets, in the host and every device compile:
// SYCL_BACKEND_CUDA (include/sycl/detail/config.hpp) is defined for programs built for NVIDIA
// GPUs.
std::vector<std::string> target_flags(const std::vector<std::string>& targets) {
  std::vector<std::string> flags;
  if (std::find(targets.begin(), targets.end(), "nvptx64") != targets.end())
    flags.emplace_back("-D__SYCLONE_TARGET_NVPTX64__=1");
  return flags;
}

// The translation unit's identity (SYCLONE_TU_ID, include/sycl/detail/kernel_launch.hpp): a hash
// of the source's absolute path, the same for its host and device compiles, and for separate
// -fsycl-host-only / -fsycl-device-only runs. Kernels named by a type of internal linkage (a
// lambda in a static function) take it into their names, so that two translation units'
// kernels of equal mangled names stay two kernels in the linked device image.
std::vector<std::string> tu_flags(const std::string& source) {
  llvm::SmallString<256> absolute(source);
  (void)llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, true);
  std::uint64_t h = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : absolute.str()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char value[64];
  std::snprintf(value, sizeof value, "-D__SYCLONE_TU_ID__=0x%016llxULL",
                static_cast<unsigned long long>(h));
  return {value};
}

std::vector<std::string> output_tokens(const std::string& object) {
  if (object.empty()) return {"-fsyntax-only"};
  return {"-c", "-o", object};
}

// The clang plugin that gives clang seed 004's sub-group size attributes (tools/syclone-plugin),
// writing its records to `records` (none when empty). Kernel attributes go after a lambda's
// introducer (`[=] [[sycl::reqd_sub_group_size(16)]] (sycl::nd_item<1> it) {...}`), the one
// place where clang applies a plugin's attribute to the lambda's call operator; C++23 allows it,
// earlier standards as an extension whose warning is off here.
std::vector<std::string> plugin_flags(const session& s, const std::string& records) {
  std::vector<std::string> flags = {"-fplugin=" + s.tools.lib_dir() + "/libsyclone-plugin.so",
                                    "-Wno-c++23-lambda-attributes"};
  if (!records.empty()) flags.push_back("-fplugin-arg-syclone-out=" + records);
  if (!s.line.default_sub_group_size.empty())
    flags.push_back("-fplugin-arg-syclone-default=" + s.line.default_sub_group_size);
  return flags;
}

// The work-item loop compiler (tools/syclone-host-loops) for the host compile of SYCL sources.
std::string host_loops_flag(const session& s) {
  return "-fpass-plugin=" + s.tools.lib_dir() + "/libsyclone-host-loops.so";
}

// C and assembly: the host compile alone, without the C++-only flags a mixed command carries.
void compile_host_only_language(session& s, const input& in, const std::string& object) {
  job host{{s.tools.clang()}, {}};
  for (auto& flag : flags_for(s.line, use_host))
    if (!flag.starts_with("-std=c++") && !flag.starts_with("-std=gnu++") &&
        !flag.starts_with("-stdlib="))
      host.args.push_back(flag);
  append(host.args, source_tokens(in));
  append(host.args, output_tokens(object));
  if (int status = s.run.run(host)) throw tool_failed{status};
}

// Compiles one C++ source: host object (or syntax check) at `object`, device bitcode for every
// target, embedded into the object. `object` empty: -fsyntax-only.
// The device bitcode clang wrote, checked by reading it back. clang 22's bitcode writer
// sometimes writes spirv64 modules its own reader rejects ("Invalid record"; seen with a
// namespace-scope std::string in a unit whose class template members submit kernels), while the
// same module as text is fine: then the device compile runs again with -S and LLVM's parser and
// writer make the bitcode. Costs one read of the bitcode per device compile otherwise.
std::string readable_bitcode(session& s, const job& device, const std::string& path,
                             const std::string& target) {
  std::string bitcode = read_file(path);
  llvm::LLVMContext context;
  auto buffer = llvm::MemoryBuffer::getMemBuffer(bitcode, path, false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (module) return bitcode;
  std::string why = llvm::toString(module.takeError());
  s.run.step("the " + target + " bitcode clang wrote cannot be read back (" + why +
             "); compile the device code as text instead");
  job text = device;
  auto out = std::find(text.args.begin(), text.args.end(), "-emit-llvm");
  if (out == text.args.end()) throw driver_error("cannot read " + path + ": " + why);
  *out = "-S";
  std::erase(text.args, std::string("-c"));
  text.args.push_back("-emit-llvm");
  std::string ir = path + ".ll";
  *(std::find(text.args.begin(), text.args.end(), path)) = ir;
  text.stderr_path.clear();
  if (int status = s.run.run(text)) throw tool_failed{status};
  llvm::SMDiagnostic error;
  auto parsed = llvm::parseAssemblyFile(ir, error, context);
  if (!parsed) {
    // clang 22 writes an invalid static-initializer list for a device target whose globals live
    // in addrspace(1) when the device compile emits host code (a kernel odr-using a static local
    // of a host function makes clang emit that function, and with it the dynamic initializers it
    // reaches): @llvm.global_ctors's third field, a `ptr`, holds `ptr addrspace(1) @var`. Device
    // code runs no static initializers (SYCL 2020 5.4: what a kernel odr-uses is constant- or
    // zero-initialized) and the device link drops these lists (device_link.cpp, keep_reachable),
    // so drop them here and read the module again.
    std::string text = read_file(ir), kept;
    bool dropped = false;
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t end = text.find('\n', at);
      end = end == std::string::npos ? text.size() : end + 1;
      std::string_view line(text.data() + at, end - at);
      if (line.starts_with("@llvm.global_ctors = ") || line.starts_with("@llvm.global_dtors = "))
        dropped = true;
      else
        kept.append(line);
      at = end;
    }
    if (dropped) {
      s.run.step("the " + target + " device code's static-initializer lists do not parse (" +
                 error.getMessage().str() + "); device code runs no static initializers: dropped");
      auto repaired = llvm::MemoryBuffer::getMemBufferCopy(kept, ir);
      llvm::SMDiagnostic second;
      parsed = llvm::parseAssembly(repaired->getMemBufferRef(), second, context);
      if (!parsed) error = second;
    }
  }
  if (!parsed) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    error.print("syclone++", stream);
    throw driver_error("cannot read the " + target + " device code clang wrote (" + why +
                       ", and as text: " + message + ")");
  }
  std::string rewritten;
  llvm::raw_string_ostream stream(rewritten);
  llvm::WriteBitcodeToFile(*parsed, stream);
  stream.flush();
  return rewritten;
}

void compile_source(session& s, const input& in, const std::string& object) {
  if (in.kind != input_kind::cxx_source) return compile_host_only_language(s, in, object);

  const auto targets = compile_targets(s.line);
  const bool capture = !targets.empty() && !s.run.dry_run();
  std::vector<std::string> color;
  if (capture && !s.line.color_given && llvm::sys::Process::StandardErrHasColors())
    color.push_back("-fcolor-diagnostics");

  std::vector<job> jobs;
  job host{{s.tools.clangxx(), "-fsycl", "-fsycl-host-only", "-isystem", s.tools.include_dir()},
           capture ? s.temp.file("host.stderr") : std::string()};
  append(host.args, color);
  append(host.args, flags_for(s.line, use_host));
  std::vector<std::string> records; // the plugin's files: host compile, then each device compile
  records.push_back(object.empty() ? std::string() : s.temp.file("host.sub_groups"));
  append(host.args, plugin_flags(s, records.back()));
  host.args.push_back(host_loops_flag(s));
  append(host.args, tu_flags(in.path));
  append(host.args, target_flags(targets));
  append(host.args, source_tokens(in));
  append(host.args, output_tokens(object));
  jobs.push_back(std::move(host));

  std::vector<std::string> bitcode;
  for (const auto& name : targets) {
    const device_target& target = *find_target(name);
    job device{{s.tools.clangxx(), "-fsycl", "-fsycl-device-only"},
               capture ? s.temp.file(name + ".stderr") : std::string()};
    for (auto flag : target.compile_flags) device.args.emplace_back(flag);
    append(device.args, {"-isystem", s.tools.include_dir()});
    append(device.args, color);
    append(device.args, flags_for(s.line, use_device));
    for (const auto& extra : s.line.device_flags)
      if (extra.target.empty() || extra.target == name) device.args.push_back(extra.flag);
    records.push_back(object.empty() ? std::string() : s.temp.file(name + ".sub_groups"));
    append(device.args, plugin_flags(s, records.back()));
    append(device.args, tu_flags(in.path));
    append(device.args, target_flags(targets));
    append(device.args, source_tokens(in));
    if (object.empty()) {
      device.args.push_back("-fsyntax-only");
    } else {
      bitcode.push_back(s.temp.file(path::stem(in.path).str() + "." + name + ".bc"));
      append(device.args, {"-c", "-emit-llvm", "-o", bitcode.back()});
    }
    jobs.push_back(std::move(device));
  }

  std::vector<int> statuses = s.run.run_all(jobs);
  if (capture) {
    std::string host_output = read_if_exists(jobs[0].stderr_path);
    llvm::errs() << host_output;
    for (std::size_t i = 1; i < jobs.size(); ++i) {
      std::string extra = new_device_diagnostics(host_output, read_if_exists(jobs[i].stderr_path));
      if (!extra.empty() && statuses[i] == 0)
        llvm::errs() << "syclone++: note: from the " << targets[i - 1] << " device compile of "
                     << in.path << ":\n";
      llvm::errs() << extra;
    }
  }
  auto discard_output = [&] {
    if (!object.empty()) (void)fs::remove(object); // best effort: the failure is reported already
  };
  if (statuses[0] != 0) {
    discard_output();
    throw tool_failed{statuses[0]};
  }
  bool device_failed = false;
  for (std::size_t i = 1; i < jobs.size(); ++i) {
    if (statuses[i] == 0) continue;
    llvm::errs() << "syclone++: error: device compilation of " << in.path << " for target "
                 << targets[i - 1] << " failed\n";
    device_failed = true;
  }
  if (device_failed) {
    discard_output();
    throw tool_failed{1};
  }
  if (object.empty()) return;

  std::vector<device_code> code;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    s.run.step("embed the " + targets[i] + " device code in " + object + " as section " +
               device_section_name(targets[i]));
    if (!s.run.dry_run())
      code.push_back({targets[i], readable_bitcode(s, jobs[i + 1], bitcode[i], targets[i])});
  }
  // Seed 004: the kernels' sub-group sizes (host compile: present in every build) and the
  // SYCL_EXTERNAL functions' (first device compile), for the link.
  if (!s.run.dry_run()) {
    std::string sizes =
        merge_sub_group_records(read_if_exists(records[0]),
                                records.size() > 1 ? read_if_exists(records[1]) : std::string());
    if (!sizes.empty()) code.push_back({sub_group_section_target, sizes});
  }
  try {
    embed_device_code(object, code);
  } catch (...) {
    discard_output();
    throw;
  }
}

bool is_source(const input& in) {
  return in.kind != input_kind::linker_input;
}

std::string object_name_for(const std::string& source) {
  return path::stem(source).str() + ".o";
}

// --- Linking

std::vector<std::string> library_dirs(const command_line& line) {
  std::vector<std::string> dirs;
  for (const auto& a : line.arguments) {
    if (a.input >= 0 || !a.tokens[0].starts_with("-L")) continue;
    dirs.push_back(a.tokens.size() > 1 ? a.tokens[1] : a.tokens[0].substr(2));
  }
  if (const char* env = std::getenv("LIBRARY_PATH")) {
    std::string list = env;
    for (std::size_t begin = 0; begin <= list.size();) {
      std::size_t end = list.find(':', begin);
      if (end == std::string::npos) end = list.size();
      if (end > begin) dirs.push_back(list.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  // Where `cmake --install` and `make install` put libraries by default.
  dirs.push_back("/usr/local/lib");
  dirs.push_back("/usr/local/lib64");
  return dirs;
}

// The file -l<name> names, as the linker searches: per directory, the shared library first
// unless static linking is on. Empty when not found (the linker reports it).
std::string find_library(const std::string& name, const std::vector<std::string>& dirs,
                         bool static_only) {
  std::vector<std::string> candidates;
  if (name.starts_with(":"))
    candidates = {name.substr(1)};
  else if (static_only)
    candidates = {"lib" + name + ".a"};
  else
    candidates = {"lib" + name + ".so", "lib" + name + ".a"};
  for (const auto& dir : dirs)
    for (const auto& file : candidates) {
      llvm::SmallString<256> p(dir);
      path::append(p, file);
      if (fs::exists(p)) return std::string(p);
    }
  return {};
}

std::vector<std::string> linker_words(const argument& a) {
  const std::string& flag = a.tokens[0];
  if (flag.starts_with("-Wl,")) {
    std::vector<std::string> words;
    std::string list = flag.substr(4);
    for (std::size_t begin = 0; begin <= list.size();) {
      std::size_t end = list.find(',', begin);
      if (end == std::string::npos) end = list.size();
      words.push_back(list.substr(begin, end - begin));
      begin = end + 1;
    }
    return words;
  }
  if (flag == "-Xlinker" && a.tokens.size() > 1) return {a.tokens[1]};
  return {flag};
}

bool use_lld(const toolchain& tools) {
  std::string clang_dir;
  llvm::SmallString<256> real;
  if (!fs::real_path(tools.clangxx(), real)) clang_dir = path::parent_path(real).str();
  if (!clang_dir.empty() && fs::can_execute(clang_dir + "/ld.lld")) return true;
  return static_cast<bool>(llvm::sys::findProgramByName("ld.lld"));
}

void link(session& s, const std::vector<std::string>& objects) {
  const command_line& line = s.line;
  for (const auto& a : line.arguments)
    if (a.input < 0 && (a.tokens[0] == "-static" || a.tokens[0] == "-static-pie"))
      throw driver_error(a.tokens[0] + " is not supported: the SYCL runtime is a shared library "
                                       "(libsyclone.so); link other libraries statically with "
                                       "-Wl,-Bstatic ... -Wl,-Bdynamic");
  std::vector<std::string> link_args;
  link_inputs inputs;
  const auto dirs = library_dirs(line);
  bool whole_archive = false;
  bool static_only = false;

  for (const auto& a : line.arguments) {
    if (a.input >= 0) {
      const auto index = static_cast<std::size_t>(a.input);
      const std::string& given = line.inputs[index].path;
      const std::string& file = objects[index].empty() ? given : objects[index];
      link_args.push_back(file);
      if (!s.run.dry_run()) inputs.add(file, whole_archive, given);
      continue;
    }
    if (!(a.uses & use_link)) continue;
    append(link_args, a.tokens);
    for (const auto& word : linker_words(a)) {
      if (word == "--whole-archive" || word == "-whole-archive") whole_archive = true;
      if (word == "--no-whole-archive" || word == "-no-whole-archive") whole_archive = false;
      if (word == "-Bstatic" || word == "-static" || word == "-dn" || word == "-non_shared")
        static_only = true;
      if (word == "-Bdynamic" || word == "-dy" || word == "-call_shared") static_only = false;
    }
    if (a.tokens[0].starts_with("-l")) {
      std::string name = a.tokens.size() > 1 ? a.tokens[1] : a.tokens[0].substr(2);
      std::string file = find_library(name, dirs, static_only);
      if (!file.empty() && !s.run.dry_run()) inputs.add(file, whole_archive);
    }
  }

  std::vector<std::string> registration;
  if (line.relocatable) {
    s.run.step("partial link (-r): device code stays in the output's " +
               std::string(device_section_prefix) + "* sections");
  } else if (s.run.dry_run()) {
    s.run.step("link the device code of the inputs per target and compile a registration "
               "object for the images");
  } else {
    inputs.resolve();
    std::vector<std::string> targets = line.targets ? *line.targets : inputs.targets();
    std::erase(targets, std::string(sub_group_section_target));
    std::vector<device_image> images;
    sub_group_records sizes = read_sub_group_records(inputs);
    std::set<std::string> external_roots; // SYCL_EXTERNAL definitions, as the plugin saw them
    for (const auto& [symbol, definitions] : sizes.defined) external_roots.insert(symbol);
    for (const auto& name : targets) {
      const device_target* target = find_target(name);
      if (!target) {
        warning("inputs hold device code for target '" + name +
                "', which this syclone++ does not know; rebuild them with this syclone++");
        continue;
      }
      s.run.step("link the " + name + " device code of the inputs");
      auto image = link_device_code(inputs, *target, s.run, external_roots, sizes.kernels);
      if (!image) continue;
      if (image->kernels.empty()) {
        s.run.step("the " + name + " device code has no kernels; no image registered");
        continue;
      }
      s.run.step("the " + name + " image holds " + std::to_string(image->kernels.size()) +
                 " kernel(s), " + std::to_string(image->data.size()) + " bytes");
      images.push_back(std::move(*image));
    }
    if (!images.empty())
      registration.push_back(
          build_registration(images, line.output.value_or("a.out"), s.tools, s.run, s.temp));
    // Seed 004: SYCL_EXTERNAL functions have the sub-group size of the kernels that call them.
    for (const auto& image : images)
      if (!check_sub_group_sizes(sizes, image)) throw tool_failed{1};
    if (auto object = build_sub_group_registration(sizes, s.tools, s.run, s.temp))
      registration.push_back(*object);
  }

  job command{{s.tools.clangxx()}, {}};
  if (!line.linker_given && !line.relocatable && use_lld(s.tools))
    command.args.push_back("-fuse-ld=lld");
  append(command.args, link_args);
  append(command.args, registration);
  if (!line.relocatable) {
    const std::string& lib = s.tools.lib_dir();
    append(command.args, {"-L" + lib, "-Wl,-rpath," + lib, "-lsyclone", "-lpthread"});
  }
  if (line.output) append(command.args, {"-o", *line.output});
  if (int status = s.run.run(command)) throw tool_failed{status};
}

// --- Actions

void print_version(const toolchain& tools) {
  llvm::outs() << "syclone++ version " << SYCLONE_DRIVER_VERSION
               << " (SYCL 2020 compiler driver on clang/LLVM 22)\n"
               << "device targets: " << accepted_targets()
               << " (default: " << device_targets().front().name << ")\n"
               << tools.describe_layout();
  llvm::outs().flush();
}

int compile_all(session& s) {
  const command_line& line = s.line;
  std::size_t sources = std::count_if(line.inputs.begin(), line.inputs.end(), is_source);
  if (line.act == action::compile && line.output && sources > 1)
    throw driver_error("cannot specify -o when generating multiple output files");
  if (line.act == action::compile && line.emit_llvm && !compile_targets(line).empty())
    throw driver_error("-emit-llvm cannot carry device code; use it with -fsycl-device-only "
                       "(device bitcode) or -fsycl-targets=host (host bitcode)");
  if (line.lto && !compile_targets(line).empty())
    throw driver_error("-flto makes host objects LLVM bitcode, which cannot carry device code; "
                       "drop -flto or compile with -fsycl-targets=host");

  std::vector<std::string> objects(line.inputs.size());
  for (std::size_t i = 0; i < line.inputs.size(); ++i) {
    const input& in = line.inputs[i];
    if (!is_source(in)) {
      if (line.act != action::link)
        warning(in.path + ": linker input unused because no linking is done");
      continue;
    }
    switch (line.act) {
    case action::syntax_only:
      compile_source(s, in, "");
      break;
    case action::compile:
      compile_source(s, in, line.output.value_or(object_name_for(in.path)));
      break;
    default:
      objects[i] = s.temp.file(object_name_for(in.path));
      compile_source(s, in, objects[i]);
      break;
    }
  }
  if (line.act == action::link) link(s, objects);
  return 0;
}

int host_only(session& s) {
  job command{{s.tools.clangxx(), "-fsycl", "-fsycl-host-only", "-isystem", s.tools.include_dir()},
              {}};
  append(command.args, plugin_flags(s, ""));
  command.args.push_back(host_loops_flag(s));
  if (!s.line.inputs.empty()) append(command.args, tu_flags(s.line.inputs[0].path));
  append(command.args, target_flags(compile_targets(s.line)));
  append(command.args, passthrough_arguments(s.line));
  return s.run.run(command);
}

int device_only(session& s) {
  auto targets = compile_targets(s.line);
  if (targets.empty())
    throw driver_error("-fsycl-device-only needs a device target; -fsycl-targets=host has none");
  if (targets.size() > 1)
    throw driver_error("-fsycl-device-only compiles for one target; choose it with "
                       "-fsycl-targets=<target>");
  const device_target& target = *find_target(targets[0]);
  job command{{s.tools.clangxx(), "-fsycl", "-fsycl-device-only"}, {}};
  for (auto flag : target.compile_flags) command.args.emplace_back(flag);
  append(command.args, {"-isystem", s.tools.include_dir()});
  append(command.args, plugin_flags(s, ""));
  command.args.push_back(host_loops_flag(s));
  if (!s.line.inputs.empty()) append(command.args, tu_flags(s.line.inputs[0].path));
  append(command.args, target_flags(targets));
  for (const auto& extra : s.line.device_flags)
    if (extra.target.empty() || extra.target == targets[0]) command.args.push_back(extra.flag);
  if (!s.line.emit_llvm) command.args.push_back("-emit-llvm");
  bool stops = false;
  for (const auto& a : s.line.arguments) {
    const std::string& flag = a.tokens[0];
    stops |=
        a.input < 0 && (flag == "-c" || flag == "-S" || flag == "-E" || flag == "-fsyntax-only");
    // The device compile's flags, the inputs, and -o / -x / the flags choosing the output.
    if (a.input >= 0 || (a.uses & use_device) || !(a.uses & (use_host | use_link)))
      append(command.args, a.input >= 0 ? source_tokens(s.line.inputs[a.input]) : a.tokens);
  }
  if (!stops) command.args.push_back("-c");
  return s.run.run(command);
}

constexpr const char* usage = R"(OVERVIEW: syclone++, the SYCL 2020 compiler driver of syclone

USAGE: syclone++ [options] <sources, objects, archives>

Takes clang's options; compiles every C++ source for the host and each device target, embeds
the device code in the object, and at link time links the device code of all objects and
archives per target and registers the images with the runtime (libsyclone).

SYCLONE OPTIONS:
  -fsycl-targets=<list>      device targets, comma-separated: nvptx64 (default), host (none)
  -Xsycl-target-frontend[=<target>] <flag>
                             pass <flag> to the device compile (of <target>)
  -fsycl-default-sub-group-size=<N|primary|automatic>
                             sub-group size of kernels and SYCL_EXTERNAL functions without a
                             sub-group size attribute (default: primary)
  -fsycl-device-only         only the device compile (LLVM bitcode, -S for text)
  -fsycl-host-only           only the host compile
  -v                         print every command and step
  -###                       print the commands without running them
  -save-temps                keep intermediate files
  --launcher [options] <compiler> <args>
                             replace <compiler> (CMake's <LANG>_COMPILER_LAUNCHER)
  --version                  versions and the paths in use
ENVIRONMENT:
  SYCLONE_CLANG              the clang++ to run (default: clang++-22)

CLANG'S OPTIONS FOLLOW.

)";

int info(session& s) {
  for (const auto& a : s.line.arguments)
    if (a.tokens[0] == "--help" || a.tokens[0] == "-help") llvm::outs() << usage;
  llvm::outs().flush();
  job command{{s.tools.clangxx()}, {}};
  if (s.line.verbose) command.args.push_back("-v");
  append(command.args, passthrough_arguments(s.line));
  if (command.args.size() == 1) {
    if (s.line.verbose || s.line.print_version) return 0;
    throw driver_error("no input files");
  }
  return runner(false, s.line.dry_run).run(command);
}

} // namespace

int run_driver(const char* argv0, const std::vector<std::string>& args) {
  command_line line = parse_command_line(args);
  for (const std::string& message : line.warnings) warning(message);
  toolchain tools(argv0);
  if (line.print_version || (line.verbose && line.inputs.empty())) {
    print_version(tools);
    if (line.inputs.empty() && line.print_version) return 0;
  }
  session s{line, tools, runner(line.verbose, line.dry_run), temp_dir(line.save_temps)};
  switch (line.act) {
  case action::info:
    return info(s);
  case action::host_only:
    return host_only(s);
  case action::device_only:
    return device_only(s);
  case action::syntax_only:
  case action::compile:
  case action::link:
    return compile_all(s);
  }
  return 0;
}

} // namespace syclone::driver
