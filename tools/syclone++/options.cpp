#include "options.hpp"

#include "diagnostics.hpp"
#include "paths.hpp"
#include "targets.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace syclone::driver {

namespace {

// Included when the command line is handed to clang unchanged (-E, -S, -fsycl-device-only, ...).
constexpr unsigned use_passthrough = 8;

bool starts_with_any(std::string_view arg, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return arg.starts_with(p); });
}

bool is_any(std::string_view arg, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), arg) != names.end();
}

// Flags whose value is the next argument when not joined to them.
bool takes_separate_value(std::string_view flag) {
  return is_any(flag, {"-o",
                       "-x",
                       "-I",
                       "-D",
                       "-U",
                       "-include",
                       "-imacros",
                       "-isystem",
                       "-iquote",
                       "-idirafter",
                       "-iprefix",
                       "-iwithprefix",
                       "-iwithprefixbefore",
                       "-isysroot",
                       "-ivfsoverlay",
                       "-include-pch",
                       "-cxx-isystem",
                       "-MF",
                       "-MT",
                       "-MQ",
                       "-MJ",
                       "-Xclang",
                       "-Xlinker",
                       "-Xpreprocessor",
                       "-Xassembler",
                       "-Xsycl-target-frontend",
                       "-L",
                       "-l",
                       "-u",
                       "-T",
                       "-z",
                       "-e",
                       "-target",
                       "-arch",
                       "-mllvm",
                       "-B",
                       "-F",
                       "-dependency-file",
                       "-dependency-dot",
                       "--param",
                       "--sysroot",
                       "-Xoffload-linker"}) ||
         flag.starts_with("-Xsycl-target-frontend=");
}

// -f flags that change what device code means, so the device compile must see them too.
bool is_device_f_flag(std::string_view arg) {
  return starts_with_any(arg, {"-ffast-math",
                               "-fno-fast-math",
                               "-ffp-contract=",
                               "-ffp-model=",
                               "-ffinite-math",
                               "-fno-finite-math",
                               "-fmath-errno",
                               "-fno-math-errno",
                               "-funsafe-math",
                               "-fno-unsafe-math",
                               "-fapprox-func",
                               "-fno-approx-func",
                               "-fassociative-math",
                               "-fno-associative-math",
                               "-freciprocal-math",
                               "-fno-reciprocal-math",
                               "-fsigned-zeros",
                               "-fno-signed-zeros",
                               "-fhonor-",
                               "-fno-honor-",
                               "-fdenormal-fp-math",
                               "-ftemplate-depth",
                               "-fconstexpr-",
                               "-fbracket-depth",
                               "-fstrict-aliasing",
                               "-fno-strict-aliasing",
                               "-fcolor-diagnostics",
                               "-fno-color-diagnostics",
                               "-fdiagnostics-",
                               "-fno-diagnostics-",
                               "-fmessage-length",
                               "-ferror-limit",
                               "-fmacro-backtrace-limit",
                               "-ftemplate-backtrace-limit",
                               "-fshow-",
                               "-fno-show-",
                               "-fcaret-diagnostics",
                               "-fno-caret-diagnostics",
                               "-fno-builtin",
                               "-fbuiltin",
                               "-fchar8_t",
                               "-fno-char8_t",
                               "-fsigned-char",
                               "-funsigned-char",
                               "-fno-signed-char",
                               "-fno-unsigned-char",
                               "-fsized-deallocation",
                               "-fno-sized-deallocation",
                               "-faligned-allocation",
                               "-fno-aligned-allocation",
                               "-fms-extensions",
                               "-fno-ms-extensions",
                               "-fdebug-prefix-map",
                               "-ffile-prefix-map",
                               "-fmacro-prefix-map",
                               "-fcoverage-prefix-map",
                               "-fpch-",
                               "-fno-pch-",
                               "-fwrapv",
                               "-fno-wrapv",
                               "-fno-elide-constructors",
                               "-fgnu-keywords",
                               "-fno-gnu-keywords",
                               "-fdollars-in",
                               "-fno-dollars-in",
                               "-fopenmp-simd",
                               "-fno-operator-names",
                               "-frelaxed-template",
                               "-fno-relaxed-template",
                               "-fchar16",
                               "-fno-access-control",
                               "-faccess-control"});
}

bool is_link_only(std::string_view arg) {
  return is_any(arg, {"-shared",
                      "-static",
                      "-static-pie",
                      "-static-libstdc++",
                      "-static-libgcc",
                      "-shared-libgcc",
                      "-rdynamic",
                      "-pie",
                      "-no-pie",
                      "-nostdlib",
                      "-nostdlib++",
                      "-nodefaultlibs",
                      "-nostartfiles",
                      "-r",
                      "-s",
                      "-u",
                      "-T",
                      "-z",
                      "-e",
                      "-Bstatic",
                      "-Bdynamic",
                      "-Xlinker",
                      "-Xoffload-linker"}) ||
         starts_with_any(arg, {"-L", "-l", "-Wl,", "-fuse-ld=", "--ld-path=", "-rtlib=", "--rtlib=",
                               "-unwindlib=", "--unwindlib=", "-Bsymbolic"});
}

