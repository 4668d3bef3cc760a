// syclone: the one public entry point (SYCL 2020 4.3: <sycl/sycl.hpp>).
#pragma once

#include <sycl/detail/config.hpp>

#include <sycl/access.hpp>
#include <sycl/accessor.hpp>
#include <sycl/atomic.hpp>
#include <sycl/backend.hpp>
#include <sycl/bit_cast.hpp>
#include <sycl/buffer.hpp>
#include <sycl/context.hpp>
#include <sycl/device.hpp>
#include <sycl/device_event.hpp>
#include <sycl/device_selector.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/handler.hpp>
#include <sycl/hierarchical.hpp>
#include <sycl/id.hpp>
#include <sycl/image.hpp>
#include <sycl/image_legacy.hpp>
#include <sycl/info.hpp>
#include <sycl/interop_handle.hpp>
#include <sycl/is_device_copyable.hpp>
#include <sycl/item.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/kernel_handler.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/opencl_types.hpp>
#include <sycl/platform.hpp>
#include <sycl/property_list.hpp>
#include <sycl/queue.hpp>
#include <sycl/range.hpp>
#include <sycl/reduction.hpp>
#include <sycl/span.hpp>
#include <sycl/stream.hpp>
#include <sycl/sub_group.hpp>
#include <sycl/group_algorithm.hpp>
#include <sycl/usm.hpp>

// SYCL programs print with std::cout after including only <sycl/sycl.hpp> (seed 002's examples
// do), and call std::iota without <numeric>, as DPC++ allows.
#include <iostream>
#include <numeric>

#include <sycl/ext/oneapi/experimental/auto_local_range.hpp>
#include <sycl/ext/oneapi/experimental/builtins.hpp>
#include <sycl/ext/oneapi/experimental/composite_device.hpp>
#include <sycl/ext/oneapi/experimental/current_device.hpp>
#include <sycl/ext/oneapi/experimental/device_global.hpp>
#include <sycl/ext/oneapi/bfloat16.hpp>
#include <sycl/ext/oneapi/bfloat16_math.hpp>
#include <sycl/ext/oneapi/experimental/enqueue_functions.hpp>
#include <sycl/ext/oneapi/experimental/group_load_store.hpp>
#include <sycl/ext/oneapi/experimental/launch_queries.hpp>
#include <sycl/ext/oneapi/experimental/non_uniform_groups.hpp>
#include <sycl/ext/oneapi/experimental/prefetch.hpp>
#include <sycl/ext/oneapi/experimental/root_group.hpp>
#include <sycl/ext/oneapi/experimental/work_group_scratch_memory.hpp>
#include <sycl/ext/oneapi/experimental/work_group_static.hpp>
#include <sycl/ext/intel/device_info.hpp>
#include <sycl/ext/oneapi/num_compute_units.hpp>
#include <sycl/khr/dynamic_addrspace_cast.hpp>
#include <sycl/khr/free_function_commands.hpp>
#include <sycl/khr/group_interface.hpp>
#include <sycl/khr/max_work_group_queries.hpp>
#include <sycl/khr/static_addrspace_cast.hpp>
#include <sycl/khr/work_item_queries.hpp>
#include <sycl/ext/oneapi/free_function_queries.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/ext/oneapi/sub_group_mask.hpp>
#include <sycl/ext/oneapi/weak_object.hpp>

#if __has_include(<sycl/vec.hpp>)
#include <sycl/vec.hpp>
#endif
#if __has_include(<sycl/marray.hpp>)
#include <sycl/marray.hpp>
#endif
#if __has_include(<sycl/math.hpp>)
#include <sycl/math.hpp>
#endif
#if __has_include(<sycl/atomic_ref.hpp>)
#include <sycl/atomic_ref.hpp>
#endif
#if __has_include(<sycl/atomic_fence.hpp>)
#include <sycl/atomic_fence.hpp>
#endif
#if __has_include(<sycl/functional.hpp>)
#include <sycl/functional.hpp>
#endif
#if __has_include(<sycl/known_identity.hpp>)
#include <sycl/known_identity.hpp>
#endif
#if __has_include(<sycl/half.hpp>)
#include <sycl/half.hpp>
#endif
