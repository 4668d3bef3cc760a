// SYCLONE_SUBMIT_PROFILE (submit_profile.hpp).
#include "submit_profile.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace syclone::runtime {
namespace {

constexpr int phases = static_cast<int>(submit_phase::count);
std::atomic<std::uint64_t> g_ns[phases];
std::atomic<std::uint64_t> g_submissions{0};

const char* name(int p) {
  static const char* names[phases] = {"command group (handler, accessors)",
                                      "checks (bundle, nd_range, kernel lookup)",
                                      "command (its event)",
                                      "command: buffer dependencies",
                                      "command: queue bookkeeping",
                                      "dependency analysis (scheduler)",
                                      "execute (buffer data moves)",
                                      "backend operation",
                                      "  of which the driver's launch",
                                      "  of which recording the completion event",
                                      "completion (native event, releases)",
                                      "launch thread: the driver's launch",
                                      "launch thread: recording the completion event",
                                      "launch thread: the event handed over, released"};
  return names[p];
}

void report() {
  std::uint64_t n = g_submissions.load();
  if (n == 0) return;
  std::fprintf(stderr, "syclone submit profile: %llu submissions, mean per submission:\n",
               static_cast<unsigned long long>(n));
  for (int p = 0; p < phases; ++p)
    std::fprintf(stderr, "  %-45s %8.3f us\n", name(p), double(g_ns[p].load()) / double(n) / 1e3);
}

bool read_setting() {
  const char* e = std::getenv("SYCLONE_SUBMIT_PROFILE");
  if (!e || !*e || std::string_view(e) == "0") return false;
  std::atexit(report);
  return true;
}

} // namespace

bool submit_profiling() noexcept {
  static const bool on = read_setting();
  return on;
}

void submit_profile_add(submit_phase phase, std::uint64_t ns) noexcept {
  g_ns[static_cast<int>(phase)].fetch_add(ns, std::memory_order_relaxed);
}

void submit_profile_count() noexcept {
  g_submissions.fetch_add(1, std::memory_order_relaxed);
}

} // namespace syclone::runtime
