#include "host_config.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

namespace syclone::host {
namespace {

// Parses an unsigned number with an optional K/M/G suffix; false when malformed.
bool parse_size(const char* text, std::uint64_t& value) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 0);
  if (errno != 0 || end == text) return false;
  std::uint64_t scale = 1;
  switch (*end) {
  case 'k':
  case 'K':
    scale = 1ull << 10;
    ++end;
    break;
  case 'm':
  case 'M':
    scale = 1ull << 20;
    ++end;
    break;
  case 'g':
  case 'G':
    scale = 1ull << 30;
    ++end;
    break;
  default:
    break;
  }
  if (*end == 'i' || *end == 'I') ++end; // "KiB"
  if (*end == 'b' || *end == 'B') ++end;
  if (*end != '\0') return false;
  value = v * scale;
  return true;
}

void warn_ignored(const char* name, const char* value, const char* expected) {
  std::fprintf(stderr, "syclone: ignoring %s=\"%s\": expected %s\n", name, value, expected);
}

std::size_t default_threads() {
  std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    auto allowed = static_cast<std::size_t>(CPU_COUNT(&set));
    if (allowed > 0) hw = std::min(hw, allowed);
  }
  return hw;
}

host_config read_config() {
  host_config c{};
  c.threads = default_threads();
  c.stack_size = 256u << 10;
  c.spin_ns = 50'000;
  std::uint64_t v = 0;
  if (const char* e = std::getenv("SYCLONE_HOST_THREADS"); e && *e) {
    if (parse_size(e, v) && v >= 1 && v <= 4096)
      c.threads = v;
    else
      warn_ignored("SYCLONE_HOST_THREADS", e, "a thread count from 1 to 4096");
  }
  if (const char* e = std::getenv("SYCLONE_HOST_STACK_SIZE"); e && *e) {
    if (parse_size(e, v) && v >= (16u << 10) && v <= (1ull << 30))
      c.stack_size = v;
    else
      warn_ignored("SYCLONE_HOST_STACK_SIZE", e, "a size from 16K to 1G, e.g. 512K");
  }
  if (const char* e = std::getenv("SYCLONE_HOST_SPIN_US"); e && *e) {
    if (parse_size(e, v) && v <= 1'000'000)
      c.spin_ns = v * 1000;
    else
      warn_ignored("SYCLONE_HOST_SPIN_US", e, "microseconds from 0 to 1000000");
  }
  auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  c.stack_size = (c.stack_size + page - 1) / page * page;
  return c;
}

struct schedule_setting {
  schedule_kind kind;
  std::uint64_t seed;
};

schedule_setting read_schedule() {
  const char* e = std::getenv("SYCLONE_HOST_SCHEDULE");
  if (!e || !*e) return {schedule_kind::in_order, 0};
  std::string_view s(e);
  if (s == "in-order" || s == "in_order") return {schedule_kind::in_order, 0};
  if (s == "shuffle" || s == "shuffled") return {schedule_kind::shuffled, 0};
  if (s.starts_with("shuffle:")) {
    std::uint64_t seed = 0;
    const char* text = e + std::strlen("shuffle:");
    char* end = nullptr;
    errno = 0;
    seed = std::strtoull(text, &end, 0);
    if (errno == 0 && end != text && *end == '\0') return {schedule_kind::shuffled, seed};
  }
  warn_ignored("SYCLONE_HOST_SCHEDULE", e, "in-order, shuffle or shuffle:<seed>");
  return {schedule_kind::in_order, 0};
}

// Kind and seed change together only through set_schedule (tests); a launch reads both once.
std::atomic<int> g_schedule_kind{-1};
std::atomic<std::uint64_t> g_schedule_seed{0};

void load_schedule() {
  if (g_schedule_kind.load(std::memory_order_acquire) >= 0) return;
  static const bool loaded = [] {
    schedule_setting s = read_schedule();
    g_schedule_seed.store(s.seed, std::memory_order_relaxed);
    int unset = -1;
    g_schedule_kind.compare_exchange_strong(unset, static_cast<int>(s.kind),
                                            std::memory_order_release);
    return true;
  }();
  (void)loaded;
}

int read_kernel_mode() {
  const char* e = std::getenv("SYCLONE_HOST_KERNELS");
  if (!e || !*e) return static_cast<int>(kernel_mode::loops);
  std::string_view s(e);
  if (s == "loops") return static_cast<int>(kernel_mode::loops);
  if (s == "report") return static_cast<int>(kernel_mode::report);
  if (s == "fibers") return static_cast<int>(kernel_mode::fibers);
  warn_ignored("SYCLONE_HOST_KERNELS", e, "loops, report or fibers");
  return static_cast<int>(kernel_mode::loops);
}

std::atomic<int> g_kernel_mode{-1};

} // namespace

kernel_mode kernel_mode_setting() noexcept {
  int mode = g_kernel_mode.load(std::memory_order_acquire);
  if (mode < 0) {
    int unset = -1;
    g_kernel_mode.compare_exchange_strong(unset, read_kernel_mode(), std::memory_order_acq_rel);
    mode = g_kernel_mode.load(std::memory_order_acquire);
  }
  return static_cast<kernel_mode>(mode);
}

const host_config& config() noexcept {
  static const host_config c = read_config();
  return c;
}

schedule_kind schedule() noexcept {
  load_schedule();
  return static_cast<schedule_kind>(g_schedule_kind.load(std::memory_order_acquire));
}

std::uint64_t schedule_seed() noexcept {
  load_schedule();
  return g_schedule_seed.load(std::memory_order_acquire);
}

void set_schedule(schedule_kind kind, std::uint64_t seed) noexcept {
  load_schedule();
  g_schedule_seed.store(seed, std::memory_order_relaxed);
  g_schedule_kind.store(static_cast<int>(kind), std::memory_order_release);
}

} // namespace syclone::host
