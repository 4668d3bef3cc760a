// SYCL 2020 4.9.4.2.3 hierarchical parallelism: handler::parallel_for_work_group,
// group::parallel_for_work_item, h_item (4.9.1.6) and private_memory (4.10.7.3).
//
// Work-group scope runs as if once per work-group, variables of the work-group scope are shared
// by the group's work-items, and each parallel_for_work_item runs every work-item of the group
// (or of the flexible logical range) with the barriers implied around it.
// - Host: work-group scope runs once and each parallel_for_work_item is a loop, so the
//   semantics hold by construction; work-groups are chunks of a range kernel (no fibers).
// - NVIDIA GPUs: a work-group is a CUDA block with one thread per physical work-item. The JIT's
//   hierarchical pass (src/jit/hierarchical.cpp) finds the kernel and the work-item bodies by
//   marker calls (detail/device/nvptx.hpp), runs the work-group-scope code with its side
//   effects on thread 0, moves the work-group-scope variables to shared memory and puts
//   barriers around each parallel_for_work_item; there every thread runs the logical
//   work-items whose ids equal its own modulo the physical range. private_memory holds one
//   value in each thread's own private memory.
#pragma once

#include <sycl/detail/kernel_launch.hpp>
#include <sycl/handler.hpp>
#include <sycl/item.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/range.hpp>
#include <sycl/reduction.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
struct h_item_access;
// The most work-items per work-group of a hierarchical kernel (a CUDA block's limit).
inline constexpr std::size_t hierarchical_max_group_size = 1024;
// SYCL 2020 5.7/5.8.1 for parallel_for_work_group: throws errc::kernel_not_supported when the
// kernel's device_has or reqd_work_group_size asks what the queue's device lacks, errc::nd_range
// when `local` (the work-group size given, or null) differs from reqd_work_group_size; returns
// true and the required size in `required` when the kernel has one (src/runtime/
// kernel_attributes.cpp).
SYCLONE_EXPORT bool check_hierarchical_attributes(handler& cgh, const char* kernel, int dims,
                                                  const std::size_t* local, std::size_t* required);
} // namespace detail

// SYCL 2020 4.9.1.6. h_item: a work-item of parallel_for_work_item, with its physical ids (from
// parallel_for_work_group) and its logical local id (from a flexible range, if any).
template <int Dimensions>
class h_item {
public:
  static constexpr int dimensions = Dimensions;
  h_item() = delete;

  item<Dimensions, false> get_global() const { return m_global; }
  item<Dimensions, false> get_local() const { return m_logical; }
  item<Dimensions, false> get_logical_local() const { return m_logical; }
  item<Dimensions, false> get_physical_local() const { return m_physical; }
  range<Dimensions> get_global_range() const { return m_global.get_range(); }
  std::size_t get_global_range(int d) const { return m_global.get_range(d); }
  id<Dimensions> get_global_id() const { return m_global.get_id(); }
  std::size_t get_global_id(int d) const { return m_global.get_id(d); }
  range<Dimensions> get_local_range() const { return m_logical.get_range(); }
  std::size_t get_local_range(int d) const { return m_logical.get_range(d); }
  id<Dimensions> get_local_id() const { return m_logical.get_id(); }
  std::size_t get_local_id(int d) const { return m_logical.get_id(d); }
  range<Dimensions> get_logical_local_range() const { return m_logical.get_range(); }
  std::size_t get_logical_local_range(int d) const { return m_logical.get_range(d); }
  id<Dimensions> get_logical_local_id() const { return m_logical.get_id(); }
  std::size_t get_logical_local_id(int d) const { return m_logical.get_id(d); }
  range<Dimensions> get_physical_local_range() const { return m_physical.get_range(); }
  std::size_t get_physical_local_range(int d) const { return m_physical.get_range(d); }
  id<Dimensions> get_physical_local_id() const { return m_physical.get_id(); }
  std::size_t get_physical_local_id(int d) const { return m_physical.get_id(d); }

  friend bool operator==(const h_item& a, const h_item& b) {
    return a.m_global == b.m_global && a.m_physical == b.m_physical && a.m_logical == b.m_logical;
  }
  friend bool operator!=(const h_item& a, const h_item& b) { return !(a == b); }

private:
  friend struct detail::h_item_access;
  h_item(const item<Dimensions, false>& global, const item<Dimensions, false>& physical,
         const item<Dimensions, false>& logical)
      : m_global(global), m_physical(physical), m_logical(logical) {}

