// Residency (issue 28): the buffers that keep a copy on one device, and how the runtime makes
// room on that device when an allocation fails. A failed device allocation moves device copies
// no command is using back to the host (writing them back first when the device held their only
// current contents), least recently used first, and tries again; when that is not enough, it
// waits for the commands that use the least recently used copies and evicts those. Only when
// nothing is left to evict does the caller report errc::memory_allocation. With
// SYCLONE_DEVICE_MEMORY_LIMIT capping the device (src/backends/cuda), programs run buffers
// totalling more than the cap.
#pragma once

#include <sycl/usm.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class device_impl;
class event_impl;

// What keeps copies on a device that it can give up: a buffer (buffer_impl). Both calls only
// try the owner's locks; `busy` is set when the owner could not be asked, or a command group
// being recorded holds its copy's address (a moment's matter: worth asking again).
class evictable {
public:
  // Frees the copy on `d` if no command uses it or is about to, having brought the host copy up
  // to date first when the copy on `d` was the only current one. Returns the bytes freed (0:
  // in use or absent). Never calls residency::remove: the registry forgets the owner itself.
  virtual std::size_t evict_from(device_impl& d, bool& busy) noexcept = 0;
  // When the copy on `d` could go but for commands not yet complete: appends their events to
  // `out` and returns the copy's bytes; 0 (appending nothing) otherwise.
  virtual std::size_t pending_on(device_impl& d, std::vector<std::shared_ptr<event_impl>>& out,
                                 bool& busy) noexcept = 0;
  // When a command group last used the copy on `d` (residency::tick), for the eviction order.
  virtual std::uint64_t last_use_on(device_impl& d) noexcept = 0;
  // True, with a description in `what`, when the copy on `d` holds the only current contents
  // (what a fault on `d` loses); false too when the owner could not be asked.
  virtual bool only_copy_on(device_impl& d, std::string& what) noexcept = 0;

protected:
  ~evictable() = default;
};

class residency {
public:
  // The copy of `owner` on this device exists / is gone. Thread-safe.
  void add(evictable& owner);
  void remove(evictable& owner);
  // Allocates on `d` (this registry's device), making room as the header comment says when the
  // device has none. `held`: the owners whose copies the caller's command group uses (never
  // evicted for it, and never waited for); empty for USM. Null when no room could be made. The
  // caller holds no buffer lock.
  void* allocate(device_impl& d, std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind,
                 const std::vector<const evictable*>& held);
  // The owners whose only current contents are on `d`, described, one per line ("" if none).
  std::string only_copies_on(device_impl& d);
  // A number that grows with every call: when a command group last used a copy.
  static std::uint64_t tick() noexcept;

private:
  std::mutex m_mutex; // held while evicting: one eviction at a time
  std::vector<evictable*> m_owners;
};

} // namespace detail
SYCLONE_END_NAMESPACE