bool is_dependency_flag(std::string_view arg) {
  return is_any(arg, {"-MD", "-MMD", "-MF", "-MT", "-MQ", "-MP", "-MG", "-MJ", "-MV",
                      "-dependency-file", "-dependency-dot"}) ||
         starts_with_any(arg, {"-MF", "-MT", "-MQ", "-MJ"});
}

bool is_preprocessor_flag(std::string_view arg) {
  return is_any(arg, {"-nostdinc", "-nostdinc++", "-nostdlibinc", "-undef", "-trigraphs",
                      "-Xpreprocessor"}) ||
         starts_with_any(arg, {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
                               "-idirafter", "-iprefix", "-iwithprefix", "-isysroot",
                               "-ivfsoverlay", "-cxx-isystem", "-Wp,", "--sysroot"});
}

// Which steps need `arg` (the flag's first token).
unsigned uses_of(std::string_view arg) {
  if (is_link_only(arg)) return use_link;
  if (arg == "-include-pch") return use_host; // a host AST; the device compile cannot read it
  if (is_dependency_flag(arg)) return use_host;
  if (is_preprocessor_flag(arg)) return use_host | use_device;
  if (arg.starts_with("-std=") || arg.starts_with("-stdlib=") || arg.starts_with("--std=") ||
      arg.starts_with("-O"))
    return use_host | use_device | use_link;
  if (arg.starts_with("-Wa,") || is_any(arg, {"-Xassembler", "-Xclang", "-mllvm"})) return use_host;
  if (arg.starts_with("-W") || arg == "-w" || arg.starts_with("-pedantic") || arg == "--pedantic")
    return use_host | use_device;
  if (arg.starts_with("-f") && is_device_f_flag(arg)) return use_host | use_device | use_link;
  // -g, -m, -f, -pthread, --target and anything else clang knows: the host compile and the link
  // (clang ignores compile flags when linking, and several of them change the link: -m32,
  // -fsanitize=, -fopenmp, -pthread).
  return use_host | use_link;
}

std::string extension_of(std::string_view path) {
  auto slash = path.rfind('/');
  auto dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return std::string(path.substr(dot + 1));
}

// A C source (.c) or preprocessed C source (.i) given to a C++ compiler driver is C++ to clang++
// (lookupCXXTypeForCType, with a deprecation warning) and to icpx -fsycl, and Makefiles that
// compile every source with $(CXX) rely on it: the language syclone++ passes for it (empty for
// other inputs).
std::string c_as_cxx_language(std::string_view path) {
  std::string ext = extension_of(path);
  if (ext == "c") return "c++";
  if (ext == "i") return "c++-cpp-output";
  if (ext == "cu") return "cuda";
  return {};
}

input_kind kind_by_extension(std::string_view path) {
  std::string ext = extension_of(path);
  // (.c and .i too, as clang++ and icpx -fsycl read them: see c_as_cxx_language)
  if (is_any(ext, {"cpp", "cc", "cxx", "c++", "cp", "C", "CC", "CPP", "CXX", "ii", "cppm", "c", "i",
                   "cu"}))
    return input_kind::cxx_source;
  if (is_any(ext, {"s", "S", "sx"})) return input_kind::assembly;
  return input_kind::linker_input;
}

input_kind kind_by_language(const std::string& language) {
  // A CUDA source (.cu, -x cuda) is SYCL C++ with CUDA's function qualifiers (driver.cpp,
  // source_tokens).
  if (is_any(language, {"c++", "c++-cpp-output", "cuda"})) return input_kind::cxx_source;
  if (is_any(language, {"c", "cpp-output"})) return input_kind::c_source;
  if (is_any(language, {"assembler", "assembler-with-cpp"})) return input_kind::assembly;
  throw driver_error(
      "language '" + language +
      "' (-x) is not supported: syclone++ compiles C++ (SYCL), CUDA sources as SYCL, C "
      "and assembly");
}

// Splits "--launcher [syclone flags...] <compiler> <compiler args...>".
std::vector<std::string> strip_launcher(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "--launcher") return args;
  std::vector<std::string> own, rest;
  std::size_t i = 1;
  while (i < args.size() && args[i].starts_with("-")) own.push_back(args[i++]);
  if (i == args.size())
    throw driver_error("--launcher expects the compiler command after it, as CMake's "
                       "<LANG>_COMPILER_LAUNCHER and <LANG>_LINKER_LAUNCHER pass it");
  rest.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  own.insert(own.end(), rest.begin(), rest.end());
  return own;
}

} // namespace

