// How syclone++ fails: its own errors are one line "syclone++: error: ..." that names the cause
// and the remedy; failures of clang or the linker were already reported by the tool itself.
#pragma once

#include <stdexcept>
#include <string>

namespace syclone::driver {

// A problem syclone++ found itself; main prints "syclone++: error: <what>" and exits with 1.
class driver_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A tool that syclone++ ran failed and printed why; syclone++ exits with its status.
struct tool_failed {
  int exit_code;
};

void warning(const std::string& message);
void note(const std::string& message);

} // namespace syclone::driver
