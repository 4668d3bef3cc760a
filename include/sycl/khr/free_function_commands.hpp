// sycl_khr_free_function_commands: commands submitted by free functions in namespace sycl::khr,
// taking the queue (a command group of its own) or the handler of an enclosing command group.
// Only submit_tracked returns an event. Each function is equivalent to the handler member it
// names (SYCL 2020 4.9.4), and each queue form to q.submit of the handler form.
//
// The sycl::kernel forms of launch, launch_grouped and launch_task (h.set_args(args...) then the
// kernel object) throw errc::feature_not_supported: syclone's kernels are kernel functions, whose
// arguments are their captures, and it has no kernels taking arguments from the host.
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/handler.hpp>
#include <sycl/is_device_copyable.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/queue.hpp>
#include <sycl/range.hpp>
#include <sycl/reduction.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// sycl_khr_free_function_commands "Feature test macro".
#define SYCL_KHR_FREE_FUNCTION_COMMANDS 1

SYCLONE_BEGIN_NAMESPACE
// The extension's helpers live outside sycl::khr: a sycl::khr::detail would hide sycl::detail
// from the other khr headers' unqualified detail:: names.
namespace detail::khr_commands {
// "The parameter pack consists of 1 or more objects created by the reduction function."
template <typename... Reductions>
inline constexpr bool are_reductions_v =
    sizeof...(Reductions) > 0 &&
    (std::is_base_of_v<sycl::detail::reduction_tag, std::decay_t<Reductions>> && ...);

// A kernel function, as opposed to a sycl::kernel object (whose forms take arguments).
template <typename KernelType>
inline constexpr bool is_kernel_function_v = !std::is_same_v<std::decay_t<KernelType>, kernel>;

[[noreturn]] inline void throw_kernel_object(const char* function) {
  sycl::detail::throw_error(
      errc::feature_not_supported,
      std::string("sycl_khr_free_function_commands: khr::") + function +
          " with a sycl::kernel object and arguments needs a kernel whose arguments the host "
          "sets (handler::set_args), which syclone does not support; launch a kernel function "
          "(a lambda or function object) instead");
}

template <typename T>
constexpr void check_device_copyable() {
  static_assert(is_device_copyable_v<std::remove_cv_t<T>>,
                "sycl_khr_free_function_commands: the element type must be device copyable "
                "(SYCL 2020 3.13.1); specialize sycl::is_device_copyable for it if it is");
}
template <access_mode Mode>
inline constexpr bool reads_v = Mode == access_mode::read || Mode == access_mode::read_write;
template <access_mode Mode>
inline constexpr bool writes_v = Mode == access_mode::write || Mode == access_mode::read_write;
} // namespace detail::khr_commands

