#include "toolchain.hpp"

#include "diagnostics.hpp"
#include "paths.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Errc.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace syclone::driver {

namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string join(std::string_view a, std::string_view b) {
  llvm::SmallString<256> p(a);
  path::append(p, b);
  return std::string(p);
}

std::string parent(std::string_view p) {
  return std::string(path::parent_path(p));
}

} // namespace

toolchain::toolchain(const char* argv0) {
  static int anchor;
  m_executable = fs::getMainExecutable(argv0, &anchor);
  if (m_executable.empty()) m_executable = argv0;
}

void toolchain::locate_clang() const {
  if (m_clangxx) return;
  // SYCLONE_CLANG chooses; otherwise the clang++ found when syclone was configured, then PATH.
  std::string clangxx;
  std::string looked;
  if (const char* env = std::getenv("SYCLONE_CLANG"); env && *env) {
    looked = std::string(env) + " (SYCLONE_CLANG)";
    if (fs::can_execute(env)) clangxx = env;
  } else if (fs::can_execute(SYCLONE_DRIVER_CLANG)) {
    clangxx = SYCLONE_DRIVER_CLANG;
  } else {
    looked = std::string(SYCLONE_DRIVER_CLANG) + " and PATH";
    if (auto found = llvm::sys::findProgramByName("clang++-22")) clangxx = *found;
  }
  if (clangxx.empty())
    throw driver_error("clang++-22 not found (looked at " + looked +
                       "); install it with `apt-get install clang-22 lld-22`");
  // The C compiler next to it: clang++-22 -> clang-22, clang++ -> clang.
  std::string name(path::filename(clangxx));
  if (auto at = name.find("clang++"); at != std::string::npos) name.replace(at, 7, "clang");
  std::string clang = join(parent(clangxx), name);
  if (!fs::can_execute(clang)) {
    auto found = llvm::sys::findProgramByName("clang-22");
    if (!found)
      throw driver_error("clang-22 (for C and assembly sources) not found next to " + clangxx +
                         "; install it with `apt-get install clang-22`");
    clang = *found;
  }
  m_clangxx = clangxx;
  m_clang = clang;
}

const std::string& toolchain::clangxx() const {
  locate_clang();
  return *m_clangxx;
}

const std::string& toolchain::clang() const {
  locate_clang();
  return *m_clang;
}

void toolchain::locate_runtime() const {
  if (m_include_dir) return;
  // <prefix>/bin/syclone++ -> <prefix>
  std::string prefix = parent(parent(m_executable));
  std::string include = join(prefix, SYCLONE_DRIVER_INSTALL_INCLUDEDIR);
  if (fs::exists(join(include, "sycl/detail/config.hpp"))) {
    m_installed = true;
    m_include_dir = include;
    m_lib_dir = join(prefix, SYCLONE_DRIVER_INSTALL_LIBDIR);
    return;
  }
  if (fs::exists(join(SYCLONE_DRIVER_BUILD_INCLUDE_DIR, "sycl/detail/config.hpp"))) {
    m_include_dir = SYCLONE_DRIVER_BUILD_INCLUDE_DIR;
    m_lib_dir = SYCLONE_DRIVER_BUILD_LIB_DIR;
    return;
  }
  throw driver_error("cannot find the SYCL headers: looked in " + include +
                     " (installed layout) and " + SYCLONE_DRIVER_BUILD_INCLUDE_DIR +
                     " (build tree); reinstall syclone with `cmake --install`");
}

const std::string& toolchain::include_dir() const {
  locate_runtime();
  return *m_include_dir;
}

const std::string& toolchain::lib_dir() const {
  locate_runtime();
  return *m_lib_dir;
}

std::string toolchain::describe_layout() const {
  std::string text;
  try {
    locate_runtime();
    text += "headers: " + *m_include_dir + "\nruntime: " + *m_lib_dir +
            (m_installed ? " (installed)\n" : " (build tree)\n");
  } catch (const driver_error& e) {
    text += std::string("headers: not found (") + e.what() + ")\n";
  }
  try {
    text += "clang: " + clangxx() + "\n";
  } catch (const driver_error& e) {
    text += std::string("clang: not found (") + e.what() + ")\n";
  }
  return text;
}

std::string shell_quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./=,+:@%") == std::string::npos)
    return arg;
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

void runner::print(const job& command) const {
  std::string line = " ";
  for (const auto& arg : command.args) line += " " + shell_quote(arg);
  llvm::errs() << line << "\n";
}

