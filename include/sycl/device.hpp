// SYCL 2020 4.6.4. Device class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/exception.hpp>
#include <sycl/info.hpp>
#include <sycl/platform.hpp>

#include <functional>
#include <string>
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

  // SYCL 2020 4.6.4.2: partition_equally, partition_by_counts and partition_by_affinity_domain.
  // No syclone device supports a partition property (info::device::partition_properties is
  // empty): each throws errc::feature_not_supported.
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(std::size_t count) const {
    static_assert(Prop == info::partition_property::partition_equally,
                  "create_sub_devices(size_t) is the partition_equally form");
    return unsupported_partition("partition_equally (" + std::to_string(count) + " sub-devices)");
  }
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(const std::vector<std::size_t>& counts) const {
    static_assert(Prop == info::partition_property::partition_by_counts,
                  "create_sub_devices(std::vector<size_t>) is the partition_by_counts form");
    return unsupported_partition("partition_by_counts (" + std::to_string(counts.size()) +
                                 " sub-devices)");
  }
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(info::partition_affinity_domain) const {
    static_assert(Prop == info::partition_property::partition_by_affinity_domain,
                  "create_sub_devices(partition_affinity_domain) is the "
                  "partition_by_affinity_domain form");
    return unsupported_partition("partition_by_affinity_domain");
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
  [[noreturn]] static std::vector<device> unsupported_partition(const std::string& how) {
    detail::throw_error(errc::feature_not_supported,
                        "device::create_sub_devices: " + how +
                            " is not supported: syclone devices cannot be partitioned "
                            "(info::device::partition_properties is empty)");
  }
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
