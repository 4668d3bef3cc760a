// Kernel launch glue (DESIGN.md "Kernel launch"). A command group's kernel becomes a kernel
// object: the user's functor plus what the device needs to compute ids. Its bytes are the one
// parameter of the device kernel (clang's sycl_kernel_entry_point); on the host the same object
// runs through type-erased entry points whose loops live here, so the host compiler inlines and
// vectorizes the functor.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/host_loops.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/id.hpp>
#include <sycl/item.hpp>
#include <sycl/kernel_handler.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/range.hpp>

#include <memory>
#include <type_traits>
#include <typeinfo>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// The device compile turns each instantiation into a kernel named after KernelName; the host
// compile emits nothing for the call (the runtime launches by name).
#if SYCLONE_SYCL_COMPILER
template <typename KernelName, typename KernelObject>
[[clang::sycl_kernel_entry_point(KernelName)]] void kernel_entry(KernelObject object) {
  object();
}
#endif

struct auto_name {};
template <typename Name, typename Functor>
using kernel_name_t = std::conditional_t<std::is_same_v<Name, auto_name>, Functor, Name>;

#if SYCLONE_SYCL_COMPILER
// A kernel name of internal linkage (a lambda or class in a static function or an anonymous
// namespace) mangles alike in every translation unit that has one, and the linked device image
// would keep one kernel for all of them: a launch from one unit could run another's code. Such
// names are taken as tu_local<Name, SYCLONE_TU_ID>, which syclone++ makes unique per unit
// (a hash of the source's path). Read from the Itanium mangling, source names skipped: an
// anonymous namespace, an unnamed type ($_), or `L` plus a source name where a name starts
// (static functions and variables). An `L` that opens a template argument (after `I` or `E`)
// is a literal; the rare literal of an enumeration type right after a type argument reads as
// internal, which only makes that kernel's name unique per unit.
#ifndef __SYCLONE_TU_ID__
#define __SYCLONE_TU_ID__ 0ULL
#endif
constexpr bool mangling_contains(const char* s, const char* part) {
  for (std::size_t i = 0; s[i] != '\0'; ++i) {
    std::size_t k = 0;
    while (part[k] != '\0' && s[i + k] == part[k]) ++k;
    if (part[k] == '\0') return true;
  }
  return false;
}
constexpr bool internal_linkage_mangling(const char* s) {
  if (mangling_contains(s, "_GLOBAL__N_") || mangling_contains(s, "$_")) return true;
  std::size_t length = 0;
  while (s[length] != '\0') ++length;
  const bool type_name = length >= 4 && s[0] == '_' && s[1] == 'Z' && s[2] == 'T' && s[3] == 'S';
  const std::size_t start = type_name ? 4 : 0; // past the "typeinfo name" prefix
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = start;
  while (i < length) {
    const char c = s[i];
    const char before = i > start ? s[i - 1] : '\0';
    if (digit(c)) {
      std::size_t n = 0, j = i;
      while (j < length && digit(s[j])) n = n * 10 + static_cast<std::size_t>(s[j++] - '0');
      // Substitutions, template parameters, discriminators and array bounds carry numbers;
      // elsewhere a number is a source name's length: its characters are a name, not mangling.
      if (before == 'S' || before == 'T' || before == '_' || before == 'A')
        i = j;
      else
        i = j + n < length ? j + n : length;
      continue;
    }
    if (c == 'L') {
      const char next = i + 1 < length ? s[i + 1] : '\0';
      if (digit(next)) {
        if (before != 'I' && before != 'E') return true; // L<source-name>: internal linkage
        ++i; // a literal of a class or enumeration type: its type's name follows
        continue;
      }
      if (next == '_' && i + 2 < length && s[i + 2] == 'Z') {
        i += 2; // an entity's address or reference: scan its mangled name too
        continue;
      }
      while (i < length && s[i] != 'E') ++i; // a literal of a built-in type
      continue;
    }
    ++i;
  }
  return false;
}
template <typename Name, unsigned long long TU>
struct tu_local {};
template <typename Name>
using unique_kernel_name_t =
    std::conditional_t<internal_linkage_mangling(__builtin_sycl_unique_stable_name(Name)),
                       tu_local<Name, __SYCLONE_TU_ID__>, Name>;
