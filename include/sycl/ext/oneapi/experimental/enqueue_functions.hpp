// sycl_ext_oneapi_enqueue_functions: commands submitted by free functions whose first argument is
// the queue (a command group of its own) or the handler of an enclosing command group. Only
// submit_with_event returns an event. Each function is the core queue/handler member it names
// (SYCL 2020 4.9.4), with two differences the extension makes: reductions come after the kernel,
// and a launch_config bundles the range with the launch's compile-time properties.
//
// Not provided: execute_graph (its section requires sycl_ext_oneapi_graph, which syclone does not
// implement). The sycl::kernel forms (kernel objects with arguments) throw
// errc::feature_not_supported: syclone's kernels are kernel functions, whose arguments are their
// captures, and it has no kernels taking arguments from the host (free-function kernels).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/handler.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/queue.hpp>
#include <sycl/range.hpp>
#include <sycl/reduction.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// sycl_ext_oneapi_enqueue_functions "Feature test macro".
#define SYCL_EXT_ONEAPI_ENQUEUE_FUNCTIONS 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

namespace detail {
template <typename T>
inline constexpr bool is_launch_range_v = false;
template <int D>
inline constexpr bool is_launch_range_v<range<D>> = true;
template <int D>
inline constexpr bool is_launch_range_v<nd_range<D>> = true;

// "The parameter pack consists of 0 or more objects created by the sycl::reduction function."
template <typename... Reductions>
inline constexpr bool are_reductions_v =
    (std::is_base_of_v<sycl::detail::reduction_tag, std::decay_t<Reductions>> && ...);

// A kernel function, as opposed to a sycl::kernel object (whose forms take arguments instead of
// reductions).
template <typename KernelType>
inline constexpr bool is_kernel_function_v = !std::is_same_v<std::decay_t<KernelType>, kernel>;

// The tag for the properties of submit/submit_with_event (is_property_key_of<Key, submit_tag>).
// The extension defines none, and neither does any other extension syclone implements.
struct submit_tag {};
template <typename Properties>
constexpr void check_submit_properties() {
  static_assert(is_property_list_v<Properties>,
                "submit(q, properties, cgf): the second argument must be a compile-time property "
                "list (sycl::ext::oneapi::experimental::properties)");
  static_assert(
      all_keys_of<Properties, submit_tag>::value,
      "submit(q, properties, cgf): a property in the list does not apply to command-group "
      "submission; syclone defines no submission properties, so pass "
      "empty_properties_t{} or use submit(q, cgf)");
}

[[noreturn]] inline void throw_kernel_object(const char* function) {
  sycl::detail::throw_error(
      errc::feature_not_supported,
      std::string("sycl_ext_oneapi_enqueue_functions: ") + function +
          " with a sycl::kernel object and arguments needs a kernel whose arguments the host "
          "sets (a free-function kernel), which syclone does not support; launch a kernel "
          "function (a lambda or function object) instead");
}

struct launch_config_access;
} // namespace detail

// sycl_ext_oneapi_enqueue_functions "Launch configuration": the range and the launch's
// compile-time properties. syclone passes the properties to the kernel launch as
// handler::parallel_for(range, properties, ...) does (sycl_ext_oneapi_kernel_properties), so a
// sub_group_size given here is honoured rather than rejected.
template <typename Range, typename Properties = empty_properties_t>
class launch_config {
  static_assert(detail::is_launch_range_v<Range>,
                "launch_config: the range must be a sycl::range or a sycl::nd_range");
  static_assert(is_property_list_v<Properties>,
                "launch_config: the properties must be a compile-time property list "
                "(sycl::ext::oneapi::experimental::properties)");

public:
  launch_config(Range r, Properties props = {}) : m_range(r), m_properties(props) {}

private:
  friend struct detail::launch_config_access;
  Range m_range;
  Properties m_properties;
};

