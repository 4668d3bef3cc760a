// The names the device_global pass (device_global.hpp) gives its pointer variables, shared with
// the CUDA backend, which finds them in the PTX (no LLVM type here).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace syclone::passes {

// The prefix of the pointer variables; the rest of the name is the variable's size in bytes, '_',
// and the device_global's symbol with '.' written as '$' (a PTX name has no dots). The size travels
// in the name because the program's symbol table cannot be trusted for it (AddressSanitizer counts
// its redzones in a variable's symbol size).
inline constexpr std::string_view device_global_pointer_prefix = "__syclone_dgp_";

inline std::string device_global_pointer(std::string_view variable, std::uint64_t bytes) {
  std::string name(variable);
  std::replace(name.begin(), name.end(), '.', '$');
  return std::string(device_global_pointer_prefix) + std::to_string(bytes) + "_" + name;
}

// What a pointer variable stands for: the device_global's symbol and its size.
struct device_global_of {
  std::string symbol;
  std::uint64_t bytes = 0;
};
// Empty `symbol` when `pointer` is not a name device_global_pointer made.
inline device_global_of device_global_of_pointer(std::string_view pointer) {
  device_global_of result;
  if (!pointer.starts_with(device_global_pointer_prefix)) return result;
  std::string_view rest = pointer.substr(device_global_pointer_prefix.size());
  std::size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
    result.bytes = result.bytes * 10 + static_cast<std::uint64_t>(rest[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits >= rest.size() || rest[digits] != '_') return result;
  result.symbol = std::string(rest.substr(digits + 1));
  std::replace(result.symbol.begin(), result.symbol.end(), '$', '.');
  return result;
}

} // namespace syclone::passes