namespace khr {

// "Command-groups".
template <typename CommandGroupFunc>
void submit(queue q, CommandGroupFunc&& cgf) {
  q.submit(std::forward<CommandGroupFunc>(cgf));
}
template <typename CommandGroupFunc>
event submit_tracked(queue q, CommandGroupFunc&& cgf) {
  return q.submit(std::forward<CommandGroupFunc>(cgf));
}

// "Kernel launch". One overload per dimension, as the extension lists them, so that a braced
// range ({N, M}) picks its dimension. launch_grouped's nd_range throws errc::nd_range when the
// work-group size does not divide the range (SYCL 2020 4.9.4.2.2).
#define SYCLONE_KHR_LAUNCH_FORMS(D)                                                                \
  template <typename KernelType,                                                                   \
            typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>   \
  void launch(handler& h, range<D> r, const KernelType& k) {                                       \
    h.parallel_for(r, k);                                                                          \
  }                                                                                                \
  template <typename KernelType,                                                                   \
            typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>   \
  void launch(queue q, range<D> r, const KernelType& k) {                                          \
    q.submit([&](handler& h) { khr::launch(h, r, k); });                                           \
  }                                                                                                \
  template <typename... Args>                                                                      \
  void launch(handler&, range<D>, const kernel&, Args&&...) {                                      \
    detail::khr_commands::throw_kernel_object("launch");                                           \
  }                                                                                                \
  template <typename... Args>                                                                      \
  void launch(queue, range<D>, const kernel&, Args&&...) {                                         \
    detail::khr_commands::throw_kernel_object("launch");                                           \
  }                                                                                                \
  template <typename KernelType, typename... Reductions,                                           \
            typename = std::enable_if_t<detail::khr_commands::are_reductions_v<Reductions...>>>    \
  void launch_reduce(handler& h, range<D> r, const KernelType& k, Reductions&&... reductions) {    \
    h.parallel_for(r, std::forward<Reductions>(reductions)..., k);                                 \
  }                                                                                                \
  template <typename KernelType, typename... Reductions,                                           \
            typename = std::enable_if_t<detail::khr_commands::are_reductions_v<Reductions...>>>    \
  void launch_reduce(queue q, range<D> r, const KernelType& k, Reductions&&... reductions) {       \
    q.submit([&](handler& h) {                                                                     \
      khr::launch_reduce(h, r, k, std::forward<Reductions>(reductions)...);                        \
    });                                                                                            \
  }                                                                                                \
  template <typename KernelType,                                                                   \
            typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>   \
  void launch_grouped(handler& h, range<D> r, range<D> size, const KernelType& k) {                \
    h.parallel_for(nd_range<D>(r, size), k);                                                       \
  }                                                                                                \
  template <typename KernelType,                                                                   \
            typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>   \
  void launch_grouped(queue q, range<D> r, range<D> size, const KernelType& k) {                   \
    q.submit([&](handler& h) { khr::launch_grouped(h, r, size, k); });                             \
  }                                                                                                \
  template <typename... Args>                                                                      \
  void launch_grouped(handler&, range<D>, range<D>, const kernel&, Args&&...) {                    \
    detail::khr_commands::throw_kernel_object("launch_grouped");                                   \
  }                                                                                                \
  template <typename... Args>                                                                      \
  void launch_grouped(queue, range<D>, range<D>, const kernel&, Args&&...) {                       \
    detail::khr_commands::throw_kernel_object("launch_grouped");                                   \
  }                                                                                                \
  template <typename KernelType, typename... Reductions,                                           \
            typename = std::enable_if_t<detail::khr_commands::are_reductions_v<Reductions...>>>    \
  void launch_grouped_reduce(handler& h, range<D> r, range<D> size, const KernelType& k,           \
                             Reductions&&... reductions) {                                         \
    h.parallel_for(nd_range<D>(r, size), std::forward<Reductions>(reductions)..., k);              \
  }                                                                                                \
  template <typename KernelType, typename... Reductions,                                           \
            typename = std::enable_if_t<detail::khr_commands::are_reductions_v<Reductions...>>>    \
  void launch_grouped_reduce(queue q, range<D> r, range<D> size, const KernelType& k,              \
                             Reductions&&... reductions) {                                         \
    q.submit([&](handler& h) {                                                                     \
      khr::launch_grouped_reduce(h, r, size, k, std::forward<Reductions>(reductions)...);          \
    });                                                                                            \
  }
SYCLONE_KHR_LAUNCH_FORMS(1)
SYCLONE_KHR_LAUNCH_FORMS(2)
SYCLONE_KHR_LAUNCH_FORMS(3)
#undef SYCLONE_KHR_LAUNCH_FORMS

template <typename KernelType,
          typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>
void launch_task(handler& h, const KernelType& k) {
  h.single_task(k);
}
template <typename KernelType,
          typename = std::enable_if_t<detail::khr_commands::is_kernel_function_v<KernelType>>>
void launch_task(queue q, const KernelType& k) {
  q.submit([&](handler& h) { khr::launch_task(h, k); });
}
template <typename... Args>
void launch_task(handler&, const kernel&, Args&&...) {
  detail::khr_commands::throw_kernel_object("launch_task");
}
template <typename... Args>
void launch_task(queue, const kernel&, Args&&...) {
  detail::khr_commands::throw_kernel_object("launch_task");
}

// "Memory operations": USM pointers.
inline void memcpy(handler& h, void* dest, const void* src, std::size_t numBytes) {
  h.memcpy(dest, src, numBytes);
}
inline void memcpy(queue q, void* dest, const void* src, std::size_t numBytes) {
  q.submit([&](handler& h) { khr::memcpy(h, dest, src, numBytes); });
}
template <typename T>
void copy(handler& h, const T* src, T* dest, std::size_t count) {
  detail::khr_commands::check_device_copyable<T>();
  h.copy(src, dest, count);
}
template <typename T>
void copy(queue q, const T* src, T* dest, std::size_t count) {
  q.submit([&](handler& h) { khr::copy(h, src, dest, count); });
}

// "Memory operations": device accessors. The handler forms take accessors of the handler's command
// group (a placeholder registered with h.require first, as for handler::copy); the queue forms'
// command group requires them itself, so a placeholder accessor can be passed directly.
template <typename SrcT, typename DestT, int DestDims, access_mode DestMode>
void copy(handler& h, const SrcT* src, accessor<DestT, DestDims, DestMode, target::device> dest) {
  detail::khr_commands::check_device_copyable<SrcT>();
  detail::khr_commands::check_device_copyable<DestT>();
  static_assert(detail::khr_commands::writes_v<DestMode>,
                "khr::copy: the destination accessor must be write or read_write");
  h.copy(src, dest);
}
template <typename SrcT, typename DestT, int DestDims, access_mode DestMode>
void copy(handler& h, std::shared_ptr<SrcT> src,
          accessor<DestT, DestDims, DestMode, target::device> dest) {
  detail::khr_commands::check_device_copyable<SrcT>();
  detail::khr_commands::check_device_copyable<DestT>();
  static_assert(detail::khr_commands::writes_v<DestMode>,
                "khr::copy: the destination accessor must be write or read_write");
  h.copy(src, dest);
}
template <typename SrcT, typename DestT, int DestDims, access_mode DestMode>
void copy(queue q, const SrcT* src, accessor<DestT, DestDims, DestMode, target::device> dest) {
  q.submit([&](handler& h) {
    h.require(dest);
    khr::copy(h, src, dest);
  });
}
template <typename SrcT, typename DestT, int DestDims, access_mode DestMode>
void copy(queue q, std::shared_ptr<SrcT> src,
          accessor<DestT, DestDims, DestMode, target::device> dest) {
  q.submit([&](handler& h) {
    h.require(dest);
    khr::copy(h, src, dest);
  });
}
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT>
void copy(handler& h, accessor<SrcT, SrcDims, SrcMode, target::device> src, DestT* dest) {
  detail::khr_commands::check_device_copyable<SrcT>();
  detail::khr_commands::check_device_copyable<DestT>();
  static_assert(detail::khr_commands::reads_v<SrcMode>,
                "khr::copy: the source accessor must be read or read_write");
  h.copy(src, dest);
}
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT>
void copy(handler& h, accessor<SrcT, SrcDims, SrcMode, target::device> src,
          std::shared_ptr<DestT> dest) {
  detail::khr_commands::check_device_copyable<SrcT>();
  detail::khr_commands::check_device_copyable<DestT>();
  static_assert(detail::khr_commands::reads_v<SrcMode>,
                "khr::copy: the source accessor must be read or read_write");
  h.copy(src, dest);
}
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT>
void copy(queue q, accessor<SrcT, SrcDims, SrcMode, target::device> src, DestT* dest) {
  q.submit([&](handler& h) {
    h.require(src);
    khr::copy(h, src, dest);
  });
}
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT>
void copy(queue q, accessor<SrcT, SrcDims, SrcMode, target::device> src,
          std::shared_ptr<DestT> dest) {
  q.submit([&](handler& h) {
    h.require(src);
    khr::copy(h, src, dest);
  });
}
// Throws errc::invalid when dest has fewer elements than src (handler::copy checks).
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT, int DestDims,
          access_mode DestMode>
void copy(handler& h, accessor<SrcT, SrcDims, SrcMode, target::device> src,
          accessor<DestT, DestDims, DestMode, target::device> dest) {
  detail::khr_commands::check_device_copyable<SrcT>();
  detail::khr_commands::check_device_copyable<DestT>();
  static_assert(detail::khr_commands::reads_v<SrcMode>,
                "khr::copy: the source accessor must be read or read_write");
  static_assert(detail::khr_commands::writes_v<DestMode>,
                "khr::copy: the destination accessor must be write or read_write");
  h.copy(src, dest);
}
template <typename SrcT, int SrcDims, access_mode SrcMode, typename DestT, int DestDims,
          access_mode DestMode>
void copy(queue q, accessor<SrcT, SrcDims, SrcMode, target::device> src,
          accessor<DestT, DestDims, DestMode, target::device> dest) {
  q.submit([&](handler& h) {
    h.require(src);
    h.require(dest);
    khr::copy(h, src, dest);
  });
}

inline void memset(handler& h, void* ptr, int value, std::size_t numBytes) {
  h.memset(ptr, value, numBytes);
}
inline void memset(queue q, void* ptr, int value, std::size_t numBytes) {
  q.submit([&](handler& h) { khr::memset(h, ptr, value, numBytes); });
}
template <typename T>
void fill(handler& h, T* ptr, const T& pattern, std::size_t count) {
  detail::khr_commands::check_device_copyable<T>();
  h.fill(ptr, pattern, count);
}
template <typename T, int Dims, access_mode Mode>
void fill(handler& h, accessor<T, Dims, Mode, target::device> dest, const T& src) {
  h.fill(dest, src);
}
template <typename T>
void fill(queue q, T* ptr, const T& pattern, std::size_t count) {
  q.submit([&](handler& h) { khr::fill(h, ptr, pattern, count); });
}
template <typename T, int Dims, access_mode Mode>
void fill(queue q, accessor<T, Dims, Mode, target::device> dest, const T& src) {
  q.submit([&](handler& h) {
    h.require(dest);
    khr::fill(h, dest, src);
  });
}
template <typename T, int Dims, access_mode Mode>
void update_host(handler& h, accessor<T, Dims, Mode, target::device> acc) {
  h.update_host(acc);
}
template <typename T, int Dims, access_mode Mode>
void update_host(queue q, accessor<T, Dims, Mode, target::device> acc) {
  q.submit([&](handler& h) {
    h.require(acc);
    khr::update_host(h, acc);
  });
}
inline void prefetch(handler& h, void* ptr, std::size_t numBytes) {
  h.prefetch(ptr, numBytes);
}
inline void prefetch(queue q, void* ptr, std::size_t numBytes) {
  q.submit([&](handler& h) { khr::prefetch(h, ptr, numBytes); });
}
inline void mem_advise(handler& h, void* ptr, std::size_t numBytes, int advice) {
  h.mem_advise(ptr, numBytes, advice);
}
inline void mem_advise(queue q, void* ptr, std::size_t numBytes, int advice) {
  q.submit([&](handler& h) { khr::mem_advise(h, ptr, numBytes, advice); });
}

// "Command and event barriers" (the commands of sycl_ext_oneapi_enqueue_barrier).
inline void command_barrier(handler& h) {
  h.ext_oneapi_barrier();
}
inline void command_barrier(queue q) {
  q.ext_oneapi_submit_barrier();
}
inline void event_barrier(handler& h, const std::vector<event>& events) {
  h.ext_oneapi_barrier(events);
}
inline void event_barrier(queue q, const std::vector<event>& events) {
  q.ext_oneapi_submit_barrier(events);
}

} // namespace khr
SYCLONE_END_NAMESPACE
