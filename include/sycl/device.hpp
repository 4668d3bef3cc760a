// SYCL 2020 4.6.4. Device class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/exception.hpp>
#include <sycl/info.hpp>
#include <sycl/platform.hpp>

#include <functional>
#include <type_traits>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

namespace ext::oneapi {
// sycl_ext_oneapi_peer_access: what device::ext_oneapi_can_access_peer asks about.
enum class peer_access {
  access_supported,  // kernels on one device can read and write USM device memory of the other
  atomics_supported, // ... and atomic operations on it are native
};
} // namespace ext::oneapi

class SYCLONE_EXPORT device {
public:
  // The device default_selector_v picks.
  device();
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit device(const DeviceSelector& selector) : device(select(std::cref(selector))) {}

  bool is_cpu() const;
  bool is_gpu() const;
  bool is_accelerator() const;
  platform get_platform() const;
  backend get_backend() const noexcept;
  template <typename Param>
  typename Param::return_type get_info() const;
  bool has(aspect asp) const;
  bool has_extension(const std::string& extension) const;

  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(std::size_t) const {
    detail::throw_error(errc::feature_not_supported,
                        "device::create_sub_devices: syclone devices cannot be partitioned "
                        "(info::device::partition_max_sub_devices is 0)");
  }

  static std::vector<device> get_devices(info::device_type type = info::device_type::all);

  // sycl_ext_oneapi_peer_access. Whether kernels on this device can access USM device memory
  // allocated on `peer` once enabled (NVIDIA GPUs: cuDeviceCanAccessPeer and
  // CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED; a device always can access itself).
  bool ext_oneapi_can_access_peer(
      const device& peer,
      ext::oneapi::peer_access value = ext::oneapi::peer_access::access_supported);
  // Lets kernels on this device access `peer`'s USM device memory; errc::feature_not_supported
  // where ext_oneapi_can_access_peer says no. Enabling twice, and disabling what is not enabled,
  // do nothing.
  void ext_oneapi_enable_peer_access(const device& peer);
  void ext_oneapi_disable_peer_access(const device& peer);

  friend bool operator==(const device& a, const device& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const device& a, const device& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  friend struct std::hash<device>;
  explicit device(std::shared_ptr<detail::device_impl> impl) : m_impl(std::move(impl)) {}
  // Scores every device with the selector; throws errc::runtime when none scores >= 0.
  static device select(const std::function<int(const device&)>& selector);
  std::shared_ptr<detail::device_impl> m_impl;
};

template <typename DeviceSelector, typename>
platform::platform(const DeviceSelector& selector)
    : platform(device(selector).get_platform()) {}

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::device> {
  std::size_t operator()(const sycl::device& d) const {
    return std::hash<const void*>()(d.m_impl.get());
  }
};
