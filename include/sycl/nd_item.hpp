// SYCL 2020 4.9.1.5 nd_item, 4.9.1.7 group, 4.17.3 group_barrier.
#pragma once

#include <sycl/access.hpp>
#include <sycl/atomic_fence.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/device_event.hpp>
#include <sycl/id.hpp>
#include <sycl/item.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/range.hpp>
#include <sycl/sub_group.hpp>

#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

namespace ext::oneapi::experimental {
template <int Dimensions>
class root_group; // sycl_ext_oneapi_root_group (ext/oneapi/experimental/root_group.hpp)
}

namespace detail {
struct nd_item_access;

// SYCL 2020 4.9.1.7 async_work_group_copy: `count` elements, the source's (or destination's)
// `stride` apart. `me` of `of` copies every of-th element; whole: one work-item does the group's
// work-group scope (hierarchical kernels) and copies all of them.
template <typename T>
inline void group_copy(T* dest, std::size_t dest_stride, const T* src, std::size_t src_stride,
                       std::size_t count, std::size_t me, std::size_t of) {
  for (std::size_t i = me; i < count; i += of) dest[i * dest_stride] = src[i * src_stride];
}
} // namespace detail

template <int Dimensions = 1>
class group {
public:
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = std::size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_group;

  group() = delete;

  id<Dimensions> get_group_id() const { return m_group; }
  std::size_t get_group_id(int dimension) const { return m_group[dimension]; }
  id<Dimensions> get_local_id() const { return m_local; }
  std::size_t get_local_id(int dimension) const { return m_local[dimension]; }
  range<Dimensions> get_local_range() const { return m_local_range; }
  std::size_t get_local_range(int dimension) const { return m_local_range[dimension]; }
  range<Dimensions> get_group_range() const { return m_group_range; }
  std::size_t get_group_range(int dimension) const { return m_group_range[dimension]; }
  range<Dimensions> get_max_local_range() const { return m_local_range; }
  std::size_t operator[](int dimension) const { return m_group[dimension]; }
  std::size_t get_group_linear_id() const { return detail::linearize(m_group, m_group_range); }
  std::size_t get_local_linear_id() const { return detail::linearize(m_local, m_local_range); }
  std::size_t get_group_linear_range() const { return m_group_range.size(); }
  std::size_t get_local_linear_range() const { return m_local_range.size(); }
  bool leader() const { return get_local_linear_id() == 0; }

  // SYCL 2020 4.9.1.7 (deprecated, SYCL 1.2.1 names): the group's id, its linear id and the
  // global range of the nd_range it belongs to.
  [[deprecated("use get_group_id()")]] id<Dimensions> get_id() const { return m_group; }
  [[deprecated("use get_group_id(dimension)")]] std::size_t get_id(int dimension) const {
    return m_group[dimension];
  }
  [[deprecated("use nd_item::get_global_range()")]] range<Dimensions> get_global_range() const {
    return m_group_range * m_local_range;
  }
  [[deprecated("use nd_item::get_global_range(dimension)")]] std::size_t
  get_global_range(int dimension) const {
    return m_group_range[dimension] * m_local_range[dimension];
  }
  [[deprecated("use get_group_linear_id()")]] std::size_t get_linear_id() const {
    return get_group_linear_id();
  }
  // SYCL 2020 4.9.1.7 (deprecated): orders this work-item's memory operations as seen by the
  // other work-items of the group; every fence space gets the same work-group-scope fence.
  template <access_mode AccessMode = access_mode::read_write>
  [[deprecated("use sycl::atomic_fence")]] void
  mem_fence(access::fence_space = access::fence_space::global_and_local) const {
    atomic_fence(memory_order::acq_rel, memory_scope::work_group);
  }

