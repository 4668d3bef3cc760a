// Loading backend plugins (src/runtime/plugins.cpp).
#pragma once

#include "backend.hpp"

#include <string>
#include <vector>

namespace syclone::runtime {

struct plugin_status {
  std::string name;   // "cuda"
  bool loaded;        // it created a platform
  std::string reason; // why not, when it did not
};

// Loads every known plugin once; returns the platforms they created.
std::vector<platform*> load_plugins();
// What happened to each plugin (for error messages and syclone-ls).
// Exported for syclone-ls.
SYCLONE_EXPORT const std::vector<plugin_status>& plugin_statuses();

} // namespace syclone::runtime
