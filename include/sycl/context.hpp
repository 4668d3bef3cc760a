// SYCL 2020 4.6.3. Context class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/device.hpp>
#include <sycl/exception.hpp>
#include <sycl/info.hpp>
#include <sycl/platform.hpp>
#include <sycl/property_list.hpp>

#include <vector>

SYCLONE_BEGIN_NAMESPACE

class SYCLONE_EXPORT context : public detail::owner_ordered<context> {
public:
  explicit context(const property_list& props = {});
  explicit context(async_handler handler, const property_list& props = {});
  explicit context(const device& dev, const property_list& props = {});
  explicit context(const device& dev, async_handler handler, const property_list& props = {});
  explicit context(const platform& plt, const property_list& props = {});
  explicit context(const platform& plt, async_handler handler, const property_list& props = {});
  explicit context(const std::vector<device>& devices, const property_list& props = {});
  explicit context(const std::vector<device>& devices, async_handler handler,
                   const property_list& props = {});

  backend get_backend() const noexcept;
  platform get_platform() const;
  std::vector<device> get_devices() const;
  template <typename Param>
  typename Param::return_type get_info() const;
  template <typename Property>
  bool has_property() const noexcept {
    return properties().template has_property<Property>();
  }
  template <typename Property>
  Property get_property() const {
    return properties().template get_property<Property>();
  }

  friend bool operator==(const context& a, const context& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const context& a, const context& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  friend struct std::hash<context>;
  explicit context(std::shared_ptr<detail::context_impl> impl) : m_impl(std::move(impl)) {}
  const property_list& properties() const;
  std::shared_ptr<detail::context_impl> m_impl;
};

namespace property::buffer {
// SYCL 2020 4.7.2.2: the buffer may only be used in this context.
class context_bound {
public:
  context_bound(sycl::context ctx) : m_context(std::move(ctx)) {}
  sycl::context get_context() const { return m_context; }

private:
  sycl::context m_context;
};
} // namespace property::buffer
template <>
struct is_property<property::buffer::context_bound> : std::true_type {};

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::context> {
  std::size_t operator()(const sycl::context& c) const {
    return std::hash<const void*>()(c.m_impl.get());
  }
};