  // SYCL 2020 4.9.1.7 async_work_group_copy / wait_for, called by every work-item of the group
  // with the same arguments (in a hierarchical kernel: once, at work-group scope). The copy is
  // complete when the call returns (device_event.hpp).
  template <typename DestDataT, typename SrcDataT>
  std::enable_if_t<std::is_same_v<DestDataT, std::remove_const_t<SrcDataT>>, device_event>
  async_work_group_copy(decorated_local_ptr<DestDataT> dest, decorated_global_ptr<SrcDataT> src,
                        std::size_t numElements) const {
    return copy(dest.get_raw(), 1, src.get_raw(), 1, numElements);
  }
  template <typename DestDataT, typename SrcDataT>
  std::enable_if_t<std::is_same_v<DestDataT, std::remove_const_t<SrcDataT>>, device_event>
  async_work_group_copy(decorated_global_ptr<DestDataT> dest, decorated_local_ptr<SrcDataT> src,
                        std::size_t numElements) const {
    return copy(dest.get_raw(), 1, src.get_raw(), 1, numElements);
  }
  template <typename DestDataT, typename SrcDataT>
  std::enable_if_t<std::is_same_v<DestDataT, std::remove_const_t<SrcDataT>>, device_event>
  async_work_group_copy(decorated_local_ptr<DestDataT> dest, decorated_global_ptr<SrcDataT> src,
                        std::size_t numElements, std::size_t srcStride) const {
    return copy(dest.get_raw(), 1, src.get_raw(), srcStride, numElements);
  }
  template <typename DestDataT, typename SrcDataT>
  std::enable_if_t<std::is_same_v<DestDataT, std::remove_const_t<SrcDataT>>, device_event>
  async_work_group_copy(decorated_global_ptr<DestDataT> dest, decorated_local_ptr<SrcDataT> src,
                        std::size_t numElements, std::size_t destStride) const {
    return copy(dest.get_raw(), destStride, src.get_raw(), 1, numElements);
  }
  // The deprecated legacy-pointer forms (SYCL 2020 4.9.1.7).
  template <typename DataT>
  device_event async_work_group_copy(local_ptr<DataT> dest, global_ptr<DataT> src,
                                     std::size_t numElements) const {
    return copy(dest.get(), 1, src.get(), 1, numElements);
  }
  template <typename DataT>
  device_event async_work_group_copy(global_ptr<DataT> dest, local_ptr<DataT> src,
                                     std::size_t numElements) const {
    return copy(dest.get(), 1, src.get(), 1, numElements);
  }
  template <typename DataT>
  device_event async_work_group_copy(local_ptr<DataT> dest, global_ptr<DataT> src,
                                     std::size_t numElements, std::size_t srcStride) const {
    return copy(dest.get(), 1, src.get(), srcStride, numElements);
  }
  template <typename DataT>
  device_event async_work_group_copy(global_ptr<DataT> dest, local_ptr<DataT> src,
                                     std::size_t numElements, std::size_t destStride) const {
    return copy(dest.get(), destStride, src.get(), 1, numElements);
  }
  template <typename... EventTN>
  void wait_for(EventTN... events) const {
    (events.wait(), ...);
  }

  // SYCL 2020 4.9.4.2.3 hierarchical parallelism (defined in hierarchical.hpp): the function
  // runs once per work-item of the group, or per id of a flexible logical range.
  template <typename WorkItemFunctionT>
  void parallel_for_work_item(const WorkItemFunctionT& func) const;
  template <typename WorkItemFunctionT>
  void parallel_for_work_item(range<Dimensions> flexibleRange, const WorkItemFunctionT& func) const;

  friend bool operator==(const group& a, const group& b) {
    return a.m_group == b.m_group && a.m_group_range == b.m_group_range &&
           a.m_local_range == b.m_local_range;
  }
  friend bool operator!=(const group& a, const group& b) { return !(a == b); }

private:
  friend struct detail::nd_item_access;
  template <int>
  friend class nd_item;
  group(const id<Dimensions>& g, const id<Dimensions>& l, const range<Dimensions>& lr,
        const range<Dimensions>& gr)
      : m_group(g), m_local(l), m_local_range(lr), m_group_range(gr) {}

  template <typename T>
  device_event copy(T* dest, std::size_t dest_stride, const T* src, std::size_t src_stride,
                    std::size_t count) const {
    if (m_whole) {
      detail::group_copy(dest, dest_stride, src, src_stride, count, 0, 1);
    } else {
      detail::group_copy(dest, dest_stride, src, src_stride, count, get_local_linear_id(),
                         get_local_linear_range());
      detail::dev::work_group_barrier();
    }
    return device_event();
  }

  id<Dimensions> m_group;
  id<Dimensions> m_local;
  range<Dimensions> m_local_range;
  range<Dimensions> m_group_range;
  // A group of a hierarchical kernel's work-group scope, which one work-item runs.
  bool m_whole = false;
};

template <int Dimensions = 1>
class nd_item {
public:
  static constexpr int dimensions = Dimensions;
  nd_item() = delete;

