// SYCL 2020 4.6.4. Device class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/owner_less_base.hpp>
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

class SYCLONE_EXPORT device : public detail::owner_ordered<device> {
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

  // SYCL 2020 4.6.4.2: sub-devices, each a device of its own made of some of this device's
  // compute units. The host CPU device supports partition_equally and partition_by_counts (its
  // compute units are the threads of its pool; a sub-device's kernels run on at most that many
  // threads, in the same memory); other devices and partition_by_affinity_domain throw
  // errc::feature_not_supported (info::device::partition_properties lists what a device
  // supports). Counts of 0, or more compute units than the device has, throw errc::invalid.
  // Each call makes new sub-devices (they compare unequal to those of another call).
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(std::size_t count) const {
    static_assert(Prop == info::partition_property::partition_equally,
                  "create_sub_devices(size_t) is the partition_equally form");
    return create_sub_devices_equally(count);
  }
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(const std::vector<std::size_t>& counts) const {
    static_assert(Prop == info::partition_property::partition_by_counts,
                  "create_sub_devices(std::vector<size_t>) is the partition_by_counts form");
    return create_sub_devices_by_counts(counts);
  }
  template <info::partition_property Prop>
  std::vector<device> create_sub_devices(info::partition_affinity_domain domain) const {
    static_assert(Prop == info::partition_property::partition_by_affinity_domain,
                  "create_sub_devices(partition_affinity_domain) is the "
                  "partition_by_affinity_domain form");
    return create_sub_devices_by_affinity(domain);
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
  std::vector<device> create_sub_devices_equally(std::size_t count) const;
  std::vector<device> create_sub_devices_by_counts(const std::vector<std::size_t>& counts) const;
  std::vector<device> create_sub_devices_by_affinity(info::partition_affinity_domain domain) const;
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
