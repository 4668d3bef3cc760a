// SYCL 2020 4.9.4. Command group handler.
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/detail/block_allocator.hpp>
#include <sycl/detail/device_global_fwd.hpp>
#include <sycl/detail/host_kernels.hpp>
#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/kernel_launch.hpp>
#include <sycl/event.hpp>
#include <sycl/ext/oneapi/experimental/work_group_scratch_memory.hpp>
#include <sycl/ext/oneapi/kernel_properties.hpp>
#include <sycl/interop_handle.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/kernel_handler.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/range.hpp>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
// A rectangular region of a buffer on a device, or contiguous memory (dims 1, offset 0).
struct mem_region {
  void* ptr = nullptr; // element {0,...} of the allocation
  std::size_t element_size = 1;
  int dimensions = 1;
  std::size_t mem[3] = {1, 1, 1};
  std::size_t offset[3] = {0, 0, 0};
  std::size_t range[3] = {1, 1, 1};
  buffer_impl* buffer = nullptr; // set when the region belongs to a buffer
};

template <typename T, int D>
mem_region region_of(const accessor_state<T, D>& s) {
  mem_region r;
  r.ptr = const_cast<std::remove_const_t<T>*>(s.m_data);
  r.element_size = sizeof(T);
  r.dimensions = D;
  for (int d = 0; d < D; ++d) {
    r.mem[d] = s.m_mem_range[d];
    r.offset[d] = s.m_offset[d];
    r.range[d] = s.m_access_range[d];
  }
  r.buffer = s.m_buffer;
  return r;
}
inline mem_region contiguous(const void* p, std::size_t elem, std::size_t count) {
  mem_region r;
  r.ptr = const_cast<void*>(p);
  r.element_size = elem;
  r.mem[0] = r.range[0] = count;
  return r;
}

// sycl_ext_oneapi_auto_local_range: an nd_range whose local range is auto_range() (all zeros).
template <int D>
bool is_auto_range(const range<D>& local) {
  for (int d = 0; d < D; ++d)
    if (local[d] != 0) return false;
  return true;
}
// The work-group size for an nd_range of `global` whose local range is auto_range(), on the
// queue's device: the kernel's [[sycl::reqd_work_group_size]] if it has one, otherwise the largest
// one that divides `global` within the device's limits (src/runtime/kernel_attributes.cpp).
SYCLONE_EXPORT void choose_auto_local_range(handler& cgh, const char* kernel, int dims,
                                            const std::size_t* global, std::size_t* local);

// Sets the thread's capturing command group while a kernel functor or host task is copied:
// accessor copies bind to it (SYCL 2020 4.7.6.9: accessors are used in their command group).
class SYCLONE_EXPORT capture_scope {
public:
  // host_side: a host task is captured (its accessors address host memory).
  explicit capture_scope(handler& cgh, bool host_side = false);
  ~capture_scope();
  capture_scope(const capture_scope&) = delete;
  capture_scope& operator=(const capture_scope&) = delete;

private:
  const void* m_previous_cg;
  bool m_previous_host;
};

class spec_constant_values;

// SYCL 2020 4.9.2 (reduction.hpp): what sycl::reduction returns derives from reduction_tag, so
// that parallel_for recognizes "reductions, then the kernel".
struct reduction_tag {};
template <typename... Rest>
constexpr bool reductions_then_kernel() {
  if constexpr (sizeof...(Rest) < 2) {
    return false;
  } else {
    constexpr bool is_reduction[] = {std::is_base_of_v<reduction_tag, std::decay_t<Rest>>...};
    for (std::size_t i = 0; i + 1 < sizeof...(Rest); ++i)
      if (!is_reduction[i]) return false;
    return !is_reduction[sizeof...(Rest) - 1];
  }
}
template <typename... Rest>
inline constexpr bool is_reduction_call_v = reductions_then_kernel<Rest...>();