std::vector<std::string> parse_targets(const std::string& list) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::string value = list.substr(begin, end - begin);
    begin = end + 1;
    if (value == "host") continue;
    const device_target* target = find_target(value);
    if (!target)
      throw driver_error("unknown SYCL target '" + value + "' in -fsycl-targets=" + list +
                         "; accepted values: " + accepted_targets());
    if (std::find(names.begin(), names.end(), target->name) == names.end())
      names.emplace_back(target->name);
  }
  return names;
}

command_line parse_command_line(const std::vector<std::string>& raw_args) {
  const std::vector<std::string> args = strip_launcher(raw_args);
  command_line line;
  std::string language; // -x in effect
  bool preprocess = false, assemble = false, syntax_only = false, compile = false;
  bool host_only = false, device_only = false;

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    argument a;
    a.tokens.push_back(arg);

    if (arg == "-" || !arg.starts_with("-") || arg.size() == 1) {
      if (arg == "-")
        throw driver_error("reading the source from standard input is not supported: syclone++ "
                           "compiles it twice (host and device); write it to a file");
      input in{arg, language.empty() ? kind_by_extension(arg) : kind_by_language(language),
               language.empty() ? c_as_cxx_language(arg) : language};
      if (language.empty() && !in.language.empty() && in.language != "cuda")
        line.warnings.push_back("treating '" + extension_of(arg) + "' input '" + arg + "' as '" +
                                in.language +
                                "', as clang++ and icpx -fsycl do (this behavior is deprecated in "
                                "clang); use -x c before it to compile it as C");
      a.input = static_cast<int>(line.inputs.size());
      a.uses = use_link | use_passthrough;
      line.inputs.push_back(std::move(in));
      line.arguments.push_back(std::move(a));
      continue;
    }

    if (takes_separate_value(arg)) {
      if (i + 1 >= args.size()) throw driver_error("missing value after '" + arg + "'");
      a.tokens.push_back(args[++i]);
    }
    const std::string& value = a.tokens.back();

    // syclone++'s own flags and the ones that choose what to produce.
    if (arg == "--launcher") {
      throw driver_error("--launcher must be the first argument");
    } else if (arg == "-v") {
      line.verbose = true;
    } else if (arg == "-###") {
      line.dry_run = true;
    } else if (arg == "--version") {
      line.print_version = true;
    } else if (arg == "-save-temps" || arg.starts_with("-save-temps=")) {
      line.save_temps = true;
    } else if (arg.starts_with("-fsycl-targets=")) {
      line.targets = parse_targets(arg.substr(std::string_view("-fsycl-targets=").size()));
    } else if (arg == "-fsycl-targets") {
      throw driver_error("-fsycl-targets expects a value: -fsycl-targets=<list> with values " +
                         accepted_targets());
    } else if (arg == "-Xsycl-target-frontend") {
      line.device_flags.push_back({"", value});
    } else if (arg.starts_with("-Xsycl-target-frontend=")) {
      std::string name = arg.substr(std::string_view("-Xsycl-target-frontend=").size());
      const device_target* target = find_target(name);
      if (!target)
        throw driver_error("unknown SYCL target '" + name + "' in " + arg +
                           "; accepted values: " + accepted_targets());
      line.device_flags.push_back({std::string(target->name), value});
    } else if (arg.starts_with("-fsycl-default-sub-group-size=")) {
      std::string size = arg.substr(std::string_view("-fsycl-default-sub-group-size=").size());
      bool number = !size.empty() && size.find_first_not_of("0123456789") == std::string::npos &&
                    size.size() < 10;
      unsigned long n = number ? std::stoul(size) : 0;
      if (size != "primary" && size != "automatic" && (n == 0 || (n & (n - 1)) != 0))
        throw driver_error("-fsycl-default-sub-group-size=" + size +
                           ": use a power of two (e.g. 16), primary or automatic");
      line.default_sub_group_size = size;
    } else if (arg == "-fsycl" || arg == "-fno-sycl") {
      // syclone++ always compiles SYCL.
    } else if (arg == "-fsycl-device-only") {
      device_only = true;
    } else if (arg == "-fsycl-host-only") {
      host_only = true;
    } else if (arg.starts_with("-fsycl-")) {
      throw driver_error("'" + arg + "' is not supported by syclone++; its SYCL flags are " +
                         "-fsycl-targets=<list>, -Xsycl-target-frontend[=<target>] <flag>, " +
                         "-fsycl-default-sub-group-size=<N|primary|automatic>, " +
                         "-fsycl-device-only and -fsycl-host-only");
    } else if (arg == "-x") {
      language = value == "none" ? "" : value;
      a.uses = use_passthrough;
      line.arguments.push_back(std::move(a));
    } else if (arg == "-o") {
      line.output = value;
      a.uses = use_passthrough;
      line.arguments.push_back(std::move(a));
    } else if (arg.starts_with("-o")) {
      line.output = arg.substr(2);
      a.uses = use_passthrough;
      line.arguments.push_back(std::move(a));
    } else if (arg == "-c" || arg == "-E" || arg == "-S" || arg == "-fsyntax-only" || arg == "-M" ||
               arg == "-MM" || arg == "-emit-llvm") {
      compile |= arg == "-c";
      preprocess |= arg == "-E" || arg == "-M" || arg == "-MM";
      assemble |= arg == "-S";
      syntax_only |= arg == "-fsyntax-only";
      line.emit_llvm |= arg == "-emit-llvm";
      a.uses = use_passthrough;
      line.arguments.push_back(std::move(a));
    } else {
      line.shared |= arg == "-shared";
      line.relocatable |= arg == "-r";
      line.lto |= arg.starts_with("-flto") && arg != "-flto=none";
      line.color_given |= arg.starts_with("-fcolor-diagnostics") ||
                          arg.starts_with("-fno-color-diagnostics") ||
                          arg.starts_with("-fdiagnostics-color");
      line.linker_given |= arg.starts_with("-fuse-ld=") || arg.starts_with("--ld-path=");
      a.uses = uses_of(arg) | use_passthrough;
      line.arguments.push_back(std::move(a));
    }
  }

  line.assemble_text = assemble;
  if (device_only && host_only)
    throw driver_error("-fsycl-device-only and -fsycl-host-only exclude each other");
  if (line.inputs.empty())
    line.act = action::info;
  else if (device_only)
    line.act = action::device_only;
  else if (host_only || preprocess || assemble)
    line.act = action::host_only;
  else if (syntax_only)
    line.act = action::syntax_only;
  else if (compile)
    line.act = action::compile;
  else
    line.act = action::link;

  // A sanitized libsyclone (SYCLONE_SANITIZE) needs its sanitizer's runtime linked into the
  // program, and the program's host code is checked as well; device code never is. -Xarch_host:
  // otherwise the -fsycl host compile warns that its spirv64 offload toolchain ignores the flag.
  if (constexpr std::string_view sanitize = SYCLONE_DRIVER_SANITIZE;
      !sanitize.empty() && line.act != action::info && line.act != action::device_only) {
    const std::string flag = "-fsanitize=" + std::string(sanitize);
    line.arguments.insert(
        line.arguments.begin(),
        {{{"-Xarch_host", flag}, use_host | use_passthrough, -1},
         {{"-Xarch_host", "-fno-omit-frame-pointer"}, use_host | use_passthrough, -1},
         {{flag}, use_link, -1}});
  }
  return line;
}

