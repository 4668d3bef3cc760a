// Residency: making room on a device by moving idle buffer copies back to the host (issue 28).
#include "residency.hpp"

#include "device_impl.hpp"
#include "event_impl.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

void residency::add(evictable& owner) {
  std::lock_guard lock(m_mutex);
  m_owners.push_back(&owner);
}

void residency::remove(evictable& owner) {
  std::lock_guard lock(m_mutex);
  std::erase(m_owners, &owner);
}

std::string residency::only_copies_on(device_impl& d) {
  std::lock_guard lock(m_mutex);
  std::string out;
  for (evictable* e : m_owners)
    if (std::string what; e->only_copy_on(d, what)) out += "\n  " + what;
  return out;
}

std::uint64_t residency::tick() noexcept {
  static std::atomic<std::uint64_t> clock{0};
  return clock.fetch_add(1, std::memory_order_relaxed) + 1;
}

void* residency::allocate(device_impl& d, std::size_t bytes, std::size_t alignment, usm::alloc kind,
                          const std::vector<const evictable*>& held) {
  auto& backend = d.backend_device();
  if (void* p = backend.allocate(bytes, alignment, kind)) return p;
  // Each round evicts what is idle, then waits for the commands of the least recently used
  // copies that together would make room. Copies busy for a moment (another thread's command
  // group holds their address) are asked again shortly, for a few seconds at most.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    std::vector<std::shared_ptr<event_impl>> waits;
    bool busy = false;
    {
      std::lock_guard lock(m_mutex);
      // Another thread may have made room while this one waited for the lock.
      if (void* p = backend.allocate(bytes, alignment, kind)) return p;
      std::vector<std::pair<std::uint64_t, evictable*>> order;
      order.reserve(m_owners.size());
      for (evictable* e : m_owners)
        if (std::find(held.begin(), held.end(), e) == held.end())
          order.emplace_back(e->last_use_on(d), e);
      std::sort(order.begin(), order.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<evictable*> left;
      for (auto& [use, e] : order) {
        if (e->evict_from(d, busy) == 0) {
          left.push_back(e);
          continue;
        }
        std::erase(m_owners, e);
        if (void* p = backend.allocate(bytes, alignment, kind)) return p;
      }
      std::size_t covered = 0;
      for (evictable* e : left) {
        if (covered >= bytes) break;
        covered += e->pending_on(d, waits, busy);
      }
    }
    if (waits.empty()) {
      if (!busy || std::chrono::steady_clock::now() > give_up) return nullptr;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      continue;
    }
    // Without the registry's lock: a command waited for may itself submit (a host task). Those
    // commands were submitted before, so none of them waits for the caller.
    for (auto& ev : waits) try {
        ev->wait();
      } catch (...) {
        // The command failed; its queue reports that. Its copy is idle all the same.
      }
  }
}

} // namespace detail
SYCLONE_END_NAMESPACE