#else
template <typename Name>
using unique_kernel_name_t = Name;
#endif

template <typename Name>
const char* kernel_name() {
#if SYCLONE_SYCL_COMPILER
  return __builtin_sycl_unique_stable_name(unique_kernel_name_t<Name>);
#else
  return typeid(Name).name();
#endif
}

enum class kernel_kind : std::uint8_t { single_task, range, nd_range };

// Named sub-group sizes of seed 004 ([[intel::named_sub_group_size(primary|automatic)]]) where a
// number would stand.
inline constexpr std::uint32_t sub_group_size_primary = 0xffffffffu;
inline constexpr std::uint32_t sub_group_size_automatic = 0xfffffffeu;

// What a handler records for a kernel (the runtime copies it into the command).
struct kernel_launch {
  const char* name = nullptr;
  kernel_kind kind = kernel_kind::single_task;
  int dimensions = 1;
  std::size_t global[3] = {1, 1, 1}; // range / nd_range global size, SYCL dimension order
  std::size_t local[3] = {1, 1, 1};  // nd_range only
  std::shared_ptr<void> object;      // the kernel object (host copy)
  std::size_t object_size = 0;
  kernel_handler* handler_slot = nullptr;               // inside object, when the functor takes one
  const spec_constant_values* spec_constants = nullptr; // set by the runtime at submission
  // Seed 004 / SYCL 2020 5.8.1 required sub-group size: 0 when the kernel states none, else N,
  // sub_group_size_primary or sub_group_size_automatic (from a sub_group_size property).
  std::uint32_t required_sub_group_size = 0;
  // The sub-group size the device runs the kernel with, chosen by the runtime at submission.
  std::uint32_t sub_group_size = 0;
  // sycl_ext_oneapi_root_group's use_root_sync: every work-group runs at once (a cooperative
  // launch), so that the kernel may synchronize its root group.
  bool root_sync = false;
  // What the backend found for this launch at submission (runtime::stream::
  // prepare_kernel_launch), for the stream of the same queue to launch without a second lookup.
  void* prepared = nullptr;
  // The command group made a sycl::stream: the host runs work-items one by one so that each
  // starts with its own formatting state and statement (SYCL 2020 4.16; set at submission).
  bool work_item_streams = false;
  void (*run_single)(const void* object) = nullptr;
  void (*run_range)(const void* object, std::size_t begin, std::size_t end) = nullptr;
  void (*run_item)(const void* object, const std::size_t* group,
                   const std::size_t* local) = nullptr;
  // nd_range: one whole work-group through the work-item loop compiler (host_loops.hpp); null
  // where the kernel has no such entry (the host then runs run_item on fibers).
  const char* (*run_group)(host::group_frame* frame) = nullptr;
};

template <typename F, typename... Args>
inline constexpr bool takes_kernel_handler_v =
    std::is_invocable_v<const F&, Args..., kernel_handler>;

template <int D>
SYCLONE_INLINE int hw_dim(int sycl_dim) {
  return D - 1 - sycl_dim; // SYCL's last dimension varies fastest: hardware x
}

template <typename F>
struct single_task_kernel {
  F m_f;
  kernel_handler m_kh;

  SYCLONE_INLINE void invoke() const {
    if constexpr (takes_kernel_handler_v<F>)
      m_f(m_kh);
    else
      m_f();
  }
  void operator()() const { invoke(); }
  static void run_single(const void* self) {
    dev::host_kernel_scope in_kernel;
    static_cast<const single_task_kernel*>(self)->invoke();
  }
};

template <int D, typename F>
struct range_kernel {
  range<D> m_range;
  F m_f;
  kernel_handler m_kh;

