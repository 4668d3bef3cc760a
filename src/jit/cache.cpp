#include "cache.hpp"

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace syclone::jit::detail {
namespace {

namespace fs = std::filesystem;

// Raise whenever the JIT's output for the same input changes (a new pass, a new default PTX
// version), so that older cache entries are no longer found.
constexpr int k_jit_version = 2;
constexpr std::size_t k_memory_limit = 64u << 20;
constexpr std::string_view k_magic = "syclone-jit-cache 1\n";

std::uint64_t checksum(std::string_view bytes) {
  return llvm::xxh3_64bits(
      llvm::ArrayRef(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

class key_builder {
public:
  void add(std::string_view field) {
    std::uint64_t size = field.size();
    m_material.append(reinterpret_cast<const char*>(&size), sizeof size);
    m_material.append(field);
  }
  void add(std::uint64_t number) { add(std::string_view(std::to_string(number))); }
  cache_key finish() const {
    auto hash = llvm::xxh3_128bits(llvm::ArrayRef(
        reinterpret_cast<const std::uint8_t*>(m_material.data()), m_material.size()));
    return {hash.high64, hash.low64};
  }

private:
  std::string m_material;
};

std::string hex16(std::uint64_t value) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(value));
  return digits;
}

std::string_view as_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Reads a whole file; nullopt if it cannot be opened or read.
std::optional<std::string> read_file(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat info{};
  std::optional<std::string> contents;
  if (::fstat(fd, &info) == 0) {
    std::string data(static_cast<std::size_t>(info.st_size), '\0');
    std::size_t done = 0;
    while (done < data.size()) {
      ssize_t n = ::read(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    if (done == data.size()) contents = std::move(data);
  }
  ::close(fd);
  return contents;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// "<name> <value>\n" at the front of `text`, consumed; false if absent.
bool take_field(std::string_view& text, std::string_view name, std::string_view& value) {
  if (!text.starts_with(name) || text.size() <= name.size() || text[name.size()] != ' ')
    return false;
  auto end = text.find('\n');
  if (end == std::string_view::npos) return false;
  value = text.substr(name.size() + 1, end - name.size() - 1);
  text.remove_prefix(end + 1);
  return true;
}

std::string header(const cache_key& key, const std::string& ptx) {
  return std::string(k_magic) + "key " + key.hex() + "\nsize " + std::to_string(ptx.size()) +
         "\nxxh3 " + hex16(checksum(ptx)) + "\n\n";
}

} // namespace

std::string cache_key::hex() const {
  return hex16(high) + hex16(low);
}

cache_key make_key(const request& req, const std::string& libdevice_path) {
  key_builder key;
  key.add("syclone-jit");
  key.add(std::uint64_t(k_jit_version));
  key.add(LLVM_VERSION_STRING);
  auto bitcode = llvm::xxh3_128bits(llvm::ArrayRef(
      reinterpret_cast<const std::uint8_t*>(req.bitcode.data()), req.bitcode.size()));
  key.add(bitcode.high64);
  key.add(bitcode.low64);
  key.add(req.kernel);
  key.add(req.arch);
  key.add(req.ptx_version_feature);
  std::vector<const spec_constant*> values;
  for (const auto& value : req.spec_constants) values.push_back(&value);
  std::sort(values.begin(), values.end(), [](auto* a, auto* b) { return a->name < b->name; });
  key.add(values.size());
  for (const spec_constant* value : values) {
    key.add(value->name);
    key.add(as_text(value->value));
  }
  key.add(libdevice_path);
  struct stat info{};
  if (!libdevice_path.empty() && ::stat(libdevice_path.c_str(), &info) == 0) {
    key.add(std::uint64_t(info.st_size));
    key.add(std::uint64_t(info.st_mtim.tv_sec) * 1000000000u + std::uint64_t(info.st_mtim.tv_nsec));
  }
  return key.finish();
}

memory_cache& memory_cache::instance() {
  static memory_cache cache;
  return cache;
}

std::optional<std::string> memory_cache::find(const cache_key& key) {
  std::lock_guard lock(m_mutex);
  auto it = m_index.find(key);
  if (it == m_index.end()) return std::nullopt;
  m_entries.splice(m_entries.begin(), m_entries, it->second);
  return it->second->second;
}

void memory_cache::insert(const cache_key& key, const std::string& ptx) {
  std::lock_guard lock(m_mutex);
  if (m_index.contains(key)) return;
  m_entries.emplace_front(key, ptx);
  m_index.emplace(key, m_entries.begin());
  m_bytes += ptx.size();
  while (m_bytes > k_memory_limit && m_entries.size() > 1) {
    auto& oldest = m_entries.back();
    m_bytes -= oldest.second.size();
    m_index.erase(oldest.first);
    m_entries.pop_back();
  }
}

fs::path disk_cache::default_directory() {
  if (const char* dir = std::getenv("SYCLONE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir)
    return fs::path(dir) / "syclone";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "syclone";
  return {};
}

disk_cache::disk_cache(fs::path directory) : m_directory(std::move(directory) / "jit") {}

fs::path disk_cache::entry(const cache_key& key) const {
  return m_directory / (key.hex() + ".ptx");
}

std::optional<std::string> disk_cache::find(const cache_key& key) const {
  fs::path path = entry(key);
  std::optional<std::string> file = read_file(path);
  if (!file) return std::nullopt;

  std::string_view text = *file;
  std::string_view key_text, size_text, sum_text;
  std::size_t size = 0;
  bool valid = text.starts_with(k_magic);
  if (valid) {
    text.remove_prefix(k_magic.size());
    valid = take_field(text, "key", key_text) && key_text == key.hex() &&
            take_field(text, "size", size_text) &&
            std::from_chars(size_text.data(), size_text.data() + size_text.size(), size).ec ==
                std::errc() &&
            take_field(text, "xxh3", sum_text) && text.starts_with('\n');
  }
  if (valid) {
    text.remove_prefix(1);
    valid = text.size() == size && sum_text == hex16(checksum(text));
  }
  if (!valid) {
    // Truncated, corrupted or from another format: drop it; the caller compiles again.
    ::unlink(path.c_str());
    return std::nullopt;
  }
  return std::string(text);
}

void disk_cache::store(const cache_key& key, const std::string& ptx) const {
  std::error_code ec;
  fs::create_directories(m_directory, ec);
  fs::path path = entry(key);
  static std::atomic<unsigned> counter{0};
  fs::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return;
  bool written = write_all(fd, header(key, ptx)) && write_all(fd, ptx);
  written = ::close(fd) == 0 && written;
  if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) ::unlink(temporary.c_str());
}

} // namespace syclone::jit::detail
