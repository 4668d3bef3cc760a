// The JIT's caches: in memory for the process, on disk across processes. Internal to src/jit.
#pragma once

#include "jit.hpp"

#include <cstdint>
#include <filesystem>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace syclone::jit::detail {

// A 128-bit hash of everything that decides the PTX of a request.
struct cache_key {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const cache_key&) const = default;
  std::string hex() const; // 32 digits
};
struct cache_key_hash {
  std::size_t operator()(const cache_key& key) const { return key.low; }
};

// `libdevice_path`: the file the request would link (empty: none); its size and modification
// time are part of the key.
cache_key make_key(const request& req, const std::string& libdevice_path);

// The results of this process, least recently used dropped beyond a total size.
class memory_cache {
public:
  static memory_cache& instance();
  std::optional<std::string> find(const cache_key& key);
  void insert(const cache_key& key, const std::string& ptx);

private:
  std::mutex m_mutex;
  std::list<std::pair<cache_key, std::string>> m_entries; // most recently used first
  std::unordered_map<cache_key, decltype(m_entries)::iterator, cache_key_hash> m_index;
  std::size_t m_bytes = 0;
};

// One file per result in <directory>/jit/: a header with the key, the PTX size and checksum,
// then the PTX. Entries are written to a temporary file and renamed into place, so concurrent
// processes see either a whole entry or none; an entry that fails its checks is deleted.
class disk_cache {
public:
  // The directory from $SYCLONE_CACHE_DIR, $XDG_CACHE_HOME or $HOME; empty when none is set.
  static std::filesystem::path default_directory();
  explicit disk_cache(std::filesystem::path directory);
  std::optional<std::string> find(const cache_key& key) const;
  // Best effort: a cache that cannot be written (read-only home, full disk) is skipped.
  void store(const cache_key& key, const std::string& ptx) const;
  std::filesystem::path entry(const cache_key& key) const;

private:
  std::filesystem::path m_directory;
};

} // namespace syclone::jit::detail
