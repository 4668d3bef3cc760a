// platform_impl and device_impl: SYCL objects over the backends' platforms and devices.
#pragma once

#include "backend.hpp"
#include "residency.hpp"

#include <sycl/device.hpp>
#include <sycl/platform.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class device_impl : public std::enable_shared_from_this<device_impl> {
public:
  device_impl(syclone::runtime::device& backend_device, std::weak_ptr<platform_impl> platform)
      : m_device(backend_device), m_platform(std::move(platform)) {}
  // A sub-device (SYCL 2020 4.6.4.2) of `parent`, made by `how` (`domain` for
  // partition_by_affinity_domain): it owns its backend device.
  device_impl(std::unique_ptr<syclone::runtime::device> owned, std::shared_ptr<device_impl> parent,
              info::partition_property how, info::partition_affinity_domain domain)
      : m_owned(std::move(owned)), m_device(*m_owned), m_platform(parent->m_platform),
        m_parent(std::move(parent)), m_partition(how), m_domain(domain) {}
  // A device over a native context the user created (make_context, README "Backend
  // interoperability"): not one of its platform's devices, so its queues get a context of its
  // own rather than the platform's default one.
  struct adopted_tag {};
  device_impl(syclone::runtime::device& backend_device, std::weak_ptr<platform_impl> platform,
              adopted_tag)
      : m_device(backend_device), m_platform(std::move(platform)), m_adopted(true) {}
  syclone::runtime::device& backend_device() const { return m_device; }
  const syclone::runtime::device_properties& props() const { return m_device.properties(); }
  std::shared_ptr<platform_impl> platform() const { return m_platform.lock(); }
  bool has(aspect a) const;
  // Whether the host addresses this device's memory directly (the host device).
  bool host_addressable() const { return m_device.host_accessible(sycl::usm::alloc::device); }
  // A stream for the runtime's own transfers (buffer copies to and from the host).
  syclone::runtime::stream& internal_stream();

  // The device this sub-device was partitioned from; null for a root device.
  const std::shared_ptr<device_impl>& parent() const { return m_parent; }
  info::partition_property partition_type() const { return m_partition; }
  info::partition_affinity_domain partition_domain() const { return m_domain; }
  // The context a queue gets when none is given: the platform's default context for a root
  // device; for a sub-device (not in that context, which holds the root devices) a context of
  // its own, shared by its queues while one lives.
  std::shared_ptr<context_impl> default_context();
  // The buffers with a copy on this device, evicted when an allocation finds no room.
  detail::residency& residency() { return m_residency; }
  // Issue 28: when a fault in a kernel left the device unusable, resets it (the backend's
  // recover) and returns true; the internal stream is made again at its next use. Memory and
  // streams from before are gone: holders compare epoch() with the one they allocated in.
  bool recover_after_fault();
  std::uint64_t epoch() const noexcept { return m_device.epoch(); }
  // An asynchronous error of a command on this device: the first one after a fault that left
  // the device unusable also lists the buffers whose only current contents were there, and
  // says how to go on.
  std::exception_ptr describe_fault(std::exception_ptr error);

private:
  std::unique_ptr<syclone::runtime::device> m_owned; // a sub-device's backend device
  syclone::runtime::device& m_device;
  std::weak_ptr<platform_impl> m_platform;
  std::shared_ptr<device_impl> m_parent;
  info::partition_property m_partition = info::partition_property::no_partition;
  info::partition_affinity_domain m_domain = info::partition_affinity_domain::not_applicable;
  bool m_adopted = false;
  std::mutex m_stream_mutex;
  std::unique_ptr<syclone::runtime::stream> m_internal_stream;
  std::uint64_t m_internal_stream_epoch = 0;
  // Internal streams from before a reset: kept, since a thread may still hold one (it throws).
  std::vector<std::unique_ptr<syclone::runtime::stream>> m_old_internal_streams;
  std::mutex m_context_mutex;
  std::weak_ptr<context_impl> m_context; // a sub-device's default context
  detail::residency m_residency;
  std::atomic<std::uint64_t> m_fault_described{~std::uint64_t{0}}; // the epoch it was done in
};

class platform_impl {
public:
  explicit platform_impl(syclone::runtime::platform& p) : m_platform(p) {}
  syclone::runtime::platform& backend_platform() const { return m_platform; }
  const std::vector<std::shared_ptr<device_impl>>& devices() const { return m_devices; }
  void add_device(std::shared_ptr<device_impl> d) { m_devices.push_back(std::move(d)); }
  // The context a queue gets when none is given (SYCL 2020 4.6.5: the platform default).
  std::shared_ptr<context_impl> default_context();

private:
  syclone::runtime::platform& m_platform;
  std::vector<std::shared_ptr<device_impl>> m_devices;
  std::mutex m_mutex;
  std::shared_ptr<context_impl> m_default_context;
};

// Every platform of the process, discovered once.
const std::vector<std::shared_ptr<platform_impl>>& all_platforms();

} // namespace detail
SYCLONE_END_NAMESPACE
