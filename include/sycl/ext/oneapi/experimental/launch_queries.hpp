// sycl_ext_oneapi_launch_queries: the launch configurations a kernel may have on a queue,
// through kernel::ext_oneapi_get_info<Param>(queue, ...). The descriptors are in
// info::kernel_queue_specific (the name the root-group extension and the CTS use) and, with the
// same types, in info::kernel (the name of the extension's later revision).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/id.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/queue.hpp>
#include <sycl/range.hpp>

#include <cstddef>
#include <cstdint>

#define SYCL_EXT_ONEAPI_LAUNCH_QUERIES 1

SYCLONE_BEGIN_NAMESPACE
namespace detail {
enum class launch_query : int {
  max_work_group_size,
  max_num_work_groups,
  max_sub_group_size,
  num_sub_groups,
  max_work_item_sizes,
};
// The answer of `which` for kernel `k` submitted to `q` with a work-group of `local` (SYCL
// dimension order, `dimensions` entries; null where the query takes none) and `local_bytes` of
// dynamic local memory. max_work_item_sizes writes its `dimensions` answers to `out`.
SYCLONE_EXPORT std::size_t launch_query_answer(const kernel& k, const queue& q, launch_query which,
                                               int dimensions, const std::size_t* local,
                                               std::size_t local_bytes, std::size_t* out);
} // namespace detail

namespace ext::oneapi::experimental::info {
namespace kernel_queue_specific {

// The most work-items a work-group of the kernel may have on the queue's device.
struct max_work_group_size {
  using return_type = std::size_t;
  static std::size_t query(const ::sycl::kernel& k, const ::sycl::queue& q) {
    return ::sycl::detail::launch_query_answer(
        k, q, ::sycl::detail::launch_query::max_work_group_size, 0, nullptr, 0, nullptr);
  }
};

// The most work-items per dimension of a work-group.
template <std::uint32_t Dimensions>
struct max_work_item_sizes {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "max_work_item_sizes<D>: D is 1, 2 or 3");
  using return_type = id<Dimensions>;
  static id<Dimensions> query(const ::sycl::kernel& k, const ::sycl::queue& q) {
    std::size_t out[3] = {};
    ::sycl::detail::launch_query_answer(k, q, ::sycl::detail::launch_query::max_work_item_sizes,
                                        Dimensions, nullptr, 0, out);
    id<Dimensions> r;
    for (std::uint32_t d = 0; d < Dimensions; ++d) r[d] = out[d];
    return r;
  }
};

// The most work-groups of `r` work-items (and `bytes` of dynamic local memory each) that run at
// once: a launch with use_root_sync may have at most this many (errc::nd_range beyond). A work-
// group size of 0 throws errc::invalid; 0 means the kernel cannot run with this work-group.
struct max_num_work_groups {
  using return_type = std::size_t;
  template <int Dimensions>
  static std::size_t query(const ::sycl::kernel& k, const ::sycl::queue& q, range<Dimensions> r,
                           std::size_t bytes = 0) {
    std::size_t local[3];
    for (int d = 0; d < Dimensions; ++d) local[d] = r[d];
    return ::sycl::detail::launch_query_answer(
        k, q, ::sycl::detail::launch_query::max_num_work_groups, Dimensions, local, bytes, nullptr);
  }
};

// The earlier revision of the root-group extension's query: max_num_work_groups for the largest
// work-group the kernel may have, or for `r`.
struct max_num_work_group_sync {
  using return_type = std::size_t;
  static std::size_t query(const ::sycl::kernel& k, const ::sycl::queue& q) {
    std::size_t local[1] = {max_work_group_size::query(k, q)};
    return ::sycl::detail::launch_query_answer(
        k, q, ::sycl::detail::launch_query::max_num_work_groups, 1, local, 0, nullptr);
  }
  template <int Dimensions>
  static std::size_t query(const ::sycl::kernel& k, const ::sycl::queue& q, range<Dimensions> r,
                           std::size_t bytes = 0) {
    return max_num_work_groups::query(k, q, r, bytes);
  }
};

// The sub-group size the kernel runs with in work-groups of `r` (sub_group::
// get_max_local_range() in the kernel), and how many sub-groups such a work-group has.
struct max_sub_group_size {
  using return_type = std::uint32_t;
  template <int Dimensions>
  static std::uint32_t query(const ::sycl::kernel& k, const ::sycl::queue& q, range<Dimensions> r) {
    std::size_t local[3];
    for (int d = 0; d < Dimensions; ++d) local[d] = r[d];
    return static_cast<std::uint32_t>(::sycl::detail::launch_query_answer(
        k, q, ::sycl::detail::launch_query::max_sub_group_size, Dimensions, local, 0, nullptr));
  }
};
struct num_sub_groups {
  using return_type = std::uint32_t;
  template <int Dimensions>
  static std::uint32_t query(const ::sycl::kernel& k, const ::sycl::queue& q, range<Dimensions> r) {
    std::size_t local[3];
    for (int d = 0; d < Dimensions; ++d) local[d] = r[d];
    return static_cast<std::uint32_t>(::sycl::detail::launch_query_answer(
        k, q, ::sycl::detail::launch_query::num_sub_groups, Dimensions, local, 0, nullptr));
  }
};

} // namespace kernel_queue_specific

namespace kernel {
using kernel_queue_specific::max_num_work_groups;
using kernel_queue_specific::max_sub_group_size;
using kernel_queue_specific::max_work_group_size;
using kernel_queue_specific::max_work_item_sizes;
using kernel_queue_specific::num_sub_groups;
} // namespace kernel

} // namespace ext::oneapi::experimental::info
SYCLONE_END_NAMESPACE
