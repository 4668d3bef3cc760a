// SYCL 2020 4.6.5. Queue class.
#pragma once

#include <sycl/context.hpp>
#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/device.hpp>
#include <sycl/device_selector.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/handler.hpp>
#include <sycl/property_list.hpp>

#include <functional>
#include <type_traits>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
// What the queue's parallel_for shortcuts accept as a range: range, nd_range or an integer.
// Free functions: the shortcuts' default template arguments cannot see class members declared
// after them.
template <int D>
range<D> queue_range(range<D> r) {
  return r;
}
template <int D>
nd_range<D> queue_range(nd_range<D> r) {
  return r;
}
inline range<1> queue_range(std::size_t n) {
  return range<1>(n);
}
} // namespace detail

class SYCLONE_EXPORT queue : public detail::owner_ordered<queue> {
public:
  explicit queue(const property_list& props = {}) : queue(default_selector_v, props) {}
  explicit queue(const async_handler& handler, const property_list& props = {})
      : queue(default_selector_v, handler, props) {}
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit queue(const DeviceSelector& selector, const property_list& props = {})
      : queue(device(selector), async_handler{}, props) {}
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit queue(const DeviceSelector& selector, const async_handler& handler,
                 const property_list& props = {})
      : queue(device(selector), handler, props) {}
  explicit queue(const device& dev, const property_list& props = {})
      : queue(dev, async_handler{}, props) {}
  explicit queue(const device& dev, const async_handler& handler, const property_list& props = {});
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit queue(const context& ctx, const DeviceSelector& selector,
                 const property_list& props = {})
      : queue(ctx, pick(ctx, selector), async_handler{}, props) {}
  template <typename DeviceSelector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, DeviceSelector, const device&>>>
  explicit queue(const context& ctx, const DeviceSelector& selector, const async_handler& handler,
                 const property_list& props = {})
      : queue(ctx, pick(ctx, selector), handler, props) {}
  explicit queue(const context& ctx, const device& dev, const property_list& props = {})
      : queue(ctx, dev, async_handler{}, props) {}
  explicit queue(const context& ctx, const device& dev, const async_handler& handler,
                 const property_list& props = {});

  backend get_backend() const noexcept;
  context get_context() const;
  device get_device() const;
  bool is_in_order() const;
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

  // SYCL 2020 4.6.5.1. Submission. Exceptions thrown by the command group function propagate
  // synchronously; the queue stays usable.
  template <typename T>
  event submit(T cgf) {
    return submit_impl(std::function<void(handler&)>(std::ref(cgf)), nullptr);
  }
  template <typename T>
  event submit(T cgf, queue& secondary_queue) {
    return submit_impl(std::function<void(handler&)>(std::ref(cgf)), &secondary_queue);
  }

  void wait();
  void wait_and_throw();

  // sycl_khr_queue_empty_query: whether every command submitted to this queue has completed (a
  // snapshot: commands run asynchronously).
  bool khr_empty() const;
  // sycl_ext_oneapi_queue_empty: the same query.
  bool ext_oneapi_empty() const;
  // sycl_khr_queue_flush: commands submitted to this queue make progress without a wait(). (They
  // always do in syclone: each is handed to its device when submitted, or by the runtime as soon
  // as its dependencies complete; none waits for the host to wait.)
  void khr_flush() const;
  void throw_asynchronous();