// SYCL 2020 4.9.4.2.1 (deprecated): the kernel of parallel_for with an offset. It runs over the
// range from zero and gives the user's kernel the shifted item (item<D, true> knowing its
// offset), or the shifted id.
template <int D, typename F>
struct offset_kernel {
  F m_f;
  id<D> m_offset;
  template <typename... Handler>
  SYCLONE_INLINE void call(const item<D, false>& it, Handler... kh) const {
    item<D, true> shifted =
        item_access::make_with_offset(id<D>(it.get_id() + m_offset), it.get_range(), m_offset);
    if constexpr (std::is_invocable_v<const F&, item<D, true>, Handler...>)
      m_f(shifted, kh...);
    else
      m_f(shifted.get_id(), kh...);
  }
};
template <int D, typename F>
struct offset_kernel_without_handler : offset_kernel<D, F> {
  void operator()(item<D, false> it) const { this->call(it); }
};
template <int D, typename F>
struct offset_kernel_with_handler : offset_kernel<D, F> {
  void operator()(item<D, false> it, kernel_handler kh) const { this->call(it, kh); }
};
} // namespace detail

class SYCLONE_EXPORT handler {
public:
  handler(const handler&) = delete;
  handler(handler&&) = delete;
  handler& operator=(const handler&) = delete;
  handler& operator=(handler&&) = delete;

  // SYCL 2020 4.9.4.1. Dependencies and requirements.
  template <typename DataT, int Dimensions, access_mode Mode, target Tgt,
            access::placeholder IsPlaceholder>
  void require(accessor<DataT, Dimensions, Mode, Tgt, IsPlaceholder> acc) {
    acc.bind(*this);
  }
  void depends_on(event dep_event);
  void depends_on(const std::vector<event>& dep_events);