  // The global id includes the (deprecated) offset of the nd_range; the linear id does not
  // (SYCL 2020 4.9.1.5: the offset is subtracted first).
  id<Dimensions> get_global_id() const { return m_group * m_local_range + m_local + m_offset; }
  std::size_t get_global_id(int d) const {
    return m_group[d] * m_local_range[d] + m_local[d] + m_offset[d];
  }
  std::size_t get_global_linear_id() const {
    return detail::linearize(id<Dimensions>(m_group * m_local_range + m_local), get_global_range());
  }
  id<Dimensions> get_local_id() const { return m_local; }
  std::size_t get_local_id(int d) const { return m_local[d]; }
  std::size_t get_local_linear_id() const { return detail::linearize(m_local, m_local_range); }
  group<Dimensions> get_group() const {
    return group<Dimensions>(m_group, m_local, m_local_range, m_group_range);
  }
  std::size_t get_group(int d) const { return m_group[d]; }
  std::size_t get_group_linear_id() const { return detail::linearize(m_group, m_group_range); }
  range<Dimensions> get_group_range() const { return m_group_range; }
  std::size_t get_group_range(int d) const { return m_group_range[d]; }
  range<Dimensions> get_global_range() const { return m_group_range * m_local_range; }
  std::size_t get_global_range(int d) const { return m_group_range[d] * m_local_range[d]; }
  range<Dimensions> get_local_range() const { return m_local_range; }
  std::size_t get_local_range(int d) const { return m_local_range[d]; }
  [[deprecated("SYCL 2020 deprecates offsets")]] id<Dimensions> get_offset() const {
    return m_offset;
  }
  // SYCL 2020 4.9.1.5 / seed 004: the sub-group holding this work-item (consecutive linear
  // local ids on the host and NVIDIA GPUs; the device's own on SPIR-V).
  sub_group get_sub_group() const {
    return sub_group(detail::dev::this_sub_group(static_cast<std::uint32_t>(get_local_linear_id()),
                                                 static_cast<std::uint32_t>(m_local_range.size())));
  }
  nd_range<Dimensions> get_nd_range() const {
    return detail::nd_range_access::make(get_global_range(), m_local_range, m_offset);
  }
  // sycl_ext_oneapi_root_group: every work-item of the kernel (defined with root_group).
  ext::oneapi::experimental::root_group<Dimensions> ext_oneapi_get_root_group() const;

  // SYCL 2020 4.9.1.5 (deprecated): a work-group-scope fence, as group::mem_fence.
  template <access_mode AccessMode = access_mode::read_write>
  [[deprecated("use sycl::atomic_fence")]] void
  mem_fence(access::fence_space = access::fence_space::global_and_local) const {
    atomic_fence(memory_order::acq_rel, memory_scope::work_group);
  }
  // SYCL 2020 4.9.1.5: barrier is deprecated in favour of group_barrier, but still provided.
  void barrier(access::fence_space = access::fence_space::global_and_local) const {
    detail::dev::work_group_barrier();
  }

  friend bool operator==(const nd_item& a, const nd_item& b) {
    return a.m_group == b.m_group && a.m_local == b.m_local && a.m_local_range == b.m_local_range &&
           a.m_group_range == b.m_group_range && a.m_offset == b.m_offset;
  }
  friend bool operator!=(const nd_item& a, const nd_item& b) { return !(a == b); }

  // SYCL 2020 4.9.1.5: the work-group's async_work_group_copy and wait_for (group's above).
  template <typename Dest, typename Src, typename... Stride>
  auto async_work_group_copy(Dest dest, Src src, std::size_t numElements, Stride... stride) const
      -> decltype(std::declval<group<Dimensions>>().async_work_group_copy(dest, src, numElements,
                                                                          stride...)) {
    return get_group().async_work_group_copy(dest, src, numElements, stride...);
  }
  template <typename... EventTN>
  void wait_for(EventTN... events) const {
    (events.wait(), ...);
  }

private:
  friend struct detail::nd_item_access;
  nd_item(const id<Dimensions>& g, const id<Dimensions>& l, const range<Dimensions>& lr,
          const range<Dimensions>& gr, const id<Dimensions>& offset)
      : m_group(g), m_local(l), m_local_range(lr), m_group_range(gr), m_offset(offset) {}

  id<Dimensions> m_group;
  id<Dimensions> m_local;
  range<Dimensions> m_local_range;
  range<Dimensions> m_group_range;
  id<Dimensions> m_offset; // of the nd_range (deprecated offsets); zero without one
};

namespace detail {
struct nd_item_access {
  template <int D>
  static group<D> make_group(const id<D>& group_id, const range<D>& local_range,
                             const range<D>& group_range) {
    group<D> g(group_id, id<D>{}, local_range, group_range);
    g.m_whole = true; // hierarchical kernels' work-group scope
    return g;
  }
  template <int D>
  static nd_item<D> make(const id<D>& group, const id<D>& local, const range<D>& local_range,
                         const range<D>& group_range, const id<D>& offset) {
    return nd_item<D>(group, local, local_range, group_range, offset);
  }
};
} // namespace detail

template <typename T>
struct is_group : std::false_type {};
template <int D>
struct is_group<group<D>> : std::true_type {};
template <typename T>
inline constexpr bool is_group_v = is_group<T>::value;

// SYCL 2020 4.17.3. group_barrier for work-groups (sub-groups: the sub-group issue).
template <int Dimensions>
void group_barrier(group<Dimensions>, memory_scope = memory_scope::work_group) {
  detail::dev::work_group_barrier();
}

SYCLONE_END_NAMESPACE
