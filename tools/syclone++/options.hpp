// The syclone++ command line: clang's flags, sorted by the steps that need them (host compile,
// device compile, link), plus syclone++'s own (-fsycl-targets=, -Xsycl-target-frontend, -v,
// -###, -save-temps, --version, --launcher).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace syclone::driver {

enum class input_kind {
  cxx_source,   // compiled for the host and every device target
  c_source,     // host only, with the C compiler
  assembly,     // host only
  linker_input, // objects, archives, shared libraries, linker scripts
};

struct input {
  std::string path;
  input_kind kind;
  std::string language; // the -x value in effect for it, empty when chosen by extension
};

// What the command produces, from the flags that stop clang early.
enum class action {
  link,        // default: executables, shared libraries (-shared), relocatable objects (-r)
  compile,     // -c: objects with embedded device code
  syntax_only, // -fsyntax-only: host and device checks, no output
  host_only,   // -E, -S, -M, -MM, -fsycl-host-only: clang's host compile as it is
  device_only, // -fsycl-device-only: clang's device compile as it is
  info,        // no inputs (-dumpmachine, -print-*, --help, -v alone): clang as it is
};

// Which steps receive a flag.
enum use : unsigned {
  use_host = 1,   // host compile
  use_device = 2, // device compile
  use_link = 4,   // link
};

// One flag with its value(s), or one input (then `input` is its index in inputs).
struct argument {
  std::vector<std::string> tokens;
  unsigned uses = 0;
  int input = -1;
};

struct device_flag {
  std::string target; // canonical target name, empty for all targets
  std::string flag;
};

struct command_line {
  std::vector<argument> arguments; // in command-line order (link order matters)
  std::vector<input> inputs;
  std::optional<std::string> output; // -o
  action act = action::link;

  // -fsycl-targets, canonical names without "host"; absent: the default (compile) or whatever the
  // objects hold (link).
  std::optional<std::vector<std::string>> targets;
  std::vector<device_flag> device_flags; // -Xsycl-target-frontend[=target] <flag>
  // -fsycl-default-sub-group-size=<N|primary|automatic> (seed 004 "Compiler Flags"); empty:
  // primary.
  std::string default_sub_group_size;

  bool verbose = false;    // -v: print each command
  bool dry_run = false;    // -###: print, run nothing
  bool save_temps = false; // -save-temps: keep the temporary directory
  bool print_version = false;
  bool shared = false;        // -shared
  bool relocatable = false;   // -r: partial link, device code stays per object
  bool emit_llvm = false;     // -emit-llvm
  bool lto = false;           // -flto*
  bool color_given = false;   // -f[no-]color-diagnostics, -fdiagnostics-color*
  bool linker_given = false;  // -fuse-ld= / --ld-path=
  bool assemble_text = false; // -S (with -fsycl-device-only: textual IR)
  // Warnings about the command line itself, printed once before anything runs.
  std::vector<std::string> warnings;
};

// Parses argv[1..] after response-file expansion; handles "--launcher [syclone flags] <compiler>"
// (CMake's <LANG>_COMPILER_LAUNCHER / <LANG>_LINKER_LAUNCHER) by dropping the compiler.
// Throws driver_error for flags it cannot honor.
command_line parse_command_line(const std::vector<std::string>& args);

// Canonical target names of "-fsycl-targets=" values; "host" yields no device target. Throws
// driver_error naming the accepted values for an unknown one.
std::vector<std::string> parse_targets(const std::string& list);

// Flags of `line` for the given step, in order, without inputs, -o and the action flags.
std::vector<std::string> flags_for(const command_line& line, use step);

// An input as clang gets it: `-x <language>` where one is in effect, and a CUDA source (.cu,
// -x cuda) as SYCL C++ with CUDA's qualifiers defined.
std::vector<std::string> input_tokens(const input& in);
// The arguments as given (inputs included, as input_tokens gives them), minus syclone++'s own:
// for what clang does by itself.
std::vector<std::string> passthrough_arguments(const command_line& line);

} // namespace syclone::driver
