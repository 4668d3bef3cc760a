// SYCL 2020 4.7.6.2 / 4.7.7. Access modes, targets, address spaces and fence spaces.
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE

namespace access {
enum class mode {
  read = 1024,
  write,
  read_write,
  discard_write,
  discard_read_write,
  atomic,
};
enum class target {
  device = 2014,
  global_buffer = device,
  constant_buffer,
  local,
  image,
  host_buffer,
  host_image,
  image_array,
  host_task,
};
enum class placeholder { false_t, true_t };
enum class fence_space { local_space, global_space, global_and_local };
enum class address_space {
  global_space,
  local_space,
  constant_space,
  private_space,
  generic_space,
};
enum class decorated { no, yes, legacy };
} // namespace access

using access_mode = access::mode;
using target = access::target;

enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
enum class memory_scope { work_item, sub_group, work_group, device, system };

inline constexpr auto memory_order_relaxed = memory_order::relaxed;
inline constexpr auto memory_order_acquire = memory_order::acquire;
inline constexpr auto memory_order_release = memory_order::release;
inline constexpr auto memory_order_acq_rel = memory_order::acq_rel;
inline constexpr auto memory_order_seq_cst = memory_order::seq_cst;
inline constexpr auto memory_scope_work_item = memory_scope::work_item;
inline constexpr auto memory_scope_sub_group = memory_scope::sub_group;
inline constexpr auto memory_scope_work_group = memory_scope::work_group;
inline constexpr auto memory_scope_device = memory_scope::device;
inline constexpr auto memory_scope_system = memory_scope::system;

SYCLONE_END_NAMESPACE
