// Reading the committed test modules under SYCLONE_SPIRV_TEST_DATA (tests/spirv/data).
#pragma once

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace syclone::spirv::test {

inline std::string data_path(const std::string& name) {
  return std::string(SYCLONE_SPIRV_TEST_DATA) + "/" + name;
}

inline std::string read_text(const std::string& name) {
  std::ifstream in(data_path(name), std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + data_path(name));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::vector<std::byte> read_binary(const std::string& name) {
  std::string text = read_text(name);
  std::vector<std::byte> bytes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
  return bytes;
}

// The modules syclone++'s device pipeline produced (clang++-22 -fsycl-device-only, llc-22
// -mtriple=spirv64) from examples/ and tests/e2e/, as data/dis_NAME.spv with spirv-dis --raw-id's
// text beside each (dis_NAME.dis).
inline const std::vector<std::string>& pipeline_modules() {
  static const std::vector<std::string> names = {"vector_add",     "prefetch_sub_group",
                                                 "usm_reduction",  "matrix_multiply",
                                                 "spec_constants", "local_memory_barriers"};
  return names;
}

} // namespace syclone::spirv::test