namespace detail {
struct launch_config_access {
  template <typename Range, typename Properties>
  static const Range& range_of(const launch_config<Range, Properties>& c) {
    return c.m_range;
  }
  template <typename Range, typename Properties>
  static const Properties& properties_of(const launch_config<Range, Properties>& c) {
    return c.m_properties;
  }
};

// handler::parallel_for with the reductions moved before the kernel, and the properties (if any)
// before both.
template <typename KernelName, typename Range, typename KernelType, typename... Reductions>
void launch(handler& h, const Range& r, const KernelType& k, Reductions&&... reductions) {
  if constexpr (sizeof...(Reductions) == 0)
    h.template parallel_for<KernelName>(r, k);
  else
    h.template parallel_for<KernelName>(r, std::forward<Reductions>(reductions)..., k);
}
template <typename KernelName, typename Range, typename Properties, typename KernelType,
          typename... Reductions>
void launch(handler& h, const launch_config<Range, Properties>& c, const KernelType& k,
            Reductions&&... reductions) {
  const Range& r = launch_config_access::range_of(c);
  if constexpr (std::is_same_v<Properties, empty_properties_t>)
    launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...);
  else if constexpr (sizeof...(Reductions) == 0)
    h.template parallel_for<KernelName>(r, launch_config_access::properties_of(c), k);
  else
    h.template parallel_for<KernelName>(r, launch_config_access::properties_of(c),
                                        std::forward<Reductions>(reductions)..., k);
}
} // namespace detail

// "Command-group submission".
template <typename CommandGroupFunc>
void submit(queue q, CommandGroupFunc&& cgf) {
  q.submit(std::forward<CommandGroupFunc>(cgf));
}
template <typename CommandGroupFunc, typename Properties,
          typename = std::enable_if_t<is_property_list_v<Properties>>>
void submit(queue q, Properties, CommandGroupFunc&& cgf) {
  detail::check_submit_properties<Properties>();
  q.submit(std::forward<CommandGroupFunc>(cgf));
}
template <typename CommandGroupFunc>
event submit_with_event(queue q, CommandGroupFunc&& cgf) {
  return q.submit(std::forward<CommandGroupFunc>(cgf));
}
template <typename CommandGroupFunc, typename Properties,
          typename = std::enable_if_t<is_property_list_v<Properties>>>
event submit_with_event(queue q, Properties, CommandGroupFunc&& cgf) {
  detail::check_submit_properties<Properties>();
  return q.submit(std::forward<CommandGroupFunc>(cgf));
}

// "Single tasks".
template <typename KernelName = sycl::detail::auto_name, typename KernelType,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType>>>
void single_task(handler& h, const KernelType& k) {
  h.template single_task<KernelName>(k);
}
template <typename KernelName = sycl::detail::auto_name, typename KernelType,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType>>>
void single_task(queue q, const KernelType& k) {
  q.submit([&](handler& h) { experimental::single_task<KernelName>(h, k); });
}
template <typename... Args>
void single_task(handler&, const kernel&, Args&&...) {
  detail::throw_kernel_object("single_task");
}
template <typename... Args>
void single_task(queue, const kernel&, Args&&...) {
  detail::throw_kernel_object("single_task");
}

