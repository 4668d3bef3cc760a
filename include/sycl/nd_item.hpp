// SYCL 2020 4.9.1.5 nd_item, 4.9.1.7 group, 4.17.3 group_barrier.
#pragma once

#include <sycl/access.hpp>
#include <sycl/atomic_fence.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/id.hpp>
#include <sycl/item.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/range.hpp>
#include <sycl/sub_group.hpp>

#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
struct nd_item_access;
}

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

  id<Dimensions> m_group;
  id<Dimensions> m_local;
  range<Dimensions> m_local_range;
  range<Dimensions> m_group_range;
};

template <int Dimensions = 1>
class nd_item {
public:
  static constexpr int dimensions = Dimensions;
  nd_item() = delete;

  id<Dimensions> get_global_id() const { return m_group * m_local_range + m_local; }
  std::size_t get_global_id(int d) const { return m_group[d] * m_local_range[d] + m_local[d]; }
  std::size_t get_global_linear_id() const {
    return detail::linearize(get_global_id(), get_global_range());
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
  [[deprecated("SYCL 2020 deprecates offsets")]] id<Dimensions> get_offset() const { return {}; }
  // SYCL 2020 4.9.1.5 / seed 004: the sub-group holding this work-item (consecutive linear
  // local ids on the host and NVIDIA GPUs; the device's own on SPIR-V).
  sub_group get_sub_group() const {
    return sub_group(detail::dev::this_sub_group(static_cast<std::uint32_t>(get_local_linear_id()),
                                                 static_cast<std::uint32_t>(m_local_range.size())));
  }
  nd_range<Dimensions> get_nd_range() const {
    return nd_range<Dimensions>(get_global_range(), m_local_range);
  }

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
           a.m_group_range == b.m_group_range;
  }
  friend bool operator!=(const nd_item& a, const nd_item& b) { return !(a == b); }

private:
  friend struct detail::nd_item_access;
  nd_item(const id<Dimensions>& g, const id<Dimensions>& l, const range<Dimensions>& lr,
          const range<Dimensions>& gr)
      : m_group(g), m_local(l), m_local_range(lr), m_group_range(gr) {}

  id<Dimensions> m_group;
  id<Dimensions> m_local;
  range<Dimensions> m_local_range;
  range<Dimensions> m_group_range;
};

namespace detail {
struct nd_item_access {
  template <int D>
  static group<D> make_group(const id<D>& group_id, const range<D>& local_range,
                             const range<D>& group_range) {
    return group<D>(group_id, id<D>{}, local_range, group_range);
  }
  template <int D>
  static nd_item<D> make(const id<D>& group, const id<D>& local, const range<D>& local_range,
                         const range<D>& group_range) {
    return nd_item<D>(group, local, local_range, group_range);
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