  using item_t = item<D, false>;
  SYCLONE_INLINE void invoke(const id<D>& i) const {
    item_t it = item_access::make(i, m_range);
    if constexpr (takes_kernel_handler_v<F, item_t>)
      m_f(it, m_kh);
    else
      m_f(it);
  }
  // Device body: one work-item per hardware thread, surplus threads of the last block idle.
  void operator()() const {
    if constexpr (!dev::is_host) {
      id<D> i;
      for (int d = 0; d < D; ++d) {
        int h = hw_dim<D>(d);
        i[d] = dev::group_id(h) * dev::local_range(h) + dev::local_id(h);
        if (i[d] >= m_range[d]) return;
      }
      invoke(i);
    }
  }
  // Host body: linear indices [begin, end) in a tight loop.
  static void run_range(const void* self, std::size_t begin, std::size_t end) {
    dev::host_kernel_scope in_kernel;
    const auto& k = *static_cast<const range_kernel*>(self);
    if constexpr (D == 1) {
      for (std::size_t i = begin; i < end; ++i) k.invoke(id<1>(i));
    } else {
      if (begin >= end) return;
      id<D> i = delinearize(begin, k.m_range);
      for (std::size_t n = begin; n < end; ++n) {
        k.invoke(i);
        for (int d = D - 1; d >= 0; --d) {
          if (++i[d] < k.m_range[d]) break;
          i[d] = 0;
        }
      }
    }
  }
};

// Host: one work-item's body for the work-item loop compiler, which turns host_run_group into
// loops over the work-group (host_loops.hpp). K::invoke(group id, local id) runs a work-item;
// ids arrive right-aligned (the last SYCL dimension is c).
template <int D, typename K>
void host_work_item(const void* self, const std::size_t* group, std::size_t a, std::size_t b,
                    std::size_t c) {
  id<D> g, l;
  for (int d = 0; d < D; ++d) g[d] = group[d];
  if constexpr (D == 1) {
    l[0] = c;
  } else if constexpr (D == 2) {
    l[0] = b;
    l[1] = c;
  } else {
    l[0] = a;
    l[1] = b;
    l[2] = c;
  }
  static_cast<const K*>(self)->invoke(g, l);
}
// SubGroup: the sub-group size the launch's properties require (0: none, or a named size), for
// the loop compiler to build its loops for that size alone. The pass replaces plain calls of
// __syclone_host_work_group_loops: this function has no cleanup that would make it an invoke,
// and stays out of line so that inlining it into host_run_group's scope does not either.
template <int D, typename K, std::uint32_t SubGroup>
[[gnu::noinline]] const char* host_group_loops(host::group_frame* frame) {
  return __syclone_host_work_group_loops(&host_work_item<D, K>, frame, SubGroup);
}
template <int D, typename K, std::uint32_t SubGroup = 0>
const char* host_run_group(host::group_frame* frame) {
  dev::host_kernel_scope in_kernel;
  return host_group_loops<D, K, SubGroup>(frame);
}

// What every nd_range kernel object starts with: khr::this_nd_item on the host reads it from the
// object of the running work-item (work_item_queries.hpp).
template <int D>
struct nd_range_header {
  std::size_t m_dimensions; // D, at the same place for every D
  range<D> m_local;
  range<D> m_groups;
  id<D> m_offset; // the nd_range's (deprecated) offset
};

template <int D, typename F>
struct nd_range_kernel {
  nd_range_header<D> m_header; // first: at the object's address
  F m_f;
  kernel_handler m_kh;

  SYCLONE_INLINE void invoke(const id<D>& g, const id<D>& l) const {
    nd_item<D> it =
        nd_item_access::make(g, l, m_header.m_local, m_header.m_groups, m_header.m_offset);
    if constexpr (takes_kernel_handler_v<F, nd_item<D>>)
      m_f(it, m_kh);
    else
      m_f(it);
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
    const auto& k = *static_cast<const nd_range_kernel*>(self);
    id<D> g, l;
    for (int d = 0; d < D; ++d) {
      g[d] = group[d];
      l[d] = local[d];
    }
    k.invoke(g, l);
  }
};

} // namespace detail
SYCLONE_END_NAMESPACE
