// sycl_ext_oneapi_group_load_store (intel/llvm, experimental): group_load and group_store move
// one element, a sycl::vec or a fixed-size sycl::span of elements per work-item between memory
// (any random access iterator) and the work-items of a work-group or sub-group, in the blocked
// placement (work-item i: elements [i*N, i*N + N)) or the striped one (work-item i: elements
// i, i + R, i + 2R, ... for a group of R work-items). Properties: data_placement_blocked /
// data_placement_striped, and the assertions contiguous_memory and full_group.
//
// Raw pointers (also address-space decorated ones), multi_ptrs and, under contiguous_memory,
// any iterator whose elements are contiguous are accessed as memory: the striped placement and
// single elements directly, the blocked one through dev::group_load_blocked /
// group_store_blocked (detail/device/*_load_store.hpp): on NVIDIA GPUs coalesced accesses and an
// exchange inside each warp, on the host device each work-item's own accesses, which the
// work-item loop compiler vectorizes across work-items. Other iterators take each work-item's
// own elements through the iterator, which is correct for any random access iterator.
//
// The functions are group functions (all work-items of the group call them, in converged
// control flow) but synchronize nothing: as the extension specifies only the elements each
// work-item reads or writes, a work-item that reads what another one stored needs a
// group_barrier in between (DPC++'s generic path happens to have barriers around each call).
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/group_types.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/span.hpp>
#include <sycl/sub_group.hpp>
#include <sycl/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

// sycl_ext_oneapi_group_load_store "Feature test macro".
#define SYCL_EXT_ONEAPI_GROUP_LOAD_STORE 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// "Data Placement".
enum class data_placement_enum { blocked, striped };

struct data_placement_key {
  template <data_placement_enum Type>
  using value_t =
      property_value<data_placement_key, std::integral_constant<data_placement_enum, Type>>;
};
template <data_placement_enum Type>
inline constexpr data_placement_key::value_t<Type> data_placement;
inline constexpr data_placement_key::value_t<data_placement_enum::blocked> data_placement_blocked;
inline constexpr data_placement_key::value_t<data_placement_enum::striped> data_placement_striped;

// "Optimization Properties": the iterator's elements are contiguous in memory ...
struct contiguous_memory_key {
  using value_t = property_value<contiguous_memory_key>;
};
inline constexpr contiguous_memory_key::value_t contiguous_memory;

// ... and the group is full (get_local_range() == get_max_local_range()).
struct full_group_key {
  using value_t = property_value<full_group_key>;
};
inline constexpr full_group_key::value_t full_group;

template <>
struct is_property_key<data_placement_key> : std::true_type {};
template <>
struct is_property_key<contiguous_memory_key> : std::true_type {};
template <>
struct is_property_key<full_group_key> : std::true_type {};

