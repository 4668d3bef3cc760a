// platform_impl and device_impl: SYCL objects over the backends' platforms and devices.
#pragma once

#include "backend.hpp"

#include <sycl/device.hpp>
#include <sycl/platform.hpp>

#include <memory>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class device_impl {
public:
  device_impl(syclone::runtime::device& backend_device, std::weak_ptr<platform_impl> platform)
      : m_device(backend_device), m_platform(std::move(platform)) {}
  syclone::runtime::device& backend_device() const { return m_device; }
  const syclone::runtime::device_properties& props() const { return m_device.properties(); }
  std::shared_ptr<platform_impl> platform() const { return m_platform.lock(); }
  bool has(aspect a) const;
  // Whether the host addresses this device's memory directly (the host device).
  bool host_addressable() const {
    return m_device.host_accessible(sycl::usm::alloc::device);
  }
  // A stream for the runtime's own transfers (buffer copies to and from the host).
  syclone::runtime::stream& internal_stream();

private:
  syclone::runtime::device& m_device;
  std::weak_ptr<platform_impl> m_platform;
  std::mutex m_stream_mutex;
  std::unique_ptr<syclone::runtime::stream> m_internal_stream;
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