  item<Dimensions, false> m_global;
  item<Dimensions, false> m_physical;
  item<Dimensions, false> m_logical;
};

namespace detail {
struct h_item_access {
  template <int D>
  static h_item<D> make(const group<D>& g, const id<D>& physical, const id<D>& logical,
                        const range<D>& logical_range) {
    range<D> local = g.get_local_range();
    id<D> global = g.get_group_id() * local + physical;
    return h_item<D>(item_access::make(global, range<D>(g.get_group_range() * local)),
                     item_access::make(physical, local), item_access::make(logical, logical_range));
  }
};

// Calls f(id) for every id of r, the last dimension fastest.
template <int D, typename F>
SYCLONE_INLINE void for_each_id(const range<D>& r, F&& f) {
  if constexpr (D == 1) {
    for (std::size_t i = 0; i < r[0]; ++i) f(id<1>(i));
  } else if constexpr (D == 2) {
    for (std::size_t i = 0; i < r[0]; ++i)
      for (std::size_t j = 0; j < r[1]; ++j) f(id<2>(i, j));
  } else {
    for (std::size_t i = 0; i < r[0]; ++i)
      for (std::size_t j = 0; j < r[1]; ++j)
        for (std::size_t k = 0; k < r[2]; ++k) f(id<3>(i, j, k));
  }
}

// The logical work-items of one parallel_for_work_item where the work-group scope runs once (the
// host): f(id) for every id of r. When the kernel writes to a sycl::stream, each of them starts
// with its own stream state and its statements end with it (SYCL 2020 4.16).
template <int D, typename F>
SYCLONE_INLINE void for_each_work_item(const range<D>& r, F&& f) {
  if (!dev::hierarchical_stream_items()) {
    for_each_id(r, f);
    return;
  }
  for_each_id(r, [&](const id<D>& i) {
    struct leave {
      ~leave() { dev::hierarchical_leave_item(); }
    };
    dev::hierarchical_enter_item();
    leave on_exit;
    f(i);
  });
}

// SYCL 2020 4.10.7.3 private_memory misuse (src/runtime/hierarchical.cpp): the host throws where
// it happens; a GPU kernel records it in the command's error slot (null on the host), which the
// runtime reads when the command completed and reports as the same asynchronous error.
[[noreturn]] SYCLONE_EXPORT void throw_private_memory_misuse(std::size_t group,
                                                             std::size_t expected_group);
SYCLONE_EXPORT std::uint64_t* hierarchical_error_slot(handler& cgh);

// The linear id of the work-group an h_item belongs to.
template <int D>
SYCLONE_INLINE std::size_t group_linear_id_of(const h_item<D>& it) {
  id<D> group;
  range<D> groups = it.get_global_range();
  for (int d = 0; d < D; ++d) {
    group[d] = it.get_global_id(d) / it.get_physical_local_range(d);
    groups[d] /= it.get_physical_local_range(d);
  }
  return linearize(group, groups);
}

// One parallel_for_work_item on a GPU, run by every thread of the block: the thread is the
// physical work-item delinearize(thread, physical range) and runs the logical ids equal to it
// modulo the physical range, the last dimension fastest. Never inlined before the JIT's
// hierarchical pass, which recognizes it by the marker call (and inlines it afterwards).
// Each logical work-item runs between hierarchical_enter_item and hierarchical_leave_item, which
// give it its own sycl::stream state.
template <int D, typename F>
[[clang::noinline]] void hierarchical_work_items(const group<D>& g, const range<D>& logical,
                                                 const F& func) {
  dev::hierarchical_work_item_scope();
  range<D> physical = g.get_local_range();
  id<D> p = delinearize(dev::hierarchical_local_linear_id(), physical);
  auto run = [&](const id<D>& l) {
    dev::hierarchical_enter_item();
    func(h_item_access::make(g, p, l, logical));
    dev::hierarchical_leave_item();
  };
  if constexpr (D == 1) {
    for (std::size_t i = p[0]; i < logical[0]; i += physical[0]) run(id<1>(i));
  } else if constexpr (D == 2) {
    for (std::size_t i = p[0]; i < logical[0]; i += physical[0])
      for (std::size_t j = p[1]; j < logical[1]; j += physical[1]) run(id<2>(i, j));
  } else {
    for (std::size_t i = p[0]; i < logical[0]; i += physical[0])
      for (std::size_t j = p[1]; j < logical[1]; j += physical[1])
        for (std::size_t k = p[2]; k < logical[2]; k += physical[2]) run(id<3>(i, j, k));
  }
}
} // namespace detail