// "Basic kernels": a range, or a launch_config of a range, then the kernel, then the reductions.
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename KernelType,
          typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void parallel_for(handler& h, range<Dimensions> r, const KernelType& k,
                  Reductions&&... reductions) {
  detail::launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...);
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename KernelType,
          typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void parallel_for(queue q, range<Dimensions> r, const KernelType& k, Reductions&&... reductions) {
  q.submit([&](handler& h) {
    detail::launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...);
  });
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename KernelType, typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void parallel_for(handler& h, launch_config<range<Dimensions>, Properties> c, const KernelType& k,
                  Reductions&&... reductions) {
  detail::launch<KernelName>(h, c, k, std::forward<Reductions>(reductions)...);
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename KernelType, typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void parallel_for(queue q, launch_config<range<Dimensions>, Properties> c, const KernelType& k,
                  Reductions&&... reductions) {
  q.submit([&](handler& h) {
    detail::launch<KernelName>(h, c, k, std::forward<Reductions>(reductions)...);
  });
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename... Args>
void parallel_for(handler&, range<Dimensions>, const kernel&, Args&&...) {
  detail::throw_kernel_object("parallel_for");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename... Args>
void parallel_for(queue, range<Dimensions>, const kernel&, Args&&...) {
  detail::throw_kernel_object("parallel_for");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename... Args>
void parallel_for(handler&, launch_config<range<Dimensions>, Properties>, const kernel&,
                  Args&&...) {
  detail::throw_kernel_object("parallel_for");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename... Args>
void parallel_for(queue, launch_config<range<Dimensions>, Properties>, const kernel&, Args&&...) {
  detail::throw_kernel_object("parallel_for");
}

// "ND-range kernels": an nd_range, or a launch_config of one. An nd_range whose local range does
// not divide its global range throws errc::nd_range (SYCL 2020 4.9.4.2.2), as parallel_for does.
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename KernelType,
          typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void nd_launch(handler& h, nd_range<Dimensions> r, const KernelType& k,
               Reductions&&... reductions) {
  detail::launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...);
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename KernelType,
          typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void nd_launch(queue q, nd_range<Dimensions> r, const KernelType& k, Reductions&&... reductions) {
  q.submit([&](handler& h) {
    detail::launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...);
  });
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename KernelType, typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void nd_launch(handler& h, launch_config<nd_range<Dimensions>, Properties> c, const KernelType& k,
               Reductions&&... reductions) {
  detail::launch<KernelName>(h, c, k, std::forward<Reductions>(reductions)...);
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename KernelType, typename... Reductions,
          typename = std::enable_if_t<detail::is_kernel_function_v<KernelType> &&
                                      detail::are_reductions_v<Reductions...>>>
void nd_launch(queue q, launch_config<nd_range<Dimensions>, Properties> c, const KernelType& k,
               Reductions&&... reductions) {
  q.submit([&](handler& h) {
    detail::launch<KernelName>(h, c, k, std::forward<Reductions>(reductions)...);
  });
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename... Args>
void nd_launch(handler&, nd_range<Dimensions>, const kernel&, Args&&...) {
  detail::throw_kernel_object("nd_launch");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename... Args>
void nd_launch(queue, nd_range<Dimensions>, const kernel&, Args&&...) {
  detail::throw_kernel_object("nd_launch");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename... Args>
void nd_launch(handler&, launch_config<nd_range<Dimensions>, Properties>, const kernel&,
               Args&&...) {
  detail::throw_kernel_object("nd_launch");
}
template <typename KernelName = sycl::detail::auto_name, int Dimensions, typename Properties,
          typename... Args>
void nd_launch(queue, launch_config<nd_range<Dimensions>, Properties>, const kernel&, Args&&...) {
  detail::throw_kernel_object("nd_launch");
}

// "Memory operations": the handler's USM operations (SYCL 2020 4.9.4.3).
inline void memcpy(handler& h, void* dest, const void* src, std::size_t numBytes) {
  h.memcpy(dest, src, numBytes);
}
inline void memcpy(queue q, void* dest, const void* src, std::size_t numBytes) {
  q.submit([&](handler& h) { h.memcpy(dest, src, numBytes); });
}
template <typename T>
void copy(handler& h, const T* src, T* dest, std::size_t count) {
  h.copy(src, dest, count);
}
template <typename T>
void copy(queue q, const T* src, T* dest, std::size_t count) {
  q.submit([&](handler& h) { h.copy(src, dest, count); });
}
inline void memset(handler& h, void* ptr, int value, std::size_t numBytes) {
  h.memset(ptr, value, numBytes);
}
inline void memset(queue q, void* ptr, int value, std::size_t numBytes) {
  q.submit([&](handler& h) { h.memset(ptr, value, numBytes); });
}
template <typename T>
void fill(handler& h, T* ptr, const T& pattern, std::size_t count) {
  h.fill(ptr, pattern, count);
}
template <typename T>
void fill(queue q, T* ptr, const T& pattern, std::size_t count) {
  q.submit([&](handler& h) { h.fill(ptr, pattern, count); });
}

// The direction of prefetch. syclone's prefetch commands are ordered hints that move nothing:
// the host device's USM already is host memory, and a GPU's shared allocations (CUDA managed
// memory) migrate on access, to the device or to the host alike (src/runtime/queue.cpp).
enum class prefetch_type { device, host };
inline void prefetch(handler& h, void* ptr, std::size_t numBytes,
                     prefetch_type type = prefetch_type::device) {
  (void)type;
  h.prefetch(ptr, numBytes);
}
inline void prefetch(queue q, void* ptr, std::size_t numBytes,
                     prefetch_type type = prefetch_type::device) {
  q.submit([&](handler& h) { experimental::prefetch(h, ptr, numBytes, type); });
}
inline void mem_advise(handler& h, void* ptr, std::size_t numBytes, int advice) {
  h.mem_advise(ptr, numBytes, advice);
}
inline void mem_advise(queue q, void* ptr, std::size_t numBytes, int advice) {
  q.submit([&](handler& h) { h.mem_advise(ptr, numBytes, advice); });
}

// "Command barriers" (sycl_ext_oneapi_enqueue_barrier).
inline void barrier(handler& h) {
  h.ext_oneapi_barrier();
}
inline void barrier(queue q) {
  q.ext_oneapi_submit_barrier();
}
inline void partial_barrier(handler& h, const std::vector<event>& events) {
  h.ext_oneapi_barrier(events);
}
inline void partial_barrier(queue q, const std::vector<event>& events) {
  q.ext_oneapi_submit_barrier(events);
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