namespace detail {
namespace sd = sycl::detail;

template <typename G>
struct is_load_store_group : std::false_type {};
template <int D>
struct is_load_store_group<sycl::group<D>> : std::true_type {};
template <>
struct is_load_store_group<sycl::sub_group> : std::true_type {};

// What group_load/group_store take as an iterator: a random access iterator (its category
// derived from std::random_access_iterator_tag), and every multi_ptr, also the legacy one,
// which has no iterator types. `value`: its element type without cv and address space.
template <typename It, typename = void>
struct load_store_iterator {
  static constexpr bool valid = false;
  static constexpr bool multi_ptr = false;
  using value = void;
};
template <typename It>
struct load_store_iterator<
    It, std::enable_if_t<std::is_base_of_v<std::random_access_iterator_tag,
                                           typename std::iterator_traits<It>::iterator_category>>> {
  static constexpr bool valid = true;
  static constexpr bool multi_ptr = false;
  using value =
      std::remove_cv_t<remove_decoration_t<typename std::iterator_traits<It>::value_type>>;
};
template <typename It>
struct iterator_of : load_store_iterator<It> {};
template <typename E, access::address_space Space, access::decorated D>
struct iterator_of<sycl::multi_ptr<E, Space, D>> {
  static constexpr bool valid = !std::is_void_v<E>;
  static constexpr bool multi_ptr = true;
  using value = std::remove_cv_t<E>;
};
template <typename It>
using iter_value_t = typename iterator_of<It>::value;

// "trivially copyable and default constructible".
template <typename T>
inline constexpr bool is_element_v =
    std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>;

template <typename It, typename OutputT>
inline constexpr bool load_types_ok = [] {
  if constexpr (!iterator_of<It>::valid)
    return false;
  else
    return is_element_v<iter_value_t<It>> && is_element_v<OutputT> &&
           std::is_convertible_v<iter_value_t<It>, OutputT>;
}();
template <typename InputT, typename It>
inline constexpr bool store_types_ok = [] {
  if constexpr (!iterator_of<It>::valid)
    return false;
  else
    return is_element_v<iter_value_t<It>> && is_element_v<InputT> &&
           std::is_convertible_v<InputT, iter_value_t<It>>;
}();

// The properties argument: a properties list, or (as the extension's examples pass it) one
// property value of this extension alone.
template <typename P>
inline constexpr bool is_own_value_v =
    std::is_same_v<P, data_placement_key::value_t<data_placement_enum::blocked>> ||
    std::is_same_v<P, data_placement_key::value_t<data_placement_enum::striped>> ||
    std::is_same_v<P, contiguous_memory_key::value_t> || std::is_same_v<P, full_group_key::value_t>;
template <typename P>
inline constexpr bool is_properties_arg_v = is_property_list_v<P> || is_own_value_v<P>;
template <typename P, bool List = is_property_list_v<P>>
struct list_of {
  using type = P;
};
template <typename P>
struct list_of<P, false> {
  using type = properties_t<P>;
};
template <typename P>
using list_of_t = typename list_of<P>::type;

template <typename G, typename It, typename Elem, typename P>
inline constexpr bool load_ok =
    is_load_store_group<G>::value && load_types_ok<It, Elem> && is_properties_arg_v<P>;
template <typename G, typename Elem, typename It, typename P>
inline constexpr bool store_ok =
    is_load_store_group<G>::value && store_types_ok<Elem, It> && is_properties_arg_v<P>;

template <typename P>
constexpr bool is_striped() {
  if constexpr (P::template has_property<data_placement_key>())
    return P::template get_property<data_placement_key>() == data_placement_striped;
  else
    return false;
}

// An implicit conversion, as "convertible" allows.
template <typename To, typename From>
SYCLONE_INLINE To convert(const From& from) {
  return from;
}

// The iterator as a pointer to its elements where they are known to be contiguous (pointers,
// multi_ptrs, contiguous_memory with an iterator whose reference is an lvalue), else nullptr.
template <bool Store, bool Contiguous, typename It>
SYCLONE_INLINE auto memory_of(It it) {
  using V = iter_value_t<It>;
  using Ptr = std::conditional_t<Store, V*, const V*>;
  if constexpr (iterator_of<It>::multi_ptr) {
    return sd::address_cast<Ptr>(it.get_raw());
  } else if constexpr (std::is_pointer_v<It>) {
    return sd::address_cast<Ptr>(it);
  } else if constexpr (Contiguous &&
                       std::is_lvalue_reference_v<typename std::iterator_traits<It>::reference>) {
    return sd::address_cast<Ptr>(&*it);
  } else {
    return nullptr;
  }
}

template <typename It>
SYCLONE_INLINE auto nth(It it, std::size_t n) {
  return it + static_cast<typename std::iterator_traits<It>::difference_type>(n);
}

// out[i] for i < N as the placement says.
template <std::size_t N, typename P, typename Group, typename It, typename OutputT>
SYCLONE_INLINE void load(Group g, It in, OutputT* out) {
  using V = iter_value_t<It>;
  constexpr bool striped = detail::is_striped<P>();
  const std::size_t id = g.get_local_linear_id();
  const std::size_t range = g.get_local_linear_range();
  auto memory = detail::memory_of<false, P::template has_property<contiguous_memory_key>()>(in);
  if constexpr (std::is_pointer_v<decltype(memory)>) {
    V values[N];
    if constexpr (N > 1 && !striped) {
      if constexpr (std::is_same_v<Group, sycl::sub_group>)
        sd::dev::group_load_blocked<N, P::template has_property<full_group_key>()>(g.info(), memory,
                                                                                   values);
      else
        sd::dev::group_load_blocked<N>(
            sd::wg_info{static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(range)}, memory,
            values);
    } else {
      for (std::size_t i = 0; i < N; ++i) values[i] = memory[id + range * i];
    }
    for (std::size_t i = 0; i < N; ++i) out[i] = detail::convert<OutputT>(values[i]);
  } else {
    for (std::size_t i = 0; i < N; ++i)
      out[i] = detail::convert<OutputT>(*detail::nth(in, striped ? id + range * i : id * N + i));
  }
}

template <std::size_t N, typename P, typename Group, typename InputT, typename It>
SYCLONE_INLINE void store(Group g, const InputT* in, It out) {
  using V = iter_value_t<It>;
  constexpr bool striped = detail::is_striped<P>();
  const std::size_t id = g.get_local_linear_id();
  const std::size_t range = g.get_local_linear_range();
  auto memory = detail::memory_of<true, P::template has_property<contiguous_memory_key>()>(out);
  if constexpr (std::is_pointer_v<decltype(memory)>) {
    V values[N];
    for (std::size_t i = 0; i < N; ++i) values[i] = detail::convert<V>(in[i]);
    if constexpr (N > 1 && !striped) {
      if constexpr (std::is_same_v<Group, sycl::sub_group>)
        sd::dev::group_store_blocked<N, P::template has_property<full_group_key>()>(g.info(),
                                                                                    values, memory);
      else
        sd::dev::group_store_blocked<N>(
            sd::wg_info{static_cast<std::uint32_t>(id), static_cast<std::uint32_t>(range)}, values,
            memory);
    } else {
      for (std::size_t i = 0; i < N; ++i) memory[id + range * i] = values[i];
    }
  } else {
    for (std::size_t i = 0; i < N; ++i)
      *detail::nth(out, striped ? id + range * i : id * N + i) = detail::convert<V>(in[i]);
  }
}
} // namespace detail

