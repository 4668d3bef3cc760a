// SYCL 2020 4.6.2. Platform class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/info.hpp>

#include <functional>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

class SYCLONE_EXPORT platform : public detail::owner_ordered<platform> {
public:
  // The platform of the device default_selector_v picks.
  platform();
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit platform(const DeviceSelector& selector);

  backend get_backend() const noexcept;
  std::vector<device> get_devices(info::device_type type = info::device_type::all) const;
  template <typename Param>
  typename Param::return_type get_info() const;
  bool has(aspect asp) const;
  bool has_extension(const std::string& extension) const;
  static std::vector<platform> get_platforms();
  // sycl_khr_default_context (and sycl_ext_oneapi_default_context, its oneAPI spelling): the
  // context of the platform's root devices that queues constructed without a context use.
  context khr_get_default_context() const;
  context ext_oneapi_get_default_context() const;
  // sycl_ext_oneapi_composite_device: the platform's composite devices (none: syclone's devices
  // are each one GPU or the host CPU).
  std::vector<device> ext_oneapi_get_composite_devices() const;

  friend bool operator==(const platform& a, const platform& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const platform& a, const platform& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  friend struct std::hash<platform>;
  explicit platform(std::shared_ptr<detail::platform_impl> impl) : m_impl(std::move(impl)) {}
  std::shared_ptr<detail::platform_impl> m_impl;
};

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::platform> {
  std::size_t operator()(const sycl::platform& p) const {
    return std::hash<const void*>()(p.m_impl.get());
  }
};
