// sycl_ext_oneapi_prefetch (seed 000): prefetch() and joint_prefetch() into a chosen cache level.
//
// The hint is a compile-time property; the per-target instructions live in
// detail/device/<target>_memory.hpp (host: prefetcht0/t1/t2/nta per 64-byte line; NVIDIA:
// prefetch.global.L1/L2/L2::evict_last, evict-first bulk prefetch for _nt, one bulk prefetch per
// group on sm_90). A prefetch is only a hint: it never changes a result and never faults, also
// for memory that is not global (a generic pointer to local or private memory is skipped).
#pragma once

#include <sycl/access.hpp>
#include <sycl/accessor.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/id.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_item.hpp>

#include <cstddef>
#include <type_traits>

// seed 000 "Feature test macro".
#define SYCL_EXT_ONEAPI_PREFETCH 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// seed 000 "Cache levels".
enum class cache_level {
  L1,
  L2,
  L3,
  L4,
};

// The data will not be reused: prefetch without displacing data that will.
struct nontemporal;

struct prefetch_hint_key {
  template <cache_level Level, typename Hint>
  using value_t =
      property_value<prefetch_hint_key, std::integral_constant<cache_level, Level>, Hint>;
};
template <>
struct is_property_key<prefetch_hint_key> : std::true_type {};
namespace detail {
// "When multiple cache levels are specified, the lowest level takes precedence."
template <>
struct is_repeatable_key<prefetch_hint_key> : std::true_type {};
} // namespace detail

template <cache_level Level, typename Hint>
inline constexpr prefetch_hint_key::value_t<Level, Hint> prefetch_hint;

inline constexpr prefetch_hint_key::value_t<cache_level::L1, void> prefetch_hint_L1;
inline constexpr prefetch_hint_key::value_t<cache_level::L2, void> prefetch_hint_L2;
inline constexpr prefetch_hint_key::value_t<cache_level::L3, void> prefetch_hint_L3;
inline constexpr prefetch_hint_key::value_t<cache_level::L4, void> prefetch_hint_L4;
inline constexpr prefetch_hint_key::value_t<cache_level::L1, nontemporal> prefetch_hint_L1_nt;
inline constexpr prefetch_hint_key::value_t<cache_level::L2, nontemporal> prefetch_hint_L2_nt;
inline constexpr prefetch_hint_key::value_t<cache_level::L3, nontemporal> prefetch_hint_L3_nt;
inline constexpr prefetch_hint_key::value_t<cache_level::L4, nontemporal> prefetch_hint_L4_nt;