template <int Dimensions>
template <typename WorkItemFunctionT>
void group<Dimensions>::parallel_for_work_item(const WorkItemFunctionT& func) const {
  if constexpr (detail::dev::hierarchical_spread) {
    detail::hierarchical_work_items(*this, m_local_range, func);
  } else {
    detail::for_each_work_item(m_local_range, [&](const id<Dimensions>& l) {
      func(detail::h_item_access::make(*this, l, l, m_local_range));
    });
  }
}

template <int Dimensions>
template <typename WorkItemFunctionT>
void group<Dimensions>::parallel_for_work_item(range<Dimensions> flexibleRange,
                                               const WorkItemFunctionT& func) const {
  if constexpr (detail::dev::hierarchical_spread) {
    detail::hierarchical_work_items(*this, flexibleRange, func);
  } else {
    // A logical id runs on the physical work-item with the same id modulo the physical range.
    detail::for_each_work_item(flexibleRange, [&](const id<Dimensions>& logical) {
      id<Dimensions> physical;
      for (int d = 0; d < Dimensions; ++d) physical[d] = logical[d] % m_local_range[d];
      func(detail::h_item_access::make(*this, physical, logical, flexibleRange));
    });
  }
}

// SYCL 2020 4.10.7.3. private_memory: one T per physical work-item of the group, declared in
// work-group scope and used inside parallel_for_work_item. On the host an array of the group's
// size; on a GPU one T in each thread's private memory: the marker keeps the object out of the
// shared memory that the other work-group-scope variables move to, and each thread reaching it
// through the same address reaches its own (PTX generic addresses of the local window are
// per thread).
template <typename T, int Dimensions = 1>
class private_memory {
public:
  explicit private_memory(const group<Dimensions>& g)
      : m_group(g.get_group_linear_id()), m_size(g.get_local_linear_range()) {
    if constexpr (detail::dev::is_host) m_values = std::make_unique<T[]>(m_size);
    if constexpr (detail::dev::hierarchical_spread) {
      detail::dev::hierarchical_private(this);
      for (int d = 0; d < Dimensions; ++d) m_base[d] = g.get_group_id(d) * g.get_local_range(d);
    }
  }
  private_memory(const private_memory&) = delete;
  private_memory& operator=(const private_memory&) = delete;

  T& operator()(const h_item<Dimensions>& id) {
    if constexpr (detail::dev::hierarchical_spread) {
      // Each thread holds its own value and returns it; a use with an h_item of another group
      // (whose first work-item is elsewhere: no division on the way) is recorded for the
      // runtime, which reports it when the kernel completed.
      bool mine = true;
      for (int d = 0; d < Dimensions; ++d)
        mine &= id.get_global_id(d) - id.get_physical_local_id(d) == m_base[d];
      if (!mine) detail::dev::hierarchical_report_misuse(detail::group_linear_id_of(id), m_group);
      return m_values;
    } else {
      std::size_t group = detail::group_linear_id_of(id);
      std::size_t local = id.get_physical_local().get_linear_id();
      if (group != m_group || local >= m_size) {
        if constexpr (detail::dev::is_host)
          detail::throw_private_memory_misuse(group, m_group);
        else
          __builtin_trap();
      }
      return m_values[local];
    }
  }

private:
  std::size_t m_group;
  std::size_t m_size;
  std::size_t m_base[Dimensions] = {}; // GPU: the global id of the group's first work-item
  std::conditional_t<detail::dev::is_host, std::unique_ptr<T[]>,
                     std::conditional_t<detail::dev::hierarchical_spread, T,
                                        T[detail::hierarchical_max_group_size]>>
      m_values;
};

namespace detail {
// A hierarchical kernel: one call of the work-group function per work-group.
template <int D, typename F>
struct hierarchical_kernel {
  range<D> m_groups;
  range<D> m_local;
  F m_f;
  std::uint64_t* m_error_slot; // GPU: where private_memory misuse is recorded
  kernel_handler m_kh;

