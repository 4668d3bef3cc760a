// SYCL 2020 4.6.6. Event class.
#pragma once

#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/info.hpp>

#include <vector>

SYCLONE_BEGIN_NAMESPACE

class SYCLONE_EXPORT event : public detail::owner_ordered<event> {
public:
  // A default-constructed event is already complete.
  event();

  backend get_backend() const noexcept;
  std::vector<event> get_wait_list();
  void wait();
  static void wait(const std::vector<event>& event_list);
  void wait_and_throw();
  static void wait_and_throw(const std::vector<event>& event_list);
  template <typename Param>
  typename Param::return_type get_info() const;
  template <typename Param>
  typename Param::return_type get_profiling_info() const;

  friend bool operator==(const event& a, const event& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const event& a, const event& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  friend struct std::hash<event>;
  explicit event(std::shared_ptr<detail::event_impl> impl) : m_impl(std::move(impl)) {}
  std::shared_ptr<detail::event_impl> m_impl;
};

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::event> {
  std::size_t operator()(const sycl::event& e) const {
    return std::hash<const void*>()(e.m_impl.get());
  }
};