namespace detail {
// The cache level and temporality a property list asks for: the lowest level among its
// prefetch hints (L1 when there is none); nontemporal when a hint at that level says so.
struct prefetch_request {
  int level;
  bool nontemporal;
};
template <typename Values>
struct prefetch_hints;
template <typename... Values>
struct prefetch_hints<property_list_t<Values...>> {
  template <typename V>
  struct parts;
  template <cache_level Level, typename Hint>
  struct parts<
      property_value<prefetch_hint_key, std::integral_constant<cache_level, Level>, Hint>> {
    static_assert(std::is_void_v<Hint> || std::is_same_v<Hint, nontemporal>,
                  "prefetch_hint: the hint must be void or nontemporal");
    static constexpr int level = static_cast<int>(Level);
    static constexpr bool is_nontemporal = std::is_same_v<Hint, nontemporal>;
  };
  static constexpr prefetch_request value = [] {
    if constexpr (sizeof...(Values) == 0) {
      return prefetch_request{0, false};
    } else {
      int level = 3;
      ((level = parts<Values>::level < level ? parts<Values>::level : level), ...);
      bool nt = ((parts<Values>::level == level && parts<Values>::is_nontemporal) || ...);
      return prefetch_request{level, nt};
    }
  }();
};
template <typename Properties>
inline constexpr prefetch_request prefetch_request_v =
    prefetch_hints<values_with_key_t<prefetch_hint_key, std::decay_t<Properties>>>::value;

template <typename Properties>
inline constexpr bool is_prefetch_properties_v = is_property_list_v<std::decay_t<Properties>>;
template <typename Group>
inline constexpr bool is_prefetch_group_v = sycl::is_group_v<std::decay_t<Group>>;
constexpr bool is_prefetch_space(access::address_space s) {
  return s == access::address_space::global_space || s == access::address_space::generic_space;
}
template <int Dimensions, access_mode Mode>
inline constexpr bool is_prefetch_accessor_v =
    Dimensions > 0 && (Mode == access_mode::read || Mode == access_mode::read_write);

// Bytes of `count` objects of type T (bytes for void: multi_ptr<const void> counts bytes).
template <typename T>
inline constexpr std::size_t element_bytes = sizeof(T);
template <>
inline constexpr std::size_t element_bytes<const void> = 1;
template <>
inline constexpr std::size_t element_bytes<volatile void> = 1;
template <>
inline constexpr std::size_t element_bytes<const volatile void> = 1;
// The bytes prefetched for one object of type T: an object no larger than its alignment nor than
// the smallest cache line (64 bytes; both powers of two) never straddles two lines, so its first
// byte names its line.
template <typename T>
inline constexpr std::size_t object_bytes =
    sizeof(T) <= alignof(T) && sizeof(T) <= 64 ? 1 : sizeof(T);
template <>
inline constexpr std::size_t object_bytes<const void> = 1;
template <>
inline constexpr std::size_t object_bytes<volatile void> = 1;
template <>
inline constexpr std::size_t object_bytes<const volatile void> = 1;

template <typename T>
struct identity {
  using type = T;
};
template <typename T>
using identity_t = typename identity<T>::type;

// The object pointer `p` points to, with the alignment of its type (1 for void): LLVM uses it
// to see that one object fits a cache line, and folds the line loop to one prefetch.
template <typename T>
SYCLONE_INLINE const void* aligned_address(T* p) {
  const void* v = const_cast<const void*>(static_cast<const volatile void*>(p));
  if constexpr (std::is_void_v<T>)
    return v;
  else
    return __builtin_assume_aligned(v, alignof(T));
}

template <typename Properties, bool KnownGlobal, typename T>
SYCLONE_INLINE void prefetch_bytes(T* p, std::size_t bytes) {
  constexpr prefetch_request r = prefetch_request_v<Properties>;
  sycl::detail::dev::prefetch<r.level, r.nontemporal, KnownGlobal>(aligned_address(p), bytes);
}
template <typename Properties, bool KnownGlobal, typename Group, typename T>
SYCLONE_INLINE void joint_prefetch_bytes(const Group& g, T* p, std::size_t bytes) {
  constexpr prefetch_request r = prefetch_request_v<Properties>;
  // A sub-group may prefetch as one block (SPIR-V: OpSubgroupBlockPrefetchINTEL).
  constexpr bool is_sub_group = std::is_same_v<std::decay_t<Group>, sycl::sub_group>;
  sycl::detail::dev::joint_prefetch<r.level, r.nontemporal, KnownGlobal, is_sub_group>(
      aligned_address(p), bytes, g.get_local_linear_id(), g.get_local_linear_range());
}
// The generic pointer a multi_ptr holds (multi_ptr<void> has no get_raw()).
template <typename T, access::address_space Space, access::decorated IsDecorated>
SYCLONE_INLINE T* raw_pointer(const multi_ptr<T, Space, IsDecorated>& p) {
  return p.get();
}

template <access::address_space Space>
inline constexpr bool known_global = Space == access::address_space::global_space;
} // namespace detail

// seed 000 "Prefetch functions": one work-item's prefetch of the line holding ptr, or of the
// lines holding [ptr, ptr + bytes), or of sizeof(T) or count * sizeof(T) bytes.
template <typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_properties_v<Properties>> prefetch(void* ptr,
                                                                        Properties = {}) {
  detail::prefetch_bytes<Properties, false>(ptr, 1);
}
template <typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_properties_v<Properties>>
prefetch(void* ptr, std::size_t bytes, Properties = {}) {
  detail::prefetch_bytes<Properties, false>(ptr, bytes);
}
template <typename T, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_properties_v<Properties>> prefetch(T* ptr, Properties = {}) {
  detail::prefetch_bytes<Properties, false>(ptr, detail::object_bytes<T>);
}
template <typename T, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_properties_v<Properties>> prefetch(T* ptr, std::size_t count,
                                                                        Properties = {}) {
  detail::prefetch_bytes<Properties, false>(ptr, count * detail::element_bytes<T>);
}

// Only for global_space and generic_space multi_ptrs.
template <access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(multi_ptr<void, AddressSpace, IsDecorated> ptr, Properties = {}) {
  detail::prefetch_bytes<Properties, detail::known_global<AddressSpace>>(detail::raw_pointer(ptr),
                                                                         1);
}
template <access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(multi_ptr<void, AddressSpace, IsDecorated> ptr, std::size_t bytes, Properties = {}) {
  detail::prefetch_bytes<Properties, detail::known_global<AddressSpace>>(detail::raw_pointer(ptr),
                                                                         bytes);
}
template <typename T, access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(multi_ptr<T, AddressSpace, IsDecorated> ptr, Properties = {}) {
  detail::prefetch_bytes<Properties, detail::known_global<AddressSpace>>(detail::raw_pointer(ptr),
                                                                         detail::object_bytes<T>);
}
template <typename T, access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(multi_ptr<T, AddressSpace, IsDecorated> ptr, std::size_t count, Properties = {}) {
  detail::prefetch_bytes<Properties, detail::known_global<AddressSpace>>(
      detail::raw_pointer(ptr), count * detail::element_bytes<T>);
}

