// jit::compile: the caches in front of compile_uncached, timing, and SYCLONE_JIT_DUMP.
#include "jit.hpp"

#include "cache.hpp"
#include "steps.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace syclone::jit {
namespace {

namespace fs = std::filesystem;

bool caching_enabled() {
  const char* value = std::getenv("SYCLONE_JIT_CACHE");
  return !value || std::string_view(value) != "0";
}

std::string dump_directory() {
  const char* value = std::getenv("SYCLONE_JIT_DUMP");
  return value ? value : "";
}

// <dir>/<kernel>-<arch>-<key> (without extension); kernel symbols are file-name safe already,
// anything else is replaced.
fs::path dump_stem(const std::string& directory, const request& req, const detail::cache_key& key) {
  std::string kernel = req.kernel.empty() ? "all" : req.kernel.substr(0, 160);
  for (char& c : kernel)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$')) c = '_';
  return fs::path(directory) / (kernel + "-" + req.arch + "-" + key.hex());
}

void write_dump(const fs::path& path, const std::string& ptx) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(ptx.data(), static_cast<std::streamsize>(ptx.size()));
}

} // namespace

result compile(const request& req) {
  auto start = std::chrono::steady_clock::now();
  auto finish = [&](std::string ptx, bool from_cache) {
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    return result{std::move(ptx), elapsed.count(), from_cache};
  };
  if (req.arch.empty())
    detail::fail("the request names no GPU architecture (e.g. sm_90; the CUDA backend takes it "
                 "from the device's compute capability)");

  std::string libdevice = detail::find_libdevice(req.libdevice_path, nullptr);
  detail::cache_key key = detail::make_key(req, libdevice);
  std::string dump = dump_directory();
  fs::path stem = dump.empty() ? fs::path() : dump_stem(dump, req, key);
  auto dumped = [&](const std::string& ptx) {
    if (!dump.empty()) write_dump(fs::path(stem) += ".ptx", ptx);
  };

  bool caching = caching_enabled();
  fs::path directory = caching ? detail::disk_cache::default_directory() : fs::path();
  if (caching) {
    if (auto ptx = detail::memory_cache::instance().find(key)) {
      dumped(*ptx);
      return finish(std::move(*ptx), true);
    }
    if (!directory.empty()) {
      if (auto ptx = detail::disk_cache(directory).find(key)) {
        detail::memory_cache::instance().insert(key, *ptx);
        dumped(*ptx);
        return finish(std::move(*ptx), true);
      }
    }
  }

  detail::target_choice target = detail::choose_target(req.arch, req.ptx_version_feature);
  std::string dump_ir;
  if (!dump.empty()) {
    std::error_code ec;
    fs::create_directories(dump, ec);
    dump_ir = (fs::path(stem) += ".ll").string();
  }
  std::string ptx = detail::compile_uncached(req, target, libdevice, dump_ir);

  if (caching) {
    detail::memory_cache::instance().insert(key, ptx);
    if (!directory.empty()) detail::disk_cache(directory).store(key, ptx);
  }
  dumped(ptx);
  return finish(std::move(ptx), false);
}

} // namespace syclone::jit