  // SYCL 2020 4.9.4.2. Kernel dispatch. Each form also takes a compile-time property list
  // (sycl_ext_oneapi_kernel_properties, e.g. sub_group_size<16>) before the kernel; a functor
  // may declare its own through `get(properties_tag)`.
  template <typename KernelName = detail::auto_name, typename KernelType>
  void single_task(const KernelType& kernel_func) {
    single_task_impl<KernelName, no_properties>(kernel_func);
  }
  template <typename KernelName = detail::auto_name, typename KernelType, typename Properties,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>
  void single_task(Properties, const KernelType& kernel_func) {
    single_task_impl<KernelName, Properties>(kernel_func);
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  void parallel_for(range<Dimensions> num_work_items, const KernelType& kernel_func) {
    parallel_for_impl<KernelName, no_properties>(num_work_items, kernel_func);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType,
            typename Properties,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>
  void parallel_for(range<Dimensions> num_work_items, Properties, const KernelType& kernel_func) {
    parallel_for_impl<KernelName, Properties>(num_work_items, kernel_func);
  }
  // parallel_for(1024, f): a one-dimensional range from an integer.
  template <typename KernelName = detail::auto_name, typename KernelType>
  void parallel_for(std::size_t num_work_items, const KernelType& kernel_func) {
    parallel_for<KernelName>(range<1>(num_work_items), kernel_func);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  void parallel_for(nd_range<Dimensions> execution_range, const KernelType& kernel_func) {
    parallel_for_impl<KernelName, no_properties>(execution_range, kernel_func);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType,
            typename Properties,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>
  void parallel_for(nd_range<Dimensions> execution_range, Properties props,
                    const KernelType& kernel_func) {
    using ext::oneapi::experimental::work_group_scratch_size_key;
    if constexpr (Properties::template has_property<work_group_scratch_size_key>()) {
      // sycl_ext_oneapi_work_group_scratch_memory: the bytes after the local accessors'.
      std::size_t bytes = props.template get_property<work_group_scratch_size_key>().value;
      std::size_t offset = detail::reserve_local_memory(*this, bytes, alignof(std::max_align_t));
      detail::note_captured_local_accessor(detail::command_group_id(*this)); // the launch uses it
      parallel_for_impl<KernelName, Properties>(execution_range, kernel_func, offset);
    } else {
      (void)props;
      parallel_for_impl<KernelName, Properties>(execution_range, kernel_func);
    }
  }

  // SYCL 2020 4.9.4.2.1 (deprecated): work-items numbered from an offset.
  template <typename KernelName = detail::auto_name, typename KernelType, int Dimensions>
  [[deprecated("SYCL 2020 deprecates offsets")]] void parallel_for(range<Dimensions> num_work_items,
                                                                   id<Dimensions> work_item_offset,
                                                                   const KernelType& kernel_func) {
    if constexpr (std::is_invocable_v<const KernelType&, item<Dimensions>, kernel_handler> ||
                  std::is_invocable_v<const KernelType&, id<Dimensions>, kernel_handler>)
      parallel_for_impl<KernelName, no_properties>(
          num_work_items, detail::offset_kernel_with_handler<Dimensions, KernelType>{
                              {kernel_func, work_item_offset}});
    else
      parallel_for_impl<KernelName, no_properties>(
          num_work_items, detail::offset_kernel_without_handler<Dimensions, KernelType>{
                              {kernel_func, work_item_offset}});
  }

  // parallel_for({N1, N2}, f): a braced range cannot deduce Dimensions, so each dimension has its
  // own overload (more specialized than the templates above, which they call with Dimensions
  // given).
#define SYCLONE_HANDLER_BRACED_RANGE(D)                                                            \
  template <typename KernelName = detail::auto_name, typename KernelType>                          \
  void parallel_for(range<D> num_work_items, const KernelType& kernel_func) {                      \
    parallel_for_impl<KernelName, no_properties>(num_work_items, kernel_func);                     \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename Properties, typename KernelType,     \
            typename =                                                                             \
                std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties>>>       \
  void parallel_for(range<D> num_work_items, Properties, const KernelType& kernel_func) {          \
    parallel_for_impl<KernelName, Properties>(num_work_items, kernel_func);                        \
  }                                                                                                \
  template <typename KernelName = detail::auto_name, typename... Rest,                             \
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>                     \
  void parallel_for(range<D> num_work_items, Rest&&... rest) {                                     \
    this->template parallel_for<KernelName, D>(num_work_items, std::forward<Rest>(rest)...);       \
  }
  SYCLONE_HANDLER_BRACED_RANGE(1)
  SYCLONE_HANDLER_BRACED_RANGE(2)
  SYCLONE_HANDLER_BRACED_RANGE(3)
#undef SYCLONE_HANDLER_BRACED_RANGE

  // SYCL 2020 4.9.4.2.2 / 4.9.2: any number of reductions, then the kernel, which receives a
  // reducer for each (defined in reduction.hpp).
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  void parallel_for(range<Dimensions> num_work_items, Rest&&... rest);
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  void parallel_for(nd_range<Dimensions> execution_range, Rest&&... rest);
  template <typename KernelName = detail::auto_name, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction_call_v<Rest...>>>
  void parallel_for(std::size_t num_work_items, Rest&&... rest) {
    parallel_for<KernelName>(range<1>(num_work_items), std::forward<Rest>(rest)...);
  }
  // sycl_ext_oneapi_kernel_properties: the same with a compile-time property list (e.g.
  // sub_group_size<16>) before the reductions.
  template <typename KernelName = detail::auto_name, int Dimensions, typename Properties,
            typename... Rest,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties> &&
                                        detail::is_reduction_call_v<Rest...>>>
  void parallel_for(range<Dimensions> num_work_items, Properties, Rest&&... rest);
  template <typename KernelName = detail::auto_name, int Dimensions, typename Properties,
            typename... Rest,
            typename = std::enable_if_t<ext::oneapi::experimental::is_property_list_v<Properties> &&
                                        detail::is_reduction_call_v<Rest...>>>
  void parallel_for(nd_range<Dimensions> execution_range, Properties, Rest&&... rest);

  // SYCL 2020 4.9.4.2.3: hierarchical kernels, work-group scope first (hierarchical.hpp).
  template <typename KernelName = detail::auto_name, typename WorkgroupFunctionType, int Dimensions>
  void parallel_for_work_group(range<Dimensions> numWorkGroups,
                               const WorkgroupFunctionType& kernelFunc);
  template <typename KernelName = detail::auto_name, typename WorkgroupFunctionType, int Dimensions>
  void parallel_for_work_group(range<Dimensions> numWorkGroups, range<Dimensions> workGroupSize,
                               const WorkgroupFunctionType& kernelFunc);

  // SYCL 2020 4.10. Host tasks.
  template <typename T>
  void host_task(T&& host_task_callable) {
    using F = std::decay_t<T>;
    std::shared_ptr<F> task;
    {
      detail::capture_scope scope(*this, true);
      task = std::make_shared<F>(host_task_callable);
    }
    if constexpr (std::is_invocable_v<F&, interop_handle>)
      set_host_task([task](interop_handle ih) { (*task)(ih); });
    else
      set_host_task([task](interop_handle) { (*task)(); });
  }

  // sycl_ext_oneapi_enqueue_native_command (and its first name, sycl_ext_codeplay_...): the
  // callable enqueues native work (a cuBLAS call, a CUDA kernel) on
  // interop_handle::get_native_queue(), in the queue's order: it is called once the command's
  // dependencies are ordered before that queue (not necessarily complete), and the command
  // completes when the native work it enqueued completes. The host is never blocked.
  template <typename Func>
  void ext_oneapi_enqueue_native_command(Func&& interopCallable) {
    static_assert(std::is_invocable_v<std::decay_t<Func>&, interop_handle>,
                  "ext_oneapi_enqueue_native_command takes a callable with one interop_handle "
                  "parameter");
    using F = std::decay_t<Func>;
    std::shared_ptr<F> task;
    {
      detail::capture_scope scope(*this, true);
      task = std::make_shared<F>(interopCallable);
    }
    set_native_command([task](interop_handle ih) { (*task)(ih); });
  }
  template <typename Func>
  void ext_codeplay_enqueue_native_command(Func&& interopCallable) {
    ext_oneapi_enqueue_native_command(std::forward<Func>(interopCallable));
  }

  // SYCL 2020 4.9.4.3. Explicit memory operations on buffers.
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt,
            access::placeholder IsPlaceholder, typename DestT>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, IsPlaceholder> src,
            std::shared_ptr<DestT> dest) {
    record_copy(detail::region_of(bound(src).state()),
                detail::contiguous(dest.get(), sizeof(SrcT), src.size()), dest);
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder IsPlaceholder>
  void copy(std::shared_ptr<SrcT> src,
            accessor<DestT, DestDim, DestMode, DestTgt, IsPlaceholder> dest) {
    record_copy(detail::contiguous(src.get(), sizeof(DestT), dest.size()),
                detail::region_of(bound(dest).state()), src);
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt,
            access::placeholder IsPlaceholder, typename DestT>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, IsPlaceholder> src, DestT* dest) {
    record_copy(detail::region_of(bound(src).state()),
                detail::contiguous(dest, sizeof(SrcT), src.size()), nullptr);
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder IsPlaceholder>
  void copy(const SrcT* src, accessor<DestT, DestDim, DestMode, DestTgt, IsPlaceholder> dest) {
    record_copy(detail::contiguous(src, sizeof(DestT), dest.size()),
                detail::region_of(bound(dest).state()), nullptr);
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt,
            access::placeholder SrcPh, typename DestT, int DestDim, access_mode DestMode,
            target DestTgt, access::placeholder DestPh>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src,
            accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
    static_assert(sizeof(SrcT) == sizeof(DestT), "copy: element sizes of the accessors differ");
    if (src.size() > dest.size())
      detail::throw_error(errc::invalid, "copy: the source accessor has more elements (" +
                                             std::to_string(src.size()) +
                                             ") than the destination (" +
                                             std::to_string(dest.size()) + ")");
    record_copy(detail::region_of(bound(src).state()), detail::region_of(bound(dest).state()),
                nullptr);
  }
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder IsPlaceholder>
  void update_host(accessor<T, Dim, Mode, Tgt, IsPlaceholder> acc) {
    record_update_host(detail::region_of(bound(acc).state()));
  }
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder IsPlaceholder>
  void fill(accessor<T, Dim, Mode, Tgt, IsPlaceholder> dest, const T& src) {
    record_fill(detail::region_of(bound(dest).state()), &src, sizeof(T));
  }

  // SYCL 2020 4.9.4.3. USM operations.
  void memcpy(void* dest, const void* src, std::size_t num_bytes);
  // sycl_ext_oneapi_device_global (defined in ext/oneapi/experimental/device_global.hpp).
  template <typename T, typename PropertyListT>
  void memcpy(ext::oneapi::experimental::device_global<T, PropertyListT>& dest, const void* src,
              std::size_t numBytes = sizeof(T), std::size_t offset = 0);
  template <typename T, typename PropertyListT>
  void memcpy(void* dest, const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
              std::size_t numBytes = sizeof(T), std::size_t offset = 0);
  template <typename T, typename PropertyListT>
  void copy(const detail::dg_element_t<T>* src,
            ext::oneapi::experimental::device_global<T, PropertyListT>& dest,
            std::size_t count = sizeof(T) / sizeof(detail::dg_element_t<T>),
            std::size_t startIndex = 0);
  template <typename T, typename PropertyListT>
  void copy(const ext::oneapi::experimental::device_global<T, PropertyListT>& src,
            detail::dg_element_t<T>* dest,
            std::size_t count = sizeof(T) / sizeof(detail::dg_element_t<T>),
            std::size_t startIndex = 0);
  template <typename T>
  void copy(const T* src, T* dest, std::size_t count) {
    this->memcpy(dest, src, count * sizeof(T));
  }
  void memset(void* ptr, int value, std::size_t num_bytes);
  template <typename T>
  void fill(void* ptr, const T& pattern, std::size_t count) {
    record_fill(detail::contiguous(ptr, sizeof(T), count), &pattern, sizeof(T));
  }
  void prefetch(const void* ptr, std::size_t num_bytes);
  void mem_advise(const void* ptr, std::size_t num_bytes, int advice);

  // sycl_ext_oneapi_memcpy2d: `height` rows of `width` bytes (elements), rows `*Pitch` bytes
  // (elements) apart; a width above a pitch throws errc::invalid.
  void ext_oneapi_memcpy2d(void* dest, std::size_t destPitch, const void* src, std::size_t srcPitch,
                           std::size_t width, std::size_t height);
  template <typename T>
  void ext_oneapi_copy2d(const T* src, std::size_t srcPitch, T* dest, std::size_t destPitch,
                         std::size_t width, std::size_t height) {
    record_copy2d(dest, destPitch, src, srcPitch, width, height, sizeof(T), "ext_oneapi_copy2d");
  }
  void ext_oneapi_memset2d(void* dest, std::size_t destPitch, int value, std::size_t width,
                           std::size_t height);
  template <typename T>
  void ext_oneapi_fill2d(void* dest, std::size_t destPitch, const T& pattern, std::size_t width,
                         std::size_t height) {
    record_fill2d(dest, destPitch, &pattern, sizeof(T), width, height, "ext_oneapi_fill2d");
  }

  // sycl_ext_oneapi_enqueue_barrier: commands submitted to this queue later run after every
  // command submitted to it before has completed; with a wait list, after those events completed
  // (an empty list holds nothing back). The command group's event completes with them.
  void ext_oneapi_barrier();
  void ext_oneapi_barrier(const std::vector<event>& waitList);

  // SYCL 2020 4.9.4.4. Specialization constants.
  template <auto& SpecName>
  void set_specialization_constant(
      typename std::remove_reference_t<decltype(SpecName)>::value_type value) {
    set_spec_constant(&SpecName, detail::spec_constant_name<SpecName>(), &value, sizeof(value));
  }
  template <auto& SpecName>
  typename std::remove_reference_t<decltype(SpecName)>::value_type get_specialization_constant() {
    using T = typename std::remove_reference_t<decltype(SpecName)>::value_type;
    kernel_handler kh;
    kh.bind_host_values(spec_values());
    if (!spec_values()) return SpecName.default_value();
    return kh.template get_specialization_constant<SpecName>();
    static_assert(std::is_trivially_copyable_v<T>);
  }

  // SYCL 2020 4.9.4.4 (sec:handler.usekernelbundle). The command group's kernel runs from the
  // bundle's device image for the queue's device, with the bundle's specialization constant
  // values: nothing is compiled at submission. Throws errc::invalid when the bundle belongs to
  // another context or set_specialization_constant was called; submitting a kernel the bundle
  // lacks throws errc::kernel_not_supported.
  void use_kernel_bundle(const kernel_bundle<bundle_state::executable>& exec_bundle);
  template <bundle_state State>
  void use_kernel_bundle(const kernel_bundle<State>&) {
    static_assert(State == bundle_state::executable,
                  "handler::use_kernel_bundle takes an executable bundle (SYCL 2020 4.9.4.4): "
                  "sycl::build an input bundle, or sycl::link an object bundle, first");
  }

  // Not part of the SYCL API.
  const std::shared_ptr<detail::handler_impl>& impl() const { return m_impl; }
  explicit handler(std::shared_ptr<detail::handler_impl> impl) : m_impl(std::move(impl)) {}

private:
  // The accessor as this command group sees it (explicit memory operations): a placeholder
  // registered with require() gets the buffer's address for this command group, one that
  // belongs to another command group throws errc::kernel_argument, as a kernel capture does.
  template <typename Accessor>
  Accessor bound(const Accessor& acc) {
    detail::capture_scope scope(*this);
    return Accessor(acc);
  }

  using no_properties = ext::oneapi::experimental::empty_properties_t;

  template <typename KernelName, typename Properties, typename KernelType>
  void single_task_impl(const KernelType& kernel_func) {
    static_assert(!detail::has_scratch_size_v<Properties>,
                  "work_group_scratch_size (sycl_ext_oneapi_work_group_scratch_memory) is a "
                  "property of nd_range launches; launch the kernel over an nd_range");
    using name_t = detail::kernel_name_t<KernelName, KernelType>;
    using object_t = detail::single_task_kernel<KernelType>;
    detail::kernel_launch l = prepare<name_t, object_t>(kernel_func);
    l.kind = detail::kernel_kind::single_task;
    l.run_single = &object_t::run_single;
    l.required_sub_group_size = detail::note_sub_group_size<name_t, KernelType, Properties>();
    set_kernel(std::move(l));
  }
  template <typename KernelName, typename Properties, int Dimensions, typename KernelType>
  void parallel_for_impl(range<Dimensions> num_work_items, const KernelType& kernel_func) {
    static_assert(!detail::has_scratch_size_v<Properties>,
                  "work_group_scratch_size (sycl_ext_oneapi_work_group_scratch_memory) is a "
                  "property of nd_range launches; launch the kernel over an nd_range");
    using name_t = detail::kernel_name_t<KernelName, KernelType>;
    using object_t = detail::range_kernel<Dimensions, KernelType>;
    detail::kernel_launch l = prepare<name_t, object_t>(num_work_items, kernel_func);
    l.kind = detail::kernel_kind::range;
    l.dimensions = Dimensions;
    for (int d = 0; d < Dimensions; ++d) l.global[d] = num_work_items[d];
    l.run_range = &object_t::run_range;
    l.required_sub_group_size = detail::note_sub_group_size<name_t, KernelType, Properties>();
    set_kernel(std::move(l));
  }
  // `scratch` (sycl_ext_oneapi_work_group_scratch_memory): where the launch's scratch memory
  // starts in its local memory; the kernel then runs through detail::scratch_kernel.
  template <typename KernelName, typename Properties, int Dimensions, typename KernelType,
            typename... Scratch>
  void parallel_for_impl(nd_range<Dimensions> execution_range, const KernelType& kernel_func,
                         Scratch... scratch) {
    static_assert(sizeof...(Scratch) <= 1);
    using name_t = detail::kernel_name_t<KernelName, KernelType>;
    using functor_t =
        std::conditional_t<sizeof...(Scratch) == 0, KernelType, detail::scratch_kernel<KernelType>>;
    using object_t = detail::nd_range_kernel<Dimensions, functor_t>;
    execution_range = resolve_auto_range<name_t>(execution_range);
    range<Dimensions> local = execution_range.get_local_range();
    range<Dimensions> groups = execution_range.get_group_range();
    detail::nd_range_header<Dimensions> header{Dimensions, local, groups,
                                               detail::nd_range_access::offset(execution_range)};
    detail::kernel_launch l;
    if constexpr (sizeof...(Scratch) == 0)
      l = prepare<name_t, object_t>(header, kernel_func);
    else
      l = prepare<name_t, object_t>(header, functor_t{kernel_func, scratch...});
    l.kind = detail::kernel_kind::nd_range;
    l.dimensions = Dimensions;
    for (int d = 0; d < Dimensions; ++d) {
      l.global[d] = execution_range.get_global_range()[d];
      l.local[d] = local[d];
    }
    l.run_item = &object_t::run_item;
    constexpr std::uint32_t sub_group =
        detail::note_sub_group_size<name_t, KernelType, Properties>();
#if !SYCLONE_DEVICE
    l.run_group = &detail::host_run_group<Dimensions, object_t, sub_group>;
#endif
    l.required_sub_group_size = sub_group;
    l.root_sync =
        ext::oneapi::experimental::detail::kernel_uses_root_sync<KernelType, Properties>();
    set_kernel(std::move(l));
  }

  // sycl_ext_oneapi_auto_local_range: the nd_range with the work-group size the device gets for
  // a local range of auto_range() (the nd_range itself otherwise).
  template <typename Name, int Dimensions>
  nd_range<Dimensions> resolve_auto_range(const nd_range<Dimensions>& r) {
    if (!detail::is_auto_range(r.get_local_range())) return r;
    std::size_t global[3], chosen[3];
    for (int d = 0; d < Dimensions; ++d) global[d] = r.get_global_range()[d];
    detail::choose_auto_local_range(*this, detail::kernel_name<Name>(), Dimensions, global, chosen);
    range<Dimensions> local = r.get_local_range();
    for (int d = 0; d < Dimensions; ++d) local[d] = chosen[d];
    return detail::nd_range_access::make(r.get_global_range(), local,
                                         detail::nd_range_access::offset(r));
  }

  template <typename Name, typename Object, typename... Args>
  detail::kernel_launch prepare(const Args&... args) {
    detail::kernel_launch l;
    std::shared_ptr<Object> object;
    {
      detail::capture_scope scope(*this);
      // From the runtime's per-thread pools, unless over-aligned (a functor capturing alignas
      // data): the kernel object is made and dropped by every submission.
      if constexpr (alignof(Object) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
        object =
            std::allocate_shared<Object>(detail::block_allocator<Object>(), Object{args..., {}});
      else
        object = std::make_shared<Object>(Object{args..., {}});
    }
#if SYCLONE_SYCL_COMPILER
    detail::kernel_entry<detail::unique_kernel_name_t<Name>>(*object);
#endif
    if constexpr (detail::dev::is_host) (void)&detail::host_kernel<Name>::registration;
    l.name = detail::kernel_name<Name>();
    l.object_size = sizeof(Object);
    l.handler_slot = &object->m_kh;
    l.object = std::move(object);
    return l;
  }

  template <typename KernelName, int Dimensions, typename WorkgroupFunctionType>
  void hierarchical_dispatch(range<Dimensions> groups, const range<Dimensions>* local,
                             const WorkgroupFunctionType& kernel_func);
  template <typename KernelName, typename Properties, typename Range, typename Args,
            std::size_t... I>
  void reduction_dispatch(Range r, Args& args, std::index_sequence<I...>);

  void set_kernel(detail::kernel_launch&& launch);
  void set_host_task(std::function<void(interop_handle)> task);
  void set_native_command(std::function<void(interop_handle)> task);
  void record_copy(const detail::mem_region& src, const detail::mem_region& dst,
                   std::shared_ptr<const void> keep_alive);
  void record_update_host(const detail::mem_region& region);
  void record_fill(const detail::mem_region& dst, const void* pattern, std::size_t pattern_size);
  // sycl_ext_oneapi_memcpy2d: pitches and width in elements of `element` bytes.
  void record_copy2d(void* dest, std::size_t dest_pitch, const void* src, std::size_t src_pitch,
                     std::size_t width, std::size_t height, std::size_t element, const char* what);
  void record_fill2d(void* dest, std::size_t dest_pitch, const void* pattern, std::size_t element,
                     std::size_t width, std::size_t height, const char* what);
  void set_spec_constant(const void* id, const char* name, const void* value, std::size_t size);
  const detail::spec_constant_values* spec_values() const;

  friend struct detail::impl_access;
  std::shared_ptr<detail::handler_impl> m_impl;
};

SYCLONE_END_NAMESPACE