  SYCLONE_INLINE void run_group(std::size_t linear) const {
    group<D> g = nd_item_access::make_group(delinearize(linear, m_groups), m_local, m_groups);
    if constexpr (takes_kernel_handler_v<F, group<D>>)
      m_f(g, m_kh);
    else
      m_f(g);
  }
  void operator()() const {
    if constexpr (dev::hierarchical_spread) {
      dev::hierarchical_group_scope();
      dev::hierarchical_set_error_slot(m_error_slot);
    }
    if constexpr (!dev::is_host) run_group(dev::group_id(0));
  }
  static void run_range(const void* self, std::size_t begin, std::size_t end) {
    dev::host_kernel_scope in_kernel;
    const auto& k = *static_cast<const hierarchical_kernel*>(self);
    for (std::size_t i = begin; i < end; ++i) k.run_group(i);
  }
  // The host with local accessors: an nd_range of one-item work-groups, item = work-group.
  static void run_item(const void* self, const std::size_t* group, const std::size_t*) {
    dev::host_kernel_scope in_kernel;
    static_cast<const hierarchical_kernel*>(self)->run_group(group[0]);
  }
};
} // namespace detail

template <typename KernelName, typename WorkgroupFunctionType, int Dimensions>
void handler::parallel_for_work_group(range<Dimensions> numWorkGroups,
                                      const WorkgroupFunctionType& kernelFunc) {
  hierarchical_dispatch<KernelName>(numWorkGroups, static_cast<const range<Dimensions>*>(nullptr),
                                    kernelFunc);
}
template <typename KernelName, typename WorkgroupFunctionType, int Dimensions>
void handler::parallel_for_work_group(range<Dimensions> numWorkGroups,
                                      range<Dimensions> workGroupSize,
                                      const WorkgroupFunctionType& kernelFunc) {
  hierarchical_dispatch<KernelName>(numWorkGroups, &workGroupSize, kernelFunc);
}

template <typename KernelName, int D, typename F>
void handler::hierarchical_dispatch(range<D> groups, const range<D>* local_size, const F& f) {
  using name_t = detail::kernel_name_t<KernelName, F>;
  using object_t = detail::hierarchical_kernel<D, F>;
  detail::reduction_target target = detail::reduction_target_of(*this);
  std::size_t limit = target.max_work_group_size < detail::hierarchical_max_group_size
                          ? target.max_work_group_size
                          : detail::hierarchical_max_group_size;
  range<D> local = groups;
  for (int d = 0; d < D; ++d) local[d] = 1;
  std::size_t given[3] = {0, 0, 0}, required[3] = {0, 0, 0};
  if (local_size)
    for (int d = 0; d < D; ++d) given[d] = (*local_size)[d];
  bool has_required = detail::check_hierarchical_attributes(*this, detail::kernel_name<name_t>(), D,
                                                            local_size ? given : nullptr, required);
  if (!local_size && has_required) {
    // [[sycl::reqd_work_group_size]] sets the implementation-defined work-group size.
    for (int d = 0; d < D; ++d) local[d] = required[d];
  } else if (local_size) {
    local = *local_size;
    for (int d = 0; d < D; ++d)
      if (local[d] == 0)
        detail::throw_error(errc::nd_range, "parallel_for_work_group: the work-group size is 0 "
                                            "in dimension " +
                                                std::to_string(d));
    if (local.size() > limit)
      detail::throw_error(errc::nd_range,
                          "parallel_for_work_group: a work-group of " +
                              std::to_string(local.size()) + " work-items exceeds the " +
                              std::to_string(limit) +
                              " this device runs in hierarchical kernels; use smaller "
                              "work-groups (a flexible range in parallel_for_work_item may "
                              "still be larger)");
  } else {
    // Implementation-defined size (SYCL 2020 4.9.4.2.3): one work-item, as DPC++ chooses, so
    // that a program whose physical ids assume it (the CTS's handler tests do: with a flexible
    // range of 1, h_item::get_global_id() is the group's id) runs the same here. Programs that
    // want more parallelism per group pass a work-group size.
  }
  detail::kernel_launch l =
      prepare<name_t, object_t>(groups, local, f, detail::hierarchical_error_slot(*this));
  l.run_range = &object_t::run_range;
  l.dimensions = 1;
  if (target.host) {
    // One call of run_range per chunk of work-groups; with local accessors the runtime runs
    // run_item per work-group instead (each work-group needs its block of local memory).
    l.kind = detail::kernel_kind::range;
    l.global[0] = groups.size();
    l.run_item = &object_t::run_item;
  } else {
    // A 1-D block per work-group, one thread per physical work-item (see the top of this file).
    l.kind = detail::kernel_kind::nd_range;
    l.global[0] = groups.size() * local.size();
    l.local[0] = local.size();
  }
  l.required_sub_group_size = detail::note_sub_group_size<name_t, F, no_properties>();
  set_kernel(std::move(l));
}

SYCLONE_END_NAMESPACE
