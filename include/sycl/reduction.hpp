// SYCL 2020 4.9.2. Reduction variables: sycl::reduction, sycl::reducer and the parallel_for forms
// that take reductions before the kernel (4.9.4.2.2).
//
// How a reduction runs (DESIGN.md "phase 2"): every work-item combines into private reducers;
// at the end of the work-item the reducers of a work-group are combined with the group
// primitives of the target (warp shuffles / redux.sync and one shared-memory step on NVIDIA
// GPUs), the work-group's leader stores the group's partial result in scratch memory, and the
// last work-group to finish (one atomic counter) combines the partials in order and writes the
// variable, combined with its original value unless property::reduction::initialize_to_identity
// was given. One kernel launch, deterministic for a given launch shape. Range reductions on a
// GPU run as many work-groups as fill the device, each work-item striding over the range. On the
// host device a range reduction runs as chunks of a tight loop with per-chunk partials, combined
// under a lock when the chunk ends; the last chunk writes the variable.
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/buffer.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/group_types.hpp>
#include <sycl/functional.hpp>
#include <sycl/handler.hpp>
#include <sycl/known_identity.hpp>
#include <sycl/property_list.hpp>
#include <sycl/span.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.9.2.1. Reduction properties.
namespace property::reduction {
struct initialize_to_identity {};
} // namespace property::reduction
template <>
struct is_property<property::reduction::initialize_to_identity> : std::true_type {};

template <typename T, typename BinaryOperation, int Dimensions, typename Var>
class reducer;

namespace detail {

// What sycl::reduction returns: the variable's device address, its operation and identity.
// Copied into the kernel object, so it is trivially copyable when T and the operation are.
// Extent 0: a scalar; otherwise the elements of a span.
template <typename T, typename Op, std::size_t Extent, bool HasIdentity>
struct reduction_var : reduction_tag {
  using value_type = T;
  using binary_operation = Op;
  static constexpr std::size_t extent = Extent;
  static constexpr std::size_t count = Extent == 0 ? 1 : Extent;
  static constexpr bool has_identity = HasIdentity;
  // One element's partial result: without an identity, a value that may be absent.
  using elem = std::conditional_t<HasIdentity, T, opt<T>>;
  using reducer_type = reducer<T, Op, Extent == 0 ? 0 : 1, reduction_var>;

  T* m_ptr = nullptr;
  // A buffer variable's result also goes here, pinned host memory the runtime gave
  // (reduction_buffer_mirror): a host accessor right after the kernel reads it without a copy.
  T* m_mirror = nullptr;
  T m_identity{};
  Op m_op;
  bool m_init_to_identity = false;
  bool m_usm = false; // a USM pointer, checked against the queue's context at submission

  SYCLONE_INLINE elem initial() const {
    if constexpr (HasIdentity)
      return m_identity;
    else
      return elem{T{}, false};
  }
  SYCLONE_INLINE elem merge(const elem& a, const elem& b) const {
    if constexpr (HasIdentity)
      return static_cast<T>(m_op(a, b));
    else
      return opt_op<Op>{m_op}(a, b);
  }
  // The combination of every work-item, written to the variable (element k).
  SYCLONE_INLINE void write(std::size_t k, const elem& total) const {
    T* p = m_ptr + k;
    if constexpr (HasIdentity) {
      T v = m_init_to_identity ? total : static_cast<T>(m_op(*p, total));
      *p = v;
      if (m_mirror) m_mirror[k] = v;
    } else if (total.has) {
      T v = m_init_to_identity ? total.value : static_cast<T>(m_op(*p, total.value));
      *p = v;
      if (m_mirror) m_mirror[k] = v;
    } else if (m_mirror) {
      m_mirror[k] = *p; // nothing combined: the variable keeps its value
    }
  }
};

template <typename Var>
struct merge_fn {
  const Var* var;
  SYCLONE_INLINE typename Var::elem operator()(const typename Var::elem& a,
                                               const typename Var::elem& b) const {
    return var->merge(a, b);
  }
};

template <typename Op, typename T>
inline constexpr bool is_plus_v = is_op_v<plus, Op, T>;
template <typename Op, typename T>
inline constexpr bool is_mult_v = is_op_v<multiplies, Op, T>;

// GPU strategy "atomic" (reduction_target::atomic_groups): each work-group combines its result
// into one accumulator with an atomic, and the last work-group writes the variable. Only for an
// operation with an atomic form whose identity is all zero bits (the accumulator starts
// zeroed and the last work-group zeroes it again), on 4- or 8-byte integers and floats.
template <typename Var>
inline constexpr bool atomic_groups_v = [] {
  using T = typename Var::value_type;
  using Op = typename Var::binary_operation;
  constexpr bool sized = (sizeof(T) == 4 || sizeof(T) == 8) && !std::is_same_v<T, bool>;
  if constexpr (!Var::has_identity || !sized) {
    return false;
  } else if constexpr (std::is_floating_point_v<T>) {
    return dev::atomic_float_rmw_native && is_op_v<plus, Op, T>;
  } else if constexpr (std::is_integral_v<T>) {
    return is_op_v<plus, Op, T> || is_op_v<bit_or, Op, T> || is_op_v<bit_xor, Op, T>;
  } else {
    return false;
  }
}();

struct reducer_access;
} // namespace detail