  // sycl_ext_oneapi_memcpy2d: a command group holding the handler's function of that name, after
  // the events given.
  event ext_oneapi_memcpy2d(void* dest, std::size_t destPitch, const void* src,
                            std::size_t srcPitch, std::size_t width, std::size_t height,
                            const std::vector<event>& depEvents = {}) {
    return submit([&](handler& h) {
      h.depends_on(depEvents);
      h.ext_oneapi_memcpy2d(dest, destPitch, src, srcPitch, width, height);
    });
  }
  event ext_oneapi_memcpy2d(void* dest, std::size_t destPitch, const void* src,
                            std::size_t srcPitch, std::size_t width, std::size_t height,
                            event depEvent) {
    return ext_oneapi_memcpy2d(dest, destPitch, src, srcPitch, width, height,
                               std::vector<event>{depEvent});
  }
  template <typename T>
  event ext_oneapi_copy2d(const T* src, std::size_t srcPitch, T* dest, std::size_t destPitch,
                          std::size_t width, std::size_t height,
                          const std::vector<event>& depEvents = {}) {
    return submit([&](handler& h) {
      h.depends_on(depEvents);
      h.ext_oneapi_copy2d(src, srcPitch, dest, destPitch, width, height);
    });
  }
  template <typename T>
  event ext_oneapi_copy2d(const T* src, std::size_t srcPitch, T* dest, std::size_t destPitch,
                          std::size_t width, std::size_t height, event depEvent) {
    return ext_oneapi_copy2d(src, srcPitch, dest, destPitch, width, height,
                             std::vector<event>{depEvent});
  }
  event ext_oneapi_memset2d(void* dest, std::size_t destPitch, int value, std::size_t width,
                            std::size_t height, const std::vector<event>& depEvents = {}) {
    return submit([&](handler& h) {
      h.depends_on(depEvents);
      h.ext_oneapi_memset2d(dest, destPitch, value, width, height);
    });
  }
  event ext_oneapi_memset2d(void* dest, std::size_t destPitch, int value, std::size_t width,
                            std::size_t height, event depEvent) {
    return ext_oneapi_memset2d(dest, destPitch, value, width, height, std::vector<event>{depEvent});
  }
  template <typename T>
  event ext_oneapi_fill2d(void* dest, std::size_t destPitch, const T& pattern, std::size_t width,
                          std::size_t height, const std::vector<event>& depEvents = {}) {
    return submit([&](handler& h) {
      h.depends_on(depEvents);
      h.ext_oneapi_fill2d(dest, destPitch, pattern, width, height);
    });
  }
  template <typename T>
  event ext_oneapi_fill2d(void* dest, std::size_t destPitch, const T& pattern, std::size_t width,
                          std::size_t height, event depEvent) {
    return ext_oneapi_fill2d(dest, destPitch, pattern, width, height, std::vector<event>{depEvent});
  }

  // sycl_ext_oneapi_enqueue_barrier: a command group holding handler::ext_oneapi_barrier().
  event ext_oneapi_submit_barrier();
  event ext_oneapi_submit_barrier(const std::vector<event>& waitList);

  // SYCL 2020 4.6.5.2. Queue shortcuts.
  template <typename KernelName = detail::auto_name, typename KernelType>
  event single_task(const KernelType& k) {
    return submit([&](handler& h) { h.template single_task<KernelName>(k); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  event single_task(event dep, const KernelType& k) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.template single_task<KernelName>(k);
    });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  event single_task(const std::vector<event>& deps, const KernelType& k) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.template single_task<KernelName>(k);
    });
  }

  template <typename KernelName = detail::auto_name, typename Range, typename KernelType,
            typename = decltype(detail::queue_range(std::declval<Range>()))>
  event parallel_for(Range r, const KernelType& k) {
    return submit(
        [&](handler& h) { h.template parallel_for<KernelName>(detail::queue_range(r), k); });
  }
  // sycl_ext_oneapi_kernel_properties: a compile-time property list (e.g. sub_group_size<16>)
  // before the kernel.
  template <typename KernelName = detail::auto_name, typename Range, typename Properties,
            typename KernelType, typename = decltype(detail::queue_range(std::declval<Range>())),
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>
  event parallel_for(Range r, Properties props, const KernelType& k) {
    return submit(
        [&](handler& h) { h.template parallel_for<KernelName>(detail::queue_range(r), props, k); });
  }
  template <typename KernelName = detail::auto_name, typename Properties, typename KernelType,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>
  event single_task(Properties props, const KernelType& k) {
    return submit([&](handler& h) { h.template single_task<KernelName>(props, k); });
  }
  template <typename KernelName = detail::auto_name, typename Range, typename KernelType,
            typename = decltype(detail::queue_range(std::declval<Range>()))>
  event parallel_for(Range r, event dep, const KernelType& k) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.template parallel_for<KernelName>(detail::queue_range(r), k);
    });
  }
  template <typename KernelName = detail::auto_name, typename Range, typename KernelType,
            typename = decltype(detail::queue_range(std::declval<Range>()))>
  event parallel_for(Range r, const std::vector<event>& deps, const KernelType& k) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.template parallel_for<KernelName>(detail::queue_range(r), k);
    });
  }

  // SYCL 2020 4.6.5.3 / 4.9.2: the shortcuts with reductions before the kernel.
  template <typename KernelName = detail::auto_name, typename Range, typename... Rest,
            typename = decltype(detail::queue_range(std::declval<Range>())),
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  event parallel_for(Range r, Rest&&... rest) {
    return submit([&](handler& h) {
      h.template parallel_for<KernelName>(detail::queue_range(r), std::forward<Rest>(rest)...);
    });
  }
  template <typename KernelName = detail::auto_name, typename Range, typename... Rest,
            typename = decltype(detail::queue_range(std::declval<Range>())),
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  event parallel_for(Range r, event dep, Rest&&... rest) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.template parallel_for<KernelName>(detail::queue_range(r), std::forward<Rest>(rest)...);
    });
  }
  template <typename KernelName = detail::auto_name, typename Range, typename... Rest,
            typename = decltype(detail::queue_range(std::declval<Range>())),
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  event parallel_for(Range r, const std::vector<event>& deps, Rest&&... rest) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.template parallel_for<KernelName>(detail::queue_range(r), std::forward<Rest>(rest)...);
    });
  }

  // parallel_for({N1, N2}, ...): a braced range cannot deduce the Range templates above. Each
  // overload mirrors one of them with range<D> (more specialized, so it also wins for a range<D>).
