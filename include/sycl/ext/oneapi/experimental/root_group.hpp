// sycl_ext_oneapi_root_group: the group of every work-item of an nd_range kernel, and
// group_barrier over it. A kernel that synchronizes its root group is launched with the
// use_root_sync property (kernel_properties.hpp), which makes every work-group run at once:
// on NVIDIA a cooperative launch (the barrier is a grid-wide one, detail/device/nvptx.hpp), on
// the host one thread per work-group (the barrier is the runtime's, src/backends/host). How many
// work-groups may run at once is the launch query info::kernel_queue_specific::
// max_num_work_groups (sycl_ext_oneapi_launch_queries, launch_queries.hpp).
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/ext/oneapi/experimental/launch_queries.hpp>
#include <sycl/ext/oneapi/free_function_queries.hpp>
#include <sycl/ext/oneapi/kernel_properties.hpp>
#include <sycl/id.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/range.hpp>

#include <cstddef>
#include <type_traits>

#define SYCL_EXT_ONEAPI_ROOT_GROUP 1

SYCLONE_BEGIN_NAMESPACE
namespace detail {
struct root_group_access;
}
namespace ext::oneapi::experimental {

enum class execution_scope {
  work_item,
  sub_group,
  work_group,
  root_group,
};

template <int Dimensions>
class root_group {
public:
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = std::size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::device;

  // There is one root group: its id is 0 and the range of root groups 1.
  id<Dimensions> get_group_id() const { return id<Dimensions>(); }
  id<Dimensions> get_local_id() const { return m_item.get_global_id(); }
  range<Dimensions> get_group_range() const { return ones(); }
  range<Dimensions> get_local_range() const { return m_item.get_global_range(); }
  range<Dimensions> get_max_local_range() const { return get_local_range(); }
  std::size_t get_group_linear_id() const { return 0; }
  std::size_t get_local_linear_id() const { return m_item.get_global_linear_id(); }
  std::size_t get_group_linear_range() const { return 1; }
  std::size_t get_local_linear_range() const { return get_local_range().size(); }
  bool leader() const { return get_local_linear_id() == 0; }

  template <execution_scope Scope>
  std::enable_if_t<(Scope == execution_scope::work_item || Scope == execution_scope::work_group),
                   id<Dimensions>>
  get_id() const {
    if constexpr (Scope == execution_scope::work_item)
      return m_item.get_global_id();
    else
      return m_item.get_group().get_group_id();
  }
  template <execution_scope Scope>
  std::enable_if_t<Scope == execution_scope::sub_group, id<1>> get_id() const {
    // Sub-groups numbered work-group by work-group.
    return id<1>(m_item.get_group_linear_id() * sub_groups_per_group() +
                 m_item.get_sub_group().get_group_linear_id());
  }
  template <execution_scope Scope>
  std::enable_if_t<(Scope < execution_scope::root_group), std::size_t> get_linear_id() const {
    if constexpr (Scope == execution_scope::work_item)
      return m_item.get_global_linear_id();
    else if constexpr (Scope == execution_scope::work_group)
      return m_item.get_group_linear_id();
    else
      return get_id<Scope>()[0];
  }
  template <execution_scope Scope>
  std::enable_if_t<(Scope == execution_scope::work_item || Scope == execution_scope::work_group),
                   range<Dimensions>>
  get_range() const {
    if constexpr (Scope == execution_scope::work_item)
      return m_item.get_global_range();
    else
      return m_item.get_group_range();
  }
  template <execution_scope Scope>
  std::enable_if_t<Scope == execution_scope::sub_group, range<1>> get_range() const {
    return range<1>(m_item.get_group_range().size() * sub_groups_per_group());
  }
  template <execution_scope Scope>
  std::enable_if_t<(Scope < execution_scope::root_group), std::size_t> get_linear_range() const {
    return get_range<Scope>().size();
  }

private:
  template <int>
  friend class sycl::nd_item;
  friend struct sycl::detail::root_group_access;

  explicit root_group(const nd_item<Dimensions>& item) : m_item(item) {}
  static range<Dimensions> ones() {
    if constexpr (Dimensions == 1)
      return range<1>(1);
    else if constexpr (Dimensions == 2)
      return range<2>(1, 1);
    else
      return range<3>(1, 1, 1);
  }
  std::size_t sub_groups_per_group() const {
    return m_item.get_sub_group().get_group_linear_range();
  }

  nd_item<Dimensions> m_item;
};

namespace this_work_item {
// The root group of the calling work-item of an nd_range kernel of `Dimensions` dimensions.
template <int Dimensions>
root_group<Dimensions> get_root_group() {
  return sycl::ext::oneapi::this_work_item::get_nd_item<Dimensions>().ext_oneapi_get_root_group();
}
} // namespace this_work_item

namespace this_kernel {
template <int Dimensions>
[[deprecated(
    "use sycl::ext::oneapi::experimental::this_work_item::get_root_group")]] root_group<Dimensions>
get_root_group() {
  return this_work_item::get_root_group<Dimensions>();
}
} // namespace this_kernel

} // namespace ext::oneapi::experimental

namespace detail {
struct root_group_access {
  template <int Dimensions>
  static const nd_item<Dimensions>&
  item(const ext::oneapi::experimental::root_group<Dimensions>& g) {
    return g.m_item;
  }
};
} // namespace detail

template <int Dimensions>
ext::oneapi::experimental::root_group<Dimensions>
nd_item<Dimensions>::ext_oneapi_get_root_group() const {
  return ext::oneapi::experimental::root_group<Dimensions>(*this);
}

// Every work-item of the kernel reaches the barrier before any leaves it, and their writes
// before it are visible to all after it (device scope). Only in kernels launched with
// use_root_sync: elsewhere the host throws errc::invalid from the kernel, and an NVIDIA GPU
// stops the kernel (a trap: the launch fails, as the extension leaves it undefined).
template <int Dimensions>
void group_barrier(ext::oneapi::experimental::root_group<Dimensions> g,
                   memory_scope = ext::oneapi::experimental::root_group<Dimensions>::fence_scope) {
  detail::dev::work_group_barrier();
  if (detail::root_group_access::item(g).get_local_linear_id() == 0)
    detail::dev::root_group_barrier();
  detail::dev::work_group_barrier();
}

SYCLONE_END_NAMESPACE
