// What the PTX checks of tests/jit share: the PTX the JIT makes for one kernel of a bitcode file
// (as the CUDA backend compiles it), checked by ptxas where a CUDA toolkit is installed.
#pragma once

#include "jit/jit.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace syclone_test {

// `file` in $SYCLONE_JIT_TEST_BITCODE_DIR when set, else `built` (the build's copy).
inline std::filesystem::path bitcode_path(const char* file, const char* built) {
  const char* dir = std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR");
  return dir ? std::filesystem::path(dir) / file : std::filesystem::path(built);
}

inline const std::vector<std::byte>& bitcode_of(const std::filesystem::path& path) {
  static std::map<std::filesystem::path, std::vector<std::byte>> read;
  auto [it, fresh] = read.try_emplace(path);
  if (fresh) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), {});
    it->second.resize(chars.size());
    std::memcpy(it->second.data(), chars.data(), chars.size());
  }
  return it->second;
}

// The PTX of the kernel named by the class `name` for `arch`; `ptxas` (may be empty) must accept
// it.
inline std::string kernel_ptx(const std::filesystem::path& bitcode, const std::string& name,
                              const std::string& arch, const std::string& ptxas) {
  namespace fs = std::filesystem;
  EXPECT_FALSE(bitcode_of(bitcode).empty()) << "missing " << bitcode;
  syclone::jit::request r;
  r.bitcode = bitcode_of(bitcode);
  r.kernel = "_ZTS" + std::to_string(name.size()) + name;
  r.arch = arch;
  std::string text = syclone::jit::compile(r).ptx;
  if (!ptxas.empty()) {
    fs::path dir = fs::temp_directory_path() / ("syclone-ptx-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::path file = dir / (name + "-" + arch + ".ptx");
    std::ofstream(file) << text;
    std::string cmd = ptxas + " -arch=" + arch + " " + file.string() + " -o " +
                      (dir / "out.cubin").string() + " > " + (dir / "log").string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << name << " for " << arch << ": ptxas rejects the PTX";
    fs::remove_all(dir);
  }
  return text;
}

} // namespace syclone_test