// SYCL 2020 4.9.2.2. reducer: what the kernel combines its values into. Neither copyable nor
// movable; the kernel receives a reference.
template <typename T, typename BinaryOperation, typename Var>
class reducer<T, BinaryOperation, 0, Var> {
public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = 0;

  explicit reducer(const Var* var) : m_value(var->initial()), m_var(var) {}
  reducer(const reducer&) = delete;
  reducer(reducer&&) = delete;
  reducer& operator=(const reducer&) = delete;
  reducer& operator=(reducer&&) = delete;

  reducer& combine(const T& partial) {
    if constexpr (Var::has_identity) {
      m_value = static_cast<T>(m_var->m_op(m_value, partial));
    } else {
      m_value.value = m_value.has ? static_cast<T>(m_var->m_op(m_value.value, partial)) : partial;
      m_value.has = true;
    }
    return *this;
  }
  // Available where the identity is known (has_known_identity) or was given to reduction().
  template <bool H = Var::has_identity, typename = std::enable_if_t<H>>
  T identity() const {
    return m_var->m_identity;
  }

  // SYCL 2020 4.9.2.2 operators, each for the operation it names.
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_plus_v<Op, T>>>
  reducer& operator+=(const T& x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_mult_v<Op, T>>>
  reducer& operator*=(const T& x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_op_v<bit_or, Op, T>>>
  reducer& operator|=(const T& x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_op_v<bit_and, Op, T>>>
  reducer& operator&=(const T& x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_op_v<bit_xor, Op, T>>>
  reducer& operator^=(const T& x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_plus_v<Op, T> && std::is_integral_v<T> &&
                                        !std::is_same_v<T, bool>>>
  reducer& operator++() {
    return combine(T(1));
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_plus_v<Op, T> && std::is_integral_v<T> &&
                                        !std::is_same_v<T, bool>>>
  void operator++(int) {
    combine(T(1));
  }

private:
  friend struct detail::reducer_access;
  template <typename, typename, int, typename>
  friend class reducer;
  reducer() = default; // elements of a span reducer, set up by it
  typename Var::elem m_value;
  const Var* m_var = nullptr;
};

// Span reductions: one reducer per element, reached with operator[].
template <typename T, typename BinaryOperation, typename Var>
class reducer<T, BinaryOperation, 1, Var> {
public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = 1;
  using element_reducer = reducer<T, BinaryOperation, 0, Var>;

  explicit reducer(const Var* var) {
    for (std::size_t k = 0; k < Var::count; ++k) {
      m_elems[k].m_value = var->initial();
      m_elems[k].m_var = var;
    }
  }
  reducer(const reducer&) = delete;
  reducer(reducer&&) = delete;
  reducer& operator=(const reducer&) = delete;
  reducer& operator=(reducer&&) = delete;

  element_reducer& operator[](std::size_t index) { return m_elems[index]; }
  template <bool H = Var::has_identity, typename = std::enable_if_t<H>>
  T identity() const {
    return m_elems[0].identity();
  }

private:
  friend struct detail::reducer_access;
  element_reducer m_elems[Var::count];
};

namespace detail {
struct reducer_access {
  template <typename T, typename Op, typename Var>
  static typename Var::elem& elem(reducer<T, Op, 0, Var>& r, std::size_t) {
    return r.m_value;
  }
  template <typename T, typename Op, typename Var>
  static typename Var::elem& elem(reducer<T, Op, 1, Var>& r, std::size_t k) {
    return r.m_elems[k].m_value;
  }
};

// Runtime services (src/runtime/reduction.cpp).
struct reduction_target {
  bool host; // the host CPU device (range reductions run as chunks)
  std::uint32_t compute_units;
  std::uint32_t max_work_group_size;
  // GPU: how the work-groups' results combine (reductions where atomic_groups_v holds):
  // false, each work-group stores its result and the last one combines them all; true, each
  // work-group combines its result into one accumulator with an atomic. From
  // SYCLONE_REDUCTION_STRATEGY=atomic|last-group (default last-group), for measuring both.
  bool atomic_groups;
};
SYCLONE_EXPORT reduction_target reduction_target_of(handler& cgh);
// Zero-initialized scratch memory on the command group's device, valid until its command
// completed (the command keeps it).
SYCLONE_EXPORT std::byte* reduction_scratch(handler& cgh, std::size_t bytes);
// The same, from blocks that every kernel using them leaves zeroed (the atomic strategy's
// accumulators), never shared with reduction_scratch's blocks.
SYCLONE_EXPORT std::byte* reduction_scratch_zeroed(handler& cgh, std::size_t bytes);
// Throws errc::invalid unless `ptr` is USM memory of the queue's context.
SYCLONE_EXPORT void check_reduction_pointer(handler& cgh, const void* ptr, std::size_t index);
// Whether the command group made a sycl::stream (src/runtime/stream.cpp): then each work-item of a
// GPU range reduction, where a thread runs several, gets its own stream state.
SYCLONE_EXPORT bool command_writes_stream(handler& cgh);
// A buffer reduction variable on a GPU: pinned host memory of `bytes` that the kernel writes the
// result to as well, so that a host accessor after the kernel reads it there instead of copying
// the buffer back (issue 14); null where that does not apply (the host device, a sub-buffer, a
// buffer larger than the variable, SYCLONE_REDUCTION_MIRROR=0).
SYCLONE_EXPORT void* reduction_buffer_mirror(handler& cgh, buffer_impl& b, std::size_t bytes);
// A result in shared memory on a GPU: advises the device to keep the `bytes` at `ptr` mapped
// instead of migrating their page to the device at each reduction and back at each host read
// (unless SYCLONE_REDUCTION_SHARED_ADVICE=0).
SYCLONE_EXPORT void prepare_reduction_result(handler& cgh, void* ptr, std::size_t bytes);

// Scratch: [0, 8) the count of finished work-groups (chunks on the host), [8, 12) the host's
// lock, then one region per reduction from m_offsets[i]: the partial results of the
// work-groups (groups * count elements), or on the host the running accumulators.
inline constexpr std::size_t reduction_header_bytes = 64;

template <typename... Vars>
struct reduction_pack {
  std::tuple<Vars...> m_vars;
  std::byte* m_scratch;
  std::size_t m_offsets[sizeof...(Vars)];
  std::uint64_t m_groups; // work-groups of the launch (the host's range path: items)
  bool m_atomic = false;  // the GPU's atomic strategy (every reduction atomic_groups_v)

  static constexpr bool atomic_capable = (atomic_groups_v<Vars> && ...);

  using reducers = std::tuple<typename Vars::reducer_type...>;

  template <std::size_t... I>
  SYCLONE_INLINE reducers make(std::index_sequence<I...>) const {
    return reducers(&std::get<I>(m_vars)...);
  }

  // GPU range reductions: each thread takes this many consecutive elements per step, each into
  // its own set of partial values, so that enough bytes are in flight per thread. One 4-byte
  // load per thread and step leaves HBM idle: a sum of 2^28 floats ran at 0.86x CUB with one
  // element per step and 0.98-1.13x with four, while kernels that load 16 bytes per element (a
  // dot product of doubles) run at the native speed with one and lose 1-6% with more
  // (bench/results/hierarchical_reduction.md). The reduction's element size stands in for what
  // the kernel loads.
  static constexpr std::size_t max_elem_bytes = std::max({sizeof(typename Vars::elem)...});
  static constexpr std::size_t partial_bytes = ((sizeof(typename Vars::elem) * Vars::count) + ...);
  static constexpr int unroll = max_elem_bytes <= 4 && partial_bytes <= 16 ? 4 : 1;

  template <std::size_t... K>
  SYCLONE_INLINE std::array<reducers, sizeof...(K)> make_n(std::index_sequence<K...>) const {
    return {{((void)K, make(std::index_sequence_for<Vars...>{}))...}};
  }
  // Folds the partial values of `from` into those of `into` (a thread's sets of partial values).
  template <std::size_t... I>
  SYCLONE_INLINE void merge(reducers& into, reducers& from, std::index_sequence<I...>) const {
    (merge_one<I>(std::get<I>(into), std::get<I>(from)), ...);
  }
  template <std::size_t I, typename R>
  SYCLONE_INLINE void merge_one(R& into, R& from) const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    for (std::size_t k = 0; k < V::count; ++k)
      reducer_access::elem(into, k) =
          var.merge(reducer_access::elem(into, k), reducer_access::elem(from, k));
  }

  std::uint64_t* counter() const { return reinterpret_cast<std::uint64_t*>(m_scratch); }
  std::uint32_t* lock() const { return reinterpret_cast<std::uint32_t*>(m_scratch + 8); }
  template <std::size_t I>
  typename std::tuple_element_t<I, std::tuple<Vars...>>::elem* partials() const {
    using elem = typename std::tuple_element_t<I, std::tuple<Vars...>>::elem;
    return reinterpret_cast<elem*>(m_scratch + m_offsets[I]);
  }

  // A value written by another work-group: read at device scope, past any stale cache line.
  template <typename T>
  SYCLONE_INLINE static T load_shared(const T* p) {
    if constexpr (dev::is_host) {
      return *p;
    } else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
      constexpr std::size_t n = sizeof(T) / 4;
      std::uint32_t w[n];
      const std::uint32_t* src = reinterpret_cast<const std::uint32_t*>(p);
      for (std::size_t i = 0; i < n; ++i)
        w[i] = __scoped_atomic_load_n(src + i, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
      T r;
      __builtin_memcpy(static_cast<void*>(&r), w, sizeof(T));
      return r;
    } else {
      // Elements of 1 or 2 bytes (char, bool, half ...): volatile byte loads, which bypass
      // the L1 cache too.
      unsigned char b[sizeof(T)];
      const volatile unsigned char* src = reinterpret_cast<const volatile unsigned char*>(p);
      for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = src[i];
      T r;
      __builtin_memcpy(static_cast<void*>(&r), b, sizeof(T));
      return r;
    }
  }

  // Work-group step, then the last work-group's final step. Every work-item of the group calls
  // it once, after the kernel (the group functions synchronize the work-group).
  template <std::size_t... I>
  SYCLONE_INLINE void finish_group(reducers& r, wg_info wg, std::uint64_t group,
                                   std::index_sequence<I...>) const {
    if constexpr (atomic_capable && !dev::is_host) {
      if (m_atomic) {
        finish_group_atomic(r, wg, std::index_sequence<I...>{});
        return;
      }
    }
    (store_partial<I>(std::get<I>(r), wg, group), ...);
    bool mine_last = false;
    if (wg.id == 0) {
      dev::atomic_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
      std::uint64_t done = __scoped_atomic_fetch_add(counter(), std::uint64_t(1), __ATOMIC_RELAXED,
                                                     __MEMORY_SCOPE_DEVICE);
      mine_last = done + 1 == m_groups;
    }
    if (!dev::work_group_any(wg, mine_last)) return;
    dev::atomic_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
    (combine_partials<I>(wg), ...);
    if (wg.id == 0)
      __scoped_atomic_store_n(counter(), std::uint64_t(0), __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  }
  // The atomic strategy: one atomic per work-group and element into the accumulators
  // (partials<I>()[k]); the last work-group writes the variables and zeroes the accumulators.
  template <std::size_t... I>
  SYCLONE_INLINE void finish_group_atomic(reducers& r, wg_info wg,
                                          std::index_sequence<I...>) const {
    (combine_atomic<I>(std::get<I>(r), wg), ...);
    bool mine_last = false;
    if (wg.id == 0) {
      dev::atomic_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
      std::uint64_t done = __scoped_atomic_fetch_add(counter(), std::uint64_t(1), __ATOMIC_RELAXED,
                                                     __MEMORY_SCOPE_DEVICE);
      mine_last = done + 1 == m_groups;
    }
    if (wg.id != 0 || !mine_last) return;
    dev::atomic_fence(__ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
    (write_atomic<I>(), ...);
    __scoped_atomic_store_n(counter(), std::uint64_t(0), __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  }
  template <std::size_t I, typename R>
  SYCLONE_INLINE void combine_atomic(R& r, wg_info wg) const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    using T = typename V::value_type;
    using Op = typename V::binary_operation;
    merge_fn<V> merge{&var};
    for (std::size_t k = 0; k < V::count; ++k) {
      T v = dev::work_group_reduce(wg, reducer_access::elem(r, k), merge);
      if (wg.id != 0) continue;
      T* acc = partials<I>() + k;
      if constexpr (is_op_v<plus, Op, T>)
        __scoped_atomic_fetch_add(acc, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
      else if constexpr (is_op_v<bit_or, Op, T>)
        __scoped_atomic_fetch_or(acc, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
      else
        __scoped_atomic_fetch_xor(acc, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
    }
  }
  template <std::size_t I>
  SYCLONE_INLINE void write_atomic() const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    using T = typename V::value_type;
    T* acc = partials<I>();
    for (std::size_t k = 0; k < V::count; ++k) {
      T total = load_shared(acc + k);
      acc[k] = T{}; // the next kernel using the block starts after this one completed
      var.write(k, var.merge(var.initial(), total));
    }
  }

  template <std::size_t I, typename R>
  SYCLONE_INLINE void store_partial(R& r, wg_info wg, std::uint64_t group) const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    merge_fn<V> merge{&var};
    for (std::size_t k = 0; k < V::count; ++k) {
      typename V::elem v = dev::work_group_reduce(wg, reducer_access::elem(r, k), merge);
      if (wg.id == 0) partials<I>()[group * V::count + k] = v;
    }
  }
  template <std::size_t I>
  SYCLONE_INLINE void combine_partials(wg_info wg) const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    merge_fn<V> merge{&var};
    const typename V::elem* p = partials<I>();
    for (std::size_t k = 0; k < V::count; ++k) {
      typename V::elem acc = var.initial();
      for (std::uint64_t g = wg.id; g < m_groups; g += wg.size)
        acc = var.merge(acc, load_shared(p + g * V::count + k));
      typename V::elem total = dev::work_group_reduce(wg, acc, merge);
      if (wg.id == 0) var.write(k, total);
    }
  }

  // The host's range path: a chunk's partials join the accumulators under the lock; the chunk
  // that completes the range writes the variables.
  template <std::size_t... I>
  void finish_chunk(reducers& r, std::uint64_t items, std::index_sequence<I...>) const {
    if constexpr (dev::is_host) {
      std::uint32_t* l = lock();
      while (__atomic_exchange_n(l, 1u, __ATOMIC_ACQUIRE) != 0) {
        while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0) {
        }
      }
      (accumulate<I>(std::get<I>(r)), ...);
      __atomic_store_n(l, 0u, __ATOMIC_RELEASE);
      std::uint64_t done = __atomic_add_fetch(counter(), items, __ATOMIC_ACQ_REL);
      if (done == m_groups) (write_accumulated<I>(), ...);
    }
  }
  template <std::size_t I, typename R>
  void accumulate(R& r) const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    auto* acc = reinterpret_cast<opt<typename V::elem>*>(m_scratch + m_offsets[I]);
    for (std::size_t k = 0; k < V::count; ++k) {
      acc[k].value = acc[k].has ? var.merge(acc[k].value, reducer_access::elem(r, k))
                                : reducer_access::elem(r, k);
      acc[k].has = true;
    }
  }
  template <std::size_t I>
  void write_accumulated() const {
    const auto& var = std::get<I>(m_vars);
    using V = std::decay_t<decltype(var)>;
    auto* acc = reinterpret_cast<opt<typename V::elem>*>(m_scratch + m_offsets[I]);
    for (std::size_t k = 0; k < V::count; ++k)
      if (acc[k].has) var.write(k, acc[k].value);
  }
};

// A range reduction. On a GPU it launches as `m_groups` work-groups of `m_local` work-items
// that stride over the range; on the host it runs chunks of linear ids.
template <int D, typename F, typename... Vars>
struct reduction_range_kernel {
  range<D> m_range;
  F m_f;
  reduction_pack<Vars...> m_pack;
  std::uint32_t m_local;
  // GPU: the command group made a sycl::stream. Each work-item then calls a fresh copy of the
  // kernel function, whose stream copy starts with the kernel's state (SYCL 2020 4.16: each
  // work-item has its own), where a thread runs several work-items.
  bool m_fresh_items;
  kernel_handler m_kh;

  using seq = std::index_sequence_for<Vars...>;
  using item_t = item<D, false>;
  SYCLONE_INLINE void invoke(const F& f, std::size_t linear,
                             typename reduction_pack<Vars...>::reducers& r) const {
    id<D> i;
    if constexpr (D == 1)
      i = id<1>(linear);
    else
      i = delinearize(linear, m_range);
    item_t it = item_access::make(i, m_range);
    std::apply([&](auto&... red) { f(it, red...); }, r);
  }
  void operator()() const {
    if constexpr (!dev::is_host) {
      std::uint64_t lid = dev::local_id(0), group = dev::group_id(0);
      std::uint64_t n = m_range.size(), stride = m_pack.m_groups * m_local;
      auto r = m_pack.make(seq{});
      if (m_fresh_items) {
        for (std::uint64_t i = group * m_local + lid; i < n; i += stride) {
          F f(m_f);
          invoke(f, i, r);
        }
      } else {
        constexpr int U = reduction_pack<Vars...>::unroll;
        if constexpr (U > 1) {
          // U consecutive elements per thread and step, each into its own set of partial values
          // (the operation is associative and commutative: SYCL 2020 4.9.2); the thread's last
          // chunk may be short.
          auto more = m_pack.make_n(std::make_index_sequence<U - 1>{});
          std::uint64_t i = (group * m_local + lid) * U, step = stride * U;
          for (; i + U <= n; i += step) {
            invoke(m_f, i, r);
            for (int u = 1; u < U; ++u) invoke(m_f, i + u, more[u - 1]);
          }
          for (; i < n; ++i) invoke(m_f, i, r);
          for (int u = 0; u < U - 1; ++u) m_pack.merge(r, more[u], seq{});
        } else {
          for (std::uint64_t i = group * m_local + lid; i < n; i += stride) invoke(m_f, i, r);
        }
      }
      m_pack.finish_group(r, wg_info{static_cast<std::uint32_t>(lid), m_local}, group, seq{});
    }
  }
  static void run_range(const void* self, std::size_t begin, std::size_t end) {
    dev::host_kernel_scope in_kernel;
    const auto& k = *static_cast<const reduction_range_kernel*>(self);
    std::size_t n = k.m_range.size(), stop = end < n ? end : n;
    auto r = k.m_pack.make(seq{});
    for (std::size_t i = begin; i < stop; ++i) k.invoke(k.m_f, i, r);
    k.m_pack.finish_chunk(r, end - begin, seq{});
  }
};

// An nd_range reduction: the user's launch shape.
template <int D, typename F, typename... Vars>
struct reduction_nd_kernel {
  nd_range_header<D> m_header; // first, as in nd_range_kernel (khr::this_nd_item reads it)
  F m_f;
  reduction_pack<Vars...> m_pack;
  kernel_handler m_kh;

  using seq = std::index_sequence_for<Vars...>;
  SYCLONE_INLINE void invoke(const id<D>& g, const id<D>& l) const {
    const auto& h = m_header;
    nd_item<D> it = nd_item_access::make(g, l, h.m_local, h.m_groups, h.m_offset);
    auto r = m_pack.make(seq{});
    std::apply([&](auto&... red) { m_f(it, red...); }, r);
    wg_info wg{static_cast<std::uint32_t>(linearize(l, h.m_local)),
               static_cast<std::uint32_t>(h.m_local.size())};
    m_pack.finish_group(r, wg, linearize(g, h.m_groups), seq{});
  }
  void operator()() const {
    if constexpr (!dev::is_host) {
      id<D> g, l;
      for (int d = 0; d < D; ++d) {
        int h = hw_dim<D>(d);
        g[d] = dev::group_id(h);
        l[d] = dev::local_id(h);
        dev::nd_offset[d] = m_header.m_offset[d];
      }
      invoke(g, l);
    }
  }
  static void run_item(const void* self, const std::size_t* group, const std::size_t* local) {
    dev::host_kernel_scope in_kernel;
    const auto& k = *static_cast<const reduction_nd_kernel*>(self);
    id<D> g, l;
    for (int d = 0; d < D; ++d) {
      g[d] = group[d];
      l[d] = local[d];
    }
    k.invoke(g, l);
  }
};

template <typename T>
inline bool init_to_identity(const property_list& props) {
  return props.has_property<property::reduction::initialize_to_identity>();
}
[[noreturn]] SYCLONE_EXPORT void throw_reduction_error(const char* what);

template <typename T, typename Op, std::size_t Extent, bool HasIdentity>
reduction_var<T, Op, Extent, HasIdentity> make_reduction(T* ptr, const T& identity, Op op,
                                                         const property_list& props, bool usm,
                                                         T* mirror = nullptr) {
  // Built whole: a lambda combiner is neither default-constructible nor assignable in C++17.
  reduction_var<T, Op, Extent, HasIdentity> v{
      {}, ptr, mirror, identity, op, init_to_identity<T>(props), usm};
  if constexpr (!HasIdentity)
    if (v.m_init_to_identity)
      throw_reduction_error("reduction: property::reduction::initialize_to_identity needs an "
                            "identity, but the operation has no known identity "
                            "(sycl::has_known_identity is false); pass the identity to "
                            "sycl::reduction(var, identity, combiner, props)");
  return v;
}

template <typename Op, typename T>
inline constexpr bool known_v = has_known_identity_v<Op, T>;
template <typename Op, typename T>
T known_or_default() {
  if constexpr (known_v<Op, T>)
    return known_identity_v<Op, T>;
  else
    return T{};
}

template <typename BufferT>
using buffer_value_t = typename BufferT::value_type;
template <typename T>
inline constexpr bool is_buffer_v = false;
template <typename T, int D, typename A>
inline constexpr bool is_buffer_v<buffer<T, D, A>> = true;

// The variable's device address and its host mirror (reduction_buffer_mirror; may be null).
template <typename T>
struct buffer_variable {
  T* ptr;
  T* mirror;
};
template <typename T, int D, typename A>
buffer_variable<T> reduction_buffer_pointer(buffer<T, D, A>& vars, handler& cgh, bool init) {
  if (vars.size() != 1)
    throw_reduction_error(("reduction: the buffer holds " + std::to_string(vars.size()) +
                           " elements but a buffer reduction variable must have exactly one "
                           "(SYCL 2020 4.9.2.1); use a one-element buffer, or a span over USM "
                           "memory for an array reduction")
                              .c_str());
  T* ptr;
  if (init) {
    accessor<T, D, access_mode::write, target::device> acc(vars, cgh, property_list{no_init});
    ptr = acc.state().m_data;
  } else {
    accessor<T, D, access_mode::read_write, target::device> acc(vars, cgh);
    ptr = acc.state().m_data;
  }
  auto* mirror = reduction_buffer_mirror(cgh, *impl_access::get(vars), sizeof(T));
  return {ptr, static_cast<T*>(mirror)};
}
} // namespace detail

// SYCL 2020 4.9.2.1. reduction interface. A buffer's single element, a USM scalar, or the
// elements of a span over USM memory, each with the operation's known identity or a given one.
template <typename BufferT, typename BinaryOperation,
          typename = std::enable_if_t<detail::is_buffer_v<BufferT>>>
auto reduction(BufferT vars, handler& cgh, BinaryOperation combiner,
               const property_list& props = {}) {
  using T = detail::buffer_value_t<BufferT>;
  constexpr bool known = detail::known_v<BinaryOperation, T>;
  bool init = detail::init_to_identity<T>(props);
  auto var = detail::reduction_buffer_pointer(vars, cgh, init && known);
  return detail::make_reduction<T, BinaryOperation, 0, known>(
      var.ptr, detail::known_or_default<BinaryOperation, T>(), combiner, props, false, var.mirror);
}
template <typename BufferT, typename BinaryOperation,
          typename = std::enable_if_t<detail::is_buffer_v<BufferT>>>
auto reduction(BufferT vars, handler& cgh, const detail::buffer_value_t<BufferT>& identity,
               BinaryOperation combiner, const property_list& props = {}) {
  using T = detail::buffer_value_t<BufferT>;
  bool init = detail::init_to_identity<T>(props);
  auto var = detail::reduction_buffer_pointer(vars, cgh, init);
  return detail::make_reduction<T, BinaryOperation, 0, true>(var.ptr, identity, combiner, props,
                                                             false, var.mirror);
}
template <typename T, typename BinaryOperation,
          typename = std::enable_if_t<!std::is_pointer_v<BinaryOperation> &&
                                      !std::is_same_v<std::decay_t<BinaryOperation>, T>>>
auto reduction(T* var, BinaryOperation combiner, const property_list& props = {}) {
  return detail::make_reduction<T, BinaryOperation, 0, detail::known_v<BinaryOperation, T>>(
      var, detail::known_or_default<BinaryOperation, T>(), combiner, props, true);
}
template <typename T, typename BinaryOperation>
auto reduction(T* var, const T& identity, BinaryOperation combiner,
               const property_list& props = {}) {
  return detail::make_reduction<T, BinaryOperation, 0, true>(var, identity, combiner, props, true);
}
template <typename T, std::size_t Extent, typename BinaryOperation,
          typename = std::enable_if_t<!std::is_same_v<std::decay_t<BinaryOperation>, T>>>
auto reduction(span<T, Extent> vars, BinaryOperation combiner, const property_list& props = {}) {
  static_assert(Extent != dynamic_extent,
                "sycl::reduction over a span needs a span of static extent (SYCL 2020 4.9.2.1): "
                "sycl::span<T, N>(ptr, N)");
  return detail::make_reduction<T, BinaryOperation, Extent, detail::known_v<BinaryOperation, T>>(
      vars.data(), detail::known_or_default<BinaryOperation, T>(), combiner, props, true);
}
template <typename T, std::size_t Extent, typename BinaryOperation>
auto reduction(span<T, Extent> vars, const T& identity, BinaryOperation combiner,
               const property_list& props = {}) {
  static_assert(Extent != dynamic_extent,
                "sycl::reduction over a span needs a span of static extent (SYCL 2020 4.9.2.1): "
                "sycl::span<T, N>(ptr, N)");
  return detail::make_reduction<T, BinaryOperation, Extent, true>(vars.data(), identity, combiner,
                                                                  props, true);
}

// SYCL 2020 4.9.4.2.2. parallel_for with reductions (declared in handler.hpp).
template <typename KernelName, int Dimensions, typename... Rest, typename>
void handler::parallel_for(range<Dimensions> num_work_items, Rest&&... rest) {
  auto args = std::forward_as_tuple(rest...);
  reduction_dispatch<KernelName, no_properties>(num_work_items, args,
                                                std::make_index_sequence<sizeof...(Rest) - 1>{});
}
template <typename KernelName, int Dimensions, typename... Rest, typename>
void handler::parallel_for(nd_range<Dimensions> execution_range, Rest&&... rest) {
  auto args = std::forward_as_tuple(rest...);
  reduction_dispatch<KernelName, no_properties>(execution_range, args,
                                                std::make_index_sequence<sizeof...(Rest) - 1>{});
}
// sycl_ext_oneapi_kernel_properties: the property list before the reductions.
template <typename KernelName, int Dimensions, typename Properties, typename... Rest, typename>
void handler::parallel_for(range<Dimensions> num_work_items, Properties, Rest&&... rest) {
  auto args = std::forward_as_tuple(rest...);
  reduction_dispatch<KernelName, Properties>(num_work_items, args,
                                             std::make_index_sequence<sizeof...(Rest) - 1>{});
}
template <typename KernelName, int Dimensions, typename Properties, typename... Rest, typename>
void handler::parallel_for(nd_range<Dimensions> execution_range, Properties, Rest&&... rest) {
  auto args = std::forward_as_tuple(rest...);
  reduction_dispatch<KernelName, Properties>(execution_range, args,
                                             std::make_index_sequence<sizeof...(Rest) - 1>{});
}

template <typename KernelName, typename Properties, typename Range, typename Args, std::size_t... I>
void handler::reduction_dispatch(Range r, Args& args, std::index_sequence<I...>) {
  static_assert(!detail::has_scratch_size_v<Properties>,
                "work_group_scratch_size (sycl_ext_oneapi_work_group_scratch_memory) is not "
                "taken by kernels with reductions, whose work-group memory syclone uses itself");
  constexpr std::size_t n = sizeof...(I);
  const auto& kernel = std::get<n>(args);
  using kernel_t = std::decay_t<decltype(kernel)>;
  using name_t = detail::kernel_name_t<KernelName, kernel_t>;
  using pack_t = detail::reduction_pack<std::decay_t<std::tuple_element_t<I, Args>>...>;
  if constexpr (std::is_same_v<Range, nd_range<Range::dimensions>>)
    r = resolve_auto_range<name_t>(r); // sycl_ext_oneapi_auto_local_range
  // The sub-group size the launch's properties or the kernel functor require (0: none).
  constexpr std::uint32_t sub_group = detail::note_sub_group_size<name_t, kernel_t, Properties>();
  std::size_t index = 0;
  auto check = [&](const auto& var) {
    if (var.m_usm) {
      detail::check_reduction_pointer(*this, var.m_ptr, index);
      using V = std::decay_t<decltype(var)>;
      detail::prepare_reduction_result(*this, var.m_ptr, sizeof(typename V::value_type) * V::count);
    }
    ++index;
  };
  (check(std::get<I>(args)), ...);
  pack_t pack{{std::get<I>(args)...}, nullptr, {}, 0};

  detail::reduction_target target = detail::reduction_target_of(*this);
  if constexpr (pack_t::atomic_capable) pack.m_atomic = target.atomic_groups && !target.host;
  detail::kernel_launch l;
  std::uint64_t groups = 0;
  if constexpr (std::is_same_v<Range, nd_range<Range::dimensions>>) {
    groups = r.get_group_range().size();
  } else {
    std::uint64_t items = r.size();
    if (target.host) {
      groups = items ? items : 1; // the host counts items; an empty range still writes once
    } else {
      std::uint32_t local = target.max_work_group_size < 256 ? target.max_work_group_size : 256;
      // Enough work-groups to fill the device (2048 resident threads per multiprocessor on
      // sm_80/sm_90), fewer for a short range; each work-item strides over the range.
      std::uint64_t fill = std::uint64_t(target.compute_units) * (2048 / local);
      std::uint64_t needed = (items + local - 1) / local;
      groups = needed < fill ? needed : fill;
      if (groups == 0) groups = 1;
    }
  }
  // Scratch: the header, then per reduction the work-groups' partials (GPU and nd_range) or the
  // host's accumulators.
  std::size_t bytes = detail::reduction_header_bytes;
  std::size_t k = 0;
  auto place = [&](const auto& var) {
    using V = std::decay_t<decltype(var)>;
    std::size_t per = target.host && !std::is_same_v<Range, nd_range<Range::dimensions>>
                          ? sizeof(detail::opt<typename V::elem>) * V::count
                          : sizeof(typename V::elem) * V::count * groups;
    pack.m_offsets[k++] = bytes;
    bytes += (per + 63) / 64 * 64;
  };
  (place(std::get<I>(args)), ...);
  pack.m_scratch = pack.m_atomic ? detail::reduction_scratch_zeroed(*this, bytes)
                                 : detail::reduction_scratch(*this, bytes);
  pack.m_groups = groups;

  if constexpr (std::is_same_v<Range, nd_range<Range::dimensions>>) {
    constexpr int D = Range::dimensions;
    using object_t =
        detail::reduction_nd_kernel<D, kernel_t, std::decay_t<std::tuple_element_t<I, Args>>...>;
    range<D> local = r.get_local_range();
    range<D> group_range = r.get_group_range();
    l = prepare<name_t, object_t>(
        detail::nd_range_header<D>{D, local, group_range, detail::nd_range_access::offset(r)},
        kernel, pack);
    l.kind = detail::kernel_kind::nd_range;
    l.dimensions = D;
    for (int d = 0; d < D; ++d) {
      l.global[d] = r.get_global_range()[d];
      l.local[d] = local[d];
    }
    l.run_item = &object_t::run_item;
#if !SYCLONE_DEVICE
    l.run_group = &detail::host_run_group<D, object_t, sub_group>;
#endif
  } else {
    constexpr int D = Range::dimensions;
    using object_t =
        detail::reduction_range_kernel<D, kernel_t, std::decay_t<std::tuple_element_t<I, Args>>...>;
    std::uint32_t local = target.max_work_group_size < 256 ? target.max_work_group_size : 256;
    l = prepare<name_t, object_t>(r, kernel, pack, local,
                                  !target.host && detail::command_writes_stream(*this));
    l.run_range = &object_t::run_range;
    if (target.host) {
      l.kind = detail::kernel_kind::range;
      l.dimensions = 1;
      l.global[0] = groups;
    } else {
      l.kind = detail::kernel_kind::nd_range;
      l.dimensions = 1;
      l.global[0] = groups * local;
      l.local[0] = local;
    }
  }
  l.required_sub_group_size = sub_group;
  set_kernel(std::move(l));
}

SYCLONE_END_NAMESPACE
