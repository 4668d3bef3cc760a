// syclone++: clang's command line in, host and device compiles, device links and the final
// link out (DESIGN.md "The pipeline").
#pragma once

#include <string>
#include <vector>

namespace syclone::driver {

// Runs the command line `args` (without the program name); returns the exit status. Throws
// driver_error and tool_failed (see diagnostics.hpp).
int run_driver(const char* argv0, const std::vector<std::string>& args);

} // namespace syclone::driver
