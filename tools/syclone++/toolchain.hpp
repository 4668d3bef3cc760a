// What syclone++ runs and where it finds things: clang, the SYCL headers, libsyclone, and a
// temporary directory; and the one place that starts processes (-v prints, -### only prints).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace syclone::driver {

class toolchain {
public:
  explicit toolchain(const char* argv0);

  const std::string& executable() const { return m_executable; }
  // clang++ for C++ (host and device) and linking, clang for C and assembly. Throw driver_error
  // saying how to install clang where it is missing.
  const std::string& clangxx() const;
  const std::string& clang() const;
  // The SYCL headers and libsyclone: <prefix>/include and <prefix>/lib when syclone++ is
  // installed as <prefix>/bin/syclone++, else the build tree it was built in.
  const std::string& include_dir() const;
  const std::string& lib_dir() const;
  std::string describe_layout() const; // for --version

private:
  void locate_clang() const;
  void locate_runtime() const;

  std::string m_executable;
  mutable std::optional<std::string> m_clangxx, m_clang, m_include_dir, m_lib_dir;
  mutable bool m_installed = false;
};

// A command: args[0] is the program. stderr goes to stderr_path when not empty.
struct job {
  std::vector<std::string> args;
  std::string stderr_path;
};

class runner {
public:
  runner(bool verbose, bool dry_run) : m_verbose(verbose), m_dry_run(dry_run) {}

  bool dry_run() const { return m_dry_run; }
  bool verbose() const { return m_verbose; }
  // Runs one command and returns its exit status (0 under -###). Throws driver_error when it
  // cannot start and tool_failed when it crashes.
  int run(const job& command) const;
  // Runs the commands concurrently; their statuses in the same order.
  std::vector<int> run_all(const std::vector<job>& commands) const;
  // Describes a step syclone++ does itself, under -v and -###.
  void step(const std::string& what) const;

private:
  void print(const job& command) const;

  bool m_verbose;
  bool m_dry_run;
};

// A private directory for intermediate files, removed at exit unless kept (-save-temps).
class temp_dir {
public:
  explicit temp_dir(bool keep) : m_keep(keep) {}
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir();

  // A new path in the directory whose name ends with `name` (unique per call).
  std::string file(const std::string& name);

private:
  std::string m_path;
  bool m_keep;
  unsigned m_count = 0;
};

// The file's contents; throws driver_error naming the file.
std::string read_file(const std::string& path);
// Writes atomically (temporary file + rename); throws driver_error naming the file.
void write_file(const std::string& path, std::string_view data);
std::string shell_quote(const std::string& arg);

} // namespace syclone::driver
