// context_impl: devices, the async handler and the USM allocations of a context.
#pragma once

#include "device_impl.hpp"

#include <sycl/context.hpp>
#include <sycl/usm.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// Runs its action once every hold taken on it was dropped (and the one it starts with).
class release_latch {
public:
  explicit release_latch(std::function<void()> action) : m_action(std::move(action)) {}
  void hold() noexcept { m_holds.fetch_add(1, std::memory_order_relaxed); }
  void drop() {
    if (m_holds.fetch_sub(1, std::memory_order_acq_rel) == 1) m_action();
  }

private:
  std::atomic<std::size_t> m_holds{1};
  std::function<void()> m_action;
};

// What submits commands in a context (its queues): asked to hold a latch until every command it
// holds that has not completed yet has (context_impl::free).
class command_source {
public:
  virtual void hold_until_complete(const std::shared_ptr<release_latch>& latch) = 0;

protected:
  ~command_source() = default;
};

class context_impl {
public:
  context_impl(std::vector<std::shared_ptr<device_impl>> devices, async_handler handler,
               property_list props);
  ~context_impl();

  const std::vector<std::shared_ptr<device_impl>>& devices() const { return m_devices; }
  std::shared_ptr<platform_impl> platform() const { return m_devices.front()->platform(); }
  const async_handler& handler() const { return m_handler; }
  const property_list& properties() const { return m_props; }
  // Whether d is one of the context's devices or a descendant (sub-device) of one.
  bool contains(const device_impl* d) const;

  struct allocation {
    std::size_t size;
    usm::alloc kind;
    device_impl* device; // null for host allocations
    // The epoch of the device that allocated it (device_impl::epoch): after a reset the memory
    // is gone, and freeing it frees nothing.
    std::uint64_t epoch = 0;
  };
  void* allocate(std::size_t alignment, std::size_t bytes, device_impl* dev, usm::alloc kind);
  // Throws errc::invalid for a pointer this context did not allocate. The memory goes back once
  // the commands submitted to the context's queues before have completed (as the CUDA driver's
  // cuMemFree waits for the work on the device, and further: for commands syclone still holds
  // back): a command still running or waiting for its dependencies never writes to memory given
  // back.
  void free(void* ptr);
  // The context's queues register while they live.
  void add_source(command_source* source);
  void remove_source(command_source* source);
  // The allocation holding ptr, if any.
  bool find(const void* ptr, allocation& out) const;
  // The device that owns ptr when ptr is a USM device allocation of another context whose
  // device is not of `reader`'s platform: memory `reader` cannot address (SYCL 2020 4.8.2).
  const device_impl* foreign_device_owner(const void* ptr, const device_impl& reader) const;
  // The allocation holding ptr in any live context of `reader`'s platform (this one first).
  bool find_in_platform(const void* ptr, const device_impl& reader, allocation& out) const;

private:
  std::vector<std::shared_ptr<device_impl>> m_devices;
  async_handler m_handler;
  property_list m_props;
  mutable std::mutex m_mutex;
  std::map<std::uintptr_t, allocation> m_allocations; // by start address
  // Sub-devices that allocated here: kept alive while the context is, so that allocation::device
  // stays valid (root devices live as long as the process).
  std::vector<std::shared_ptr<device_impl>> m_sub_devices;
  std::vector<command_source*> m_sources; // under m_mutex
};

} // namespace detail
SYCLONE_END_NAMESPACE