#define SYCLONE_QUEUE_BRACED_RANGE(D)                                                              \
  template <typename KernelName = detail::auto_name, typename KernelType>                          \
  event parallel_for(range<D> r, const KernelType& k) {                                            \
    return submit([&](handler& h) { h.template parallel_for<KernelName, D>(r, k); });              \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename Properties, typename KernelType,     \
            typename =                                                                             \
                std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>       \
  event parallel_for(range<D> r, Properties props, const KernelType& k) {                          \
    return submit([&](handler& h) { h.template parallel_for<KernelName, D>(r, props, k); });       \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename KernelType>                          \
  event parallel_for(range<D> r, event dep, const KernelType& k) {                                 \
    return submit([&](handler& h) {                                                                \
      h.depends_on(dep);                                                                           \
      h.template parallel_for<KernelName, D>(r, k);                                                \
    });                                                                                            \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename KernelType>                          \
  event parallel_for(range<D> r, const std::vector<event>& deps, const KernelType& k) {            \
    return submit([&](handler& h) {                                                                \
      h.depends_on(deps);                                                                          \
      h.template parallel_for<KernelName, D>(r, k);                                                \
    });                                                                                            \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename... Rest,                             \
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>                     \
  event parallel_for(range<D> r, Rest&&... rest) {                                                 \
    return submit([&](handler& h) {                                                                \
      h.template parallel_for<KernelName, D>(r, std::forward<Rest>(rest)...);                      \
    });                                                                                            \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename... Rest,                             \
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>                     \
  event parallel_for(range<D> r, event dep, Rest&&... rest) {                                      \
    return submit([&](handler& h) {                                                                \
      h.depends_on(dep);                                                                           \
      h.template parallel_for<KernelName, D>(r, std::forward<Rest>(rest)...);                      \
    });                                                                                            \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename... Rest,                             \
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>                     \
  event parallel_for(range<D> r, const std::vector<event>& deps, Rest&&... rest) {                 \
    return submit([&](handler& h) {                                                                \
      h.depends_on(deps);                                                                          \
      h.template parallel_for<KernelName, D>(r, std::forward<Rest>(rest)...);                      \
    });                                                                                            \
  }
  SYCLONE_QUEUE_BRACED_RANGE(1)
  SYCLONE_QUEUE_BRACED_RANGE(2)
  SYCLONE_QUEUE_BRACED_RANGE(3)
#undef SYCLONE_QUEUE_BRACED_RANGE

  event memcpy(void* dest, const void* src, std::size_t num_bytes) {
    return submit([&](handler& h) { h.memcpy(dest, src, num_bytes); });
  }
  event memcpy(void* dest, const void* src, std::size_t num_bytes, event dep) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.memcpy(dest, src, num_bytes);
    });
  }
  event memcpy(void* dest, const void* src, std::size_t num_bytes, const std::vector<event>& deps) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.memcpy(dest, src, num_bytes);
    });
  }
  // sycl_ext_oneapi_device_global (defined in ext/oneapi/experimental/device_global.hpp).
  template <typename T, typename PropertyListT>
  event memcpy(ext::oneapi::experimental::device_global<T, PropertyListT>& dest, const void* src,
               std::size_t numBytes = sizeof(T), std::size_t offset = 0,
               const std::vector<event>& depEvents = {});
  template <typename T, typename PropertyListT>
  event memcpy(ext::oneapi::experimental::device_global<T, PropertyListT>& dest, const void* src,
               std::size_t numBytes, std::size_t offset, event depEvent) {
    return memcpy(dest, src, numBytes, offset, std::vector<event>{depEvent});
  }
  template <typename T, typename PropertyListT>
  event memcpy(void* dest, const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
               std::size_t numBytes = sizeof(T), std::size_t offset = 0,
               const std::vector<event>& depEvents = {});
  template <typename T, typename PropertyListT>
  event memcpy(void* dest, const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
               std::size_t numBytes, std::size_t offset, event depEvent) {
    return memcpy(dest, src, numBytes, offset, std::vector<event>{depEvent});
  }
  template <typename T, typename PropertyListT>
  event copy(const detail::dg_element_t<T>* src,
             ext::oneapi::experimental::device_global<T, PropertyListT>& dest,
             std::size_t count = sizeof(T) / sizeof(detail::dg_element_t<T>),
             std::size_t startIndex = 0, const std::vector<event>& depEvents = {});
  template <typename T, typename PropertyListT>
  event copy(const detail::dg_element_t<T>* src,
             ext::oneapi::experimental::device_global<T, PropertyListT>& dest, std::size_t count,
             std::size_t startIndex, event depEvent) {
    return copy(src, dest, count, startIndex, std::vector<event>{depEvent});
  }
  template <typename T, typename PropertyListT>
  event copy(const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
             detail::dg_element_t<T>* dest,
             std::size_t count = sizeof(T) / sizeof(detail::dg_element_t<T>),
             std::size_t startIndex = 0, const std::vector<event>& depEvents = {});
  template <typename T, typename PropertyListT>
  event copy(const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
             detail::dg_element_t<T>* dest, std::size_t count, std::size_t startIndex,
             event depEvent) {
    return copy(src, dest, count, startIndex, std::vector<event>{depEvent});
  }
  template <typename T>
  event copy(const T* src, T* dest, std::size_t count) {
    return this->memcpy(dest, src, count * sizeof(T));
  }
  template <typename T>
  event copy(const T* src, T* dest, std::size_t count, event dep) {
    return this->memcpy(dest, src, count * sizeof(T), dep);
  }
  template <typename T>
  event copy(const T* src, T* dest, std::size_t count, const std::vector<event>& deps) {
    return this->memcpy(dest, src, count * sizeof(T), deps);
  }
  event memset(void* ptr, int value, std::size_t num_bytes) {
    return submit([&](handler& h) { h.memset(ptr, value, num_bytes); });
  }
  event memset(void* ptr, int value, std::size_t num_bytes, event dep) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.memset(ptr, value, num_bytes);
    });
  }
  event memset(void* ptr, int value, std::size_t num_bytes, const std::vector<event>& deps) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.memset(ptr, value, num_bytes);
    });
  }
  template <typename T>
  event fill(void* ptr, const T& pattern, std::size_t count) {
    return submit([&](handler& h) { h.fill(ptr, pattern, count); });
  }
  template <typename T>
  event fill(void* ptr, const T& pattern, std::size_t count, event dep) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.fill(ptr, pattern, count);
    });
  }
  template <typename T>
  event fill(void* ptr, const T& pattern, std::size_t count, const std::vector<event>& deps) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.fill(ptr, pattern, count);
    });
  }
  event prefetch(const void* ptr, std::size_t num_bytes) {
    return submit([&](handler& h) { h.prefetch(ptr, num_bytes); });
  }
  event prefetch(const void* ptr, std::size_t num_bytes, event dep) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.prefetch(ptr, num_bytes);
    });
  }
  event prefetch(const void* ptr, std::size_t num_bytes, const std::vector<event>& deps) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.prefetch(ptr, num_bytes);
    });
  }
  event mem_advise(const void* ptr, std::size_t num_bytes, int advice) {
    return submit([&](handler& h) { h.mem_advise(ptr, num_bytes, advice); });
  }
  event mem_advise(const void* ptr, std::size_t num_bytes, int advice, event dep) {
    return submit([&](handler& h) {
      h.depends_on(dep);
      h.mem_advise(ptr, num_bytes, advice);
    });
  }
  event mem_advise(const void* ptr, std::size_t num_bytes, int advice,
                   const std::vector<event>& deps) {
    return submit([&](handler& h) {
      h.depends_on(deps);
      h.mem_advise(ptr, num_bytes, advice);
    });
  }
  // Buffer copies through the queue (SYCL 2020 4.6.5.2 "explicit copy" shortcuts).
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder IsPh,
            typename DestT>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, IsPh> src, std::shared_ptr<DestT> dest) {
    return submit([&](handler& h) {
      h.require(src);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder IsPh,
            typename DestT>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, IsPh> src, DestT* dest) {
    return submit([&](handler& h) {
      h.require(src);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder IsPh>
  event copy(const SrcT* src, accessor<DestT, DestDim, DestMode, DestTgt, IsPh> dest) {
    return submit([&](handler& h) {
      h.require(dest);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder IsPh>
  event copy(std::shared_ptr<SrcT> src, accessor<DestT, DestDim, DestMode, DestTgt, IsPh> dest) {
    return submit([&](handler& h) {
      h.require(dest);
      h.copy(src, dest);
    });
  }

  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt,
            access::placeholder SrcPh, typename DestT, int DestDim, access_mode DestMode,
            target DestTgt, access::placeholder DestPh>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src,
             accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
    return submit([&](handler& h) {
      h.require(src);
      h.require(dest);
      h.copy(src, dest);
    });
  }
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder IsPh>
  event update_host(accessor<T, Dim, Mode, Tgt, IsPh> acc) {
    return submit([&](handler& h) {
      h.require(acc);
      h.update_host(acc);
    });
  }
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder IsPh>
  event fill(accessor<T, Dim, Mode, Tgt, IsPh> dest, const T& src) {
    return submit([&](handler& h) {
      h.require(dest);
      h.fill(dest, src);
    });
  }

  friend bool operator==(const queue& a, const queue& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const queue& a, const queue& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  friend struct std::hash<queue>;

  template <typename DeviceSelector>
  static device pick(const context& ctx, const DeviceSelector& selector) {
    device best;
    int best_score = -1;
    bool found = false;
    for (const device& d : ctx.get_devices()) {
      int s = selector(d);
      if (s >= 0 && (!found || s > best_score)) {
        best = d;
        best_score = s;
        found = true;
      }
    }
    if (!found)
      detail::throw_error(errc::runtime,
                          "queue: the device selector rejected every device of the context");
    return best;
  }

  event submit_impl(std::function<void(handler&)> cgf, queue* secondary);
  const property_list& properties() const;
  explicit queue(std::shared_ptr<detail::queue_impl> impl) : m_impl(std::move(impl)) {}
  std::shared_ptr<detail::queue_impl> m_impl;
};

// SYCL 2020 4.6.5.2: the queue properties are properties of queue.
template <>
struct is_property_of<property::queue::enable_profiling, queue> : std::true_type {};
template <>
struct is_property_of<property::queue::in_order, queue> : std::true_type {};

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::queue> {
  std::size_t operator()(const sycl::queue& q) const {
    return std::hash<const void*>()(q.m_impl.get());
  }
};