std::vector<std::string> flags_for(const command_line& line, use step) {
  std::vector<std::string> flags;
  for (const auto& a : line.arguments)
    if (a.input < 0 && (a.uses & step)) flags.insert(flags.end(), a.tokens.begin(), a.tokens.end());
  return flags;
}

// The arguments as given, minus syclone++'s own: for actions clang performs by itself.
std::vector<std::string> input_tokens(const input& in) {
  std::vector<std::string> tokens;
  if (in.language == "cuda")
    // A CUDA source is SYCL C++ whose functions may carry CUDA's execution-space qualifiers, as
    // DPC++ reads a .cu given with -fsycl: a __device__ function is an ordinary function that
    // SYCL kernels call (SYCL_EXTERNAL or not), compiled for the host and every device target.
    // <sycl/detail/cuda_source.hpp> (found on the include path syclone++ adds) defines the
    // qualifiers, and makes what needs CUDA's own language, such as __global__ kernels, an error
    // that says so.
    tokens = {"-include", "sycl/detail/cuda_source.hpp", "-x", "c++"};
  else if (!in.language.empty())
    tokens = {"-x", in.language};
  tokens.push_back(in.path);
  return tokens;
}

std::vector<std::string> passthrough_arguments(const command_line& line) {
  std::vector<std::string> flags;
  for (const auto& a : line.arguments) {
    if (!(a.uses & use_passthrough)) continue;
    const bool cuda_input =
        a.input >= 0 && line.inputs[static_cast<std::size_t>(a.input)].language == "cuda";
    std::vector<std::string> tokens =
        cuda_input ? input_tokens(line.inputs[static_cast<std::size_t>(a.input)]) : a.tokens;
    flags.insert(flags.end(), tokens.begin(), tokens.end());
  }
  return flags;
}

} // namespace syclone::driver