// "Load API", single value overload: out = in_iter[g.get_local_linear_id()].
template <typename Group, typename InputIteratorT, typename OutputT,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::load_ok<Group, InputIteratorT, OutputT, Properties>>
group_load(Group g, InputIteratorT in_iter, OutputT& out, Properties = {}) {
  detail::load<1, detail::list_of_t<Properties>>(g, in_iter, &out);
}

// sycl::vec overload: N elements per work-item (blocked by default).
template <typename Group, typename InputIteratorT, typename OutputT, int N,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::load_ok<Group, InputIteratorT, OutputT, Properties>>
group_load(Group g, InputIteratorT in_iter, sycl::vec<OutputT, N>& out, Properties = {}) {
  OutputT values[N];
  detail::load<N, detail::list_of_t<Properties>>(g, in_iter, values);
  for (int i = 0; i < N; ++i) out[i] = values[i];
}

// Fixed-size array overload: ElementsPerWorkItem elements per work-item (blocked by default).
template <typename Group, typename InputIteratorT, typename OutputT,
          std::size_t ElementsPerWorkItem, typename Properties = empty_properties_t>
std::enable_if_t<detail::load_ok<Group, InputIteratorT, OutputT, Properties>>
group_load(Group g, InputIteratorT in_iter, sycl::span<OutputT, ElementsPerWorkItem> out,
           Properties = {}) {
  static_assert(ElementsPerWorkItem != sycl::dynamic_extent,
                "group_load: the span must have a fixed size (sycl::span<T, N>), the number of "
                "elements per work-item");
  detail::load<ElementsPerWorkItem, detail::list_of_t<Properties>>(g, in_iter, out.data());
}

// "Store API", single value overload: out_iter[g.get_local_linear_id()] = in.
template <typename Group, typename InputT, typename OutputIteratorT,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::store_ok<Group, InputT, OutputIteratorT, Properties>>
group_store(Group g, const InputT& in, OutputIteratorT out_iter, Properties = {}) {
  detail::store<1, detail::list_of_t<Properties>>(g, &in, out_iter);
}

// sycl::vec overload.
template <typename Group, typename InputT, int N, typename OutputIteratorT,
          typename Properties = empty_properties_t>
std::enable_if_t<detail::store_ok<Group, InputT, OutputIteratorT, Properties>>
group_store(Group g, const sycl::vec<InputT, N>& in, OutputIteratorT out_iter, Properties = {}) {
  InputT values[N];
  for (int i = 0; i < N; ++i) values[i] = in[i];
  detail::store<N, detail::list_of_t<Properties>>(g, values, out_iter);
}

// Fixed-size array overload.
template <typename Group, typename InputT, std::size_t ElementsPerWorkItem,
          typename OutputIteratorT, typename Properties = empty_properties_t>
std::enable_if_t<detail::store_ok<Group, InputT, OutputIteratorT, Properties>>
group_store(Group g, sycl::span<InputT, ElementsPerWorkItem> in, OutputIteratorT out_iter,
            Properties = {}) {
  static_assert(ElementsPerWorkItem != sycl::dynamic_extent,
                "group_store: the span must have a fixed size (sycl::span<T, N>), the number of "
                "elements per work-item");
  detail::store<ElementsPerWorkItem, detail::list_of_t<Properties>>(g, in.data(), out_iter);
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
