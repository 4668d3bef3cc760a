// The names the device_global pass (device_global.hpp) gives its pointer variables, shared with
// the CUDA backend, which finds them in the PTX (no LLVM type here).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace syclone::passes {

// The prefix of the pointer variables; the rest of the name is the device_global's symbol with
// '.' written as '$' (a PTX name has no dots).
inline constexpr std::string_view device_global_pointer_prefix = "__syclone_dgp_";

inline std::string device_global_pointer(std::string_view variable) {
  std::string name(variable);
  std::replace(name.begin(), name.end(), '.', '$');
  return std::string(device_global_pointer_prefix) + name;
}
// The device_global symbol a pointer variable stands for.
inline std::string device_global_of_pointer(std::string_view pointer) {
  std::string name(pointer.substr(device_global_pointer_prefix.size()));
  std::replace(name.begin(), name.end(), '$', '.');
  return name;
}

} // namespace syclone::passes