// A multi_ptr to local, private or constant memory converts to a raw pointer, which the void*
// overloads would take: these keep the seed's "only global_space or generic_space" a compile
// error instead.
template <typename T, access::address_space AddressSpace, access::decorated IsDecorated,
          typename... Args>
std::enable_if_t<!detail::is_prefetch_space(AddressSpace)>
prefetch(multi_ptr<T, AddressSpace, IsDecorated>, Args&&...) = delete;

// Only for read and read_write accessors of at least one dimension. `offset` is an id; for a
// one-dimensional accessor a plain index converts to it.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_accessor_v<Dimensions, AccessMode> &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(accessor<DataT, Dimensions, AccessMode, target::device, IsPlaceholder> acc,
         detail::identity_t<id<Dimensions>> offset, Properties = {}) {
  detail::prefetch_bytes<Properties, true>(&acc[offset], detail::object_bytes<DataT>);
}
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_accessor_v<Dimensions, AccessMode> &&
                 detail::is_prefetch_properties_v<Properties>>
prefetch(accessor<DataT, Dimensions, AccessMode, target::device, IsPlaceholder> acc,
         detail::identity_t<id<Dimensions>> offset, std::size_t count, Properties = {}) {
  detail::prefetch_bytes<Properties, true>(&acc[offset], count * sizeof(DataT));
}

// seed 000 "Group prefetch functions": the same ranges, prefetched once by the group together.
// `ptr`, the size and the properties must be the same for every work-item of the group.
template <typename Group, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, void* ptr, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, false>(g, ptr, 1);
}
template <typename Group, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, void* ptr, std::size_t bytes, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, false>(g, ptr, bytes);
}
template <typename Group, typename T, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, T* ptr, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, false>(g, ptr, detail::object_bytes<T>);
}
template <typename Group, typename T, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, T* ptr, std::size_t count, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, false>(g, ptr, count * detail::element_bytes<T>);
}

template <typename Group, access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, multi_ptr<void, AddressSpace, IsDecorated> ptr, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, detail::known_global<AddressSpace>>(
      g, detail::raw_pointer(ptr), 1);
}
template <typename Group, access::address_space AddressSpace, access::decorated IsDecorated,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, multi_ptr<void, AddressSpace, IsDecorated> ptr, std::size_t bytes,
               Properties = {}) {
  detail::joint_prefetch_bytes<Properties, detail::known_global<AddressSpace>>(
      g, detail::raw_pointer(ptr), bytes);
}
template <typename Group, typename T, access::address_space AddressSpace,
          access::decorated IsDecorated, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, multi_ptr<T, AddressSpace, IsDecorated> ptr, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, detail::known_global<AddressSpace>>(
      g, detail::raw_pointer(ptr), detail::object_bytes<T>);
}
template <typename Group, typename T, access::address_space AddressSpace,
          access::decorated IsDecorated, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> && detail::is_prefetch_space(AddressSpace) &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, multi_ptr<T, AddressSpace, IsDecorated> ptr, std::size_t count,
               Properties = {}) {
  detail::joint_prefetch_bytes<Properties, detail::known_global<AddressSpace>>(
      g, detail::raw_pointer(ptr), count * detail::element_bytes<T>);
}

template <typename Group, typename T, access::address_space AddressSpace,
          access::decorated IsDecorated, typename... Args>
std::enable_if_t<!detail::is_prefetch_space(AddressSpace)>
joint_prefetch(Group, multi_ptr<T, AddressSpace, IsDecorated>, Args&&...) = delete;

// `offset` as in prefetch(): the seed writes size_t, which converts to id<1>; a
// multi-dimensional accessor takes an id.
template <typename Group, typename DataT, int Dimensions, access_mode AccessMode,
          access::placeholder IsPlaceholder, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> &&
                 detail::is_prefetch_accessor_v<Dimensions, AccessMode> &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, accessor<DataT, Dimensions, AccessMode, target::device, IsPlaceholder> acc,
               detail::identity_t<id<Dimensions>> offset, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, true>(g, &acc[offset], detail::object_bytes<DataT>);
}
template <typename Group, typename DataT, int Dimensions, access_mode AccessMode,
          access::placeholder IsPlaceholder, typename Properties = empty_properties_t>
std::enable_if_t<detail::is_prefetch_group_v<Group> &&
                 detail::is_prefetch_accessor_v<Dimensions, AccessMode> &&
                 detail::is_prefetch_properties_v<Properties>>
joint_prefetch(Group g, accessor<DataT, Dimensions, AccessMode, target::device, IsPlaceholder> acc,
               detail::identity_t<id<Dimensions>> offset, std::size_t count, Properties = {}) {
  detail::joint_prefetch_bytes<Properties, true>(g, &acc[offset], count * sizeof(DataT));
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