void runner::step(const std::string& what) const {
  if (m_verbose || m_dry_run) llvm::errs() << "  # " << what << "\n";
}

namespace {

std::vector<llvm::StringRef> refs(const std::vector<std::string>& args) {
  return {args.begin(), args.end()};
}

int finish(const job& command, int status, const std::string& message) {
  if (status == -1) throw driver_error("cannot run " + command.args[0] + ": " + message);
  // SIGPIPE: whoever read the output went away (syclone++ --help | head); nothing to report.
  if (status < 0 && message.find("Broken pipe") != std::string::npos) throw tool_failed{1};
  if (status < 0) {
    llvm::errs() << "syclone++: error: " << command.args[0] << " crashed or was killed"
                 << (message.empty() ? "" : ": " + message) << "\n";
    throw tool_failed{1};
  }
  return status;
}

} // namespace

int runner::run(const job& command) const {
  if (m_verbose || m_dry_run) print(command);
  if (m_dry_run) return 0;
  auto args = refs(command.args);
  std::optional<llvm::StringRef> redirects[3] = {std::nullopt, std::nullopt, std::nullopt};
  if (!command.stderr_path.empty()) redirects[2] = command.stderr_path;
  std::string message;
  bool failed = false;
  int status = llvm::sys::ExecuteAndWait(command.args[0], args, std::nullopt, redirects, 0, 0,
                                         &message, &failed);
  if (failed) status = -1;
  return finish(command, status, message);
}

std::vector<int> runner::run_all(const std::vector<job>& commands) const {
  if (commands.size() == 1) return {run(commands[0])};
  std::vector<llvm::sys::ProcessInfo> processes;
  std::vector<int> statuses(commands.size(), 0);
  for (const auto& command : commands) {
    if (m_verbose || m_dry_run) print(command);
    if (m_dry_run) continue;
    auto args = refs(command.args);
    std::optional<llvm::StringRef> redirects[3] = {std::nullopt, std::nullopt, std::nullopt};
    if (!command.stderr_path.empty()) redirects[2] = command.stderr_path;
    std::string message;
    bool failed = false;
    processes.push_back(llvm::sys::ExecuteNoWait(command.args[0], args, std::nullopt, redirects, 0,
                                                 &message, &failed));
    if (failed) {
      for (auto& started : processes)
        if (started.Pid != 0) llvm::sys::Wait(started, std::nullopt);
      throw driver_error("cannot run " + command.args[0] + ": " + message);
    }
  }
  for (std::size_t i = 0; i < processes.size(); ++i) {
    std::string message;
    auto done = llvm::sys::Wait(processes[i], std::nullopt, &message);
    statuses[i] = finish(commands[i], done.ReturnCode, message);
  }
  return statuses;
}

temp_dir::~temp_dir() {
  if (m_path.empty()) return;
  if (m_keep) {
    llvm::errs() << "syclone++: intermediate files kept in " << m_path << "\n";
    return;
  }
  (void)fs::remove_directories(m_path); // best effort, like any temporary directory
}

std::string temp_dir::file(const std::string& name) {
  if (m_path.empty()) {
    llvm::SmallString<256> dir;
    if (auto ec = fs::createUniqueDirectory("syclone", dir))
      throw driver_error("cannot create a temporary directory: " + ec.message() + "; check TMPDIR");
    m_path = std::string(dir);
  }
  std::string file = join(m_path, std::to_string(m_count++) + "-" + name);
  if (!m_keep) llvm::sys::RemoveFileOnSignal(file); // Ctrl-C leaves at most the empty directory
  return file;
}

std::string read_file(const std::string& file) {
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) throw driver_error("cannot read " + file + ": " + buffer.getError().message());
  return std::string((*buffer)->getBuffer());
}

void write_file(const std::string& file, std::string_view data) {
  auto temp = fs::TempFile::create(file + "-%%%%%%.tmp");
  if (!temp) throw driver_error("cannot write " + file + ": " + llvm::toString(temp.takeError()));
  {
    llvm::raw_fd_ostream out(temp->FD, /*shouldClose=*/false);
    out << data;
    out.flush();
    if (out.has_error()) {
      std::string message = out.error().message();
      out.clear_error();
      llvm::consumeError(temp->discard());
      throw driver_error("cannot write " + file + ": " + message);
    }
  }
  if (auto error = temp->keep(file))
    throw driver_error("cannot write " + file + ": " + llvm::toString(std::move(error)));
}

} // namespace syclone::driver
