// SYCL 2020 4.7.7. Address space classes: multi_ptr, its aliases (global_ptr ...),
// address_space_cast, remove_decoration.
//
// Every multi_ptr keeps its pointer decorated with its address space (on the GPU targets a
// clang address space; on the host the plain type), whatever its access::decorated: the
// interface of decorated::no hides the decoration, but loads and prefetches still address the
// named space. multi_ptr::prefetch is sycl_ext_oneapi_prefetch's prefetch with no hint (L1).
//
// SYCL 2020 deprecates decorated::legacy, the default; syclone does not mark it [[deprecated]]
// because global_ptr<T> (legacy) is what accessor::get_pointer() and much existing code use.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/device/target.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions>
class local_accessor;

template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
class multi_ptr;

// SYCL 2020 4.7.7.1: the type without its address space.
template <typename T>
struct remove_decoration {
  using type = typename detail::dev::undecorated<T>::type;
};
template <typename T>
struct remove_decoration<T*> {
  using type = typename remove_decoration<T>::type*;
};
template <typename T>
struct remove_decoration<T* const> {
  using type = typename remove_decoration<T>::type* const;
};
template <typename T>
struct remove_decoration<T&> {
  using type = typename remove_decoration<T>::type&;
};
template <typename T>
using remove_decoration_t = typename remove_decoration<T>::type;

namespace detail {
template <typename T, access::address_space Space>
using decorated_t = typename dev::decorated<T, static_cast<int>(Space)>::type;

// The conversion between a generic pointer and one decorated with an address space: an address
// space cast on the GPU targets (clang's SYCL mode allows it only as a C-style cast), nothing on
// the host.
template <typename To, typename From>
SYCLONE_INLINE To address_cast(From* p) {
  return (To)p;
}

// Prefetch into L1 with no hint (sycl_ext_oneapi_prefetch's default), for multi_ptr::prefetch.
template <typename ElementType>
SYCLONE_INLINE void prefetch_global(const ElementType* p, std::size_t count) {
  dev::prefetch<0, false, true>(p, count * sizeof(ElementType));
}

// What the accessor constructors of multi_ptr accept: the same element type, no constness lost.
template <typename ElementType, typename AccValueType>
inline constexpr bool acc_convertible_v =
    std::is_same_v<std::remove_const_t<ElementType>, std::remove_const_t<AccValueType>> &&
    (std::is_const_v<ElementType> || !std::is_const_v<AccValueType>);
template <typename VoidType, typename AccValueType>
inline constexpr bool acc_void_convertible_v =
    std::is_const_v<VoidType> || !std::is_const_v<AccValueType>;

// T, as a type that depends on E (so that a conversion function template that would convert to
// its own class is only declared where it is enabled).
template <typename E, typename T>
struct dependent {
  using type = T;
};

template <typename Acc>
SYCLONE_INLINE auto accessor_data(const Acc& acc) {
  return acc.template get_multi_ptr<access::decorated::no>().get();
}

constexpr bool global_or_generic(access::address_space s) {
  return s == access::address_space::global_space || s == access::address_space::generic_space;
}
constexpr bool local_or_generic(access::address_space s) {
  return s == access::address_space::local_space || s == access::address_space::generic_space;
}
} // namespace detail

// SYCL 2020 4.7.7.1. multi_ptr with decorated::no or decorated::yes.
template <typename ElementType, access::address_space Space, access::decorated DecorateAddress>
class multi_ptr {
  static_assert(DecorateAddress != access::decorated::legacy);
  using decorated_element = detail::decorated_t<ElementType, Space>;

public:
  static constexpr bool is_decorated = DecorateAddress == access::decorated::yes;
  static constexpr access::address_space address_space = Space;

  using value_type = ElementType;
  using pointer =
      std::conditional_t<is_decorated, decorated_element*, std::add_pointer_t<value_type>>;
  using reference =
      std::conditional_t<is_decorated, decorated_element&, std::add_lvalue_reference_t<value_type>>;
  using iterator_category = std::random_access_iterator_tag;
  using difference_type = std::ptrdiff_t;

  static_assert(std::is_same_v<remove_decoration_t<pointer>, std::add_pointer_t<value_type>>);
  static_assert(
      std::is_same_v<remove_decoration_t<reference>, std::add_lvalue_reference_t<value_type>>);

  multi_ptr() = default;
  multi_ptr(const multi_ptr&) = default;
  multi_ptr(multi_ptr&&) = default;
  explicit multi_ptr(decorated_element* ptr) : m_ptr(ptr) {}
  multi_ptr(std::nullptr_t) {}

  template <typename AccDataT, int Dimensions, access_mode Mode, access::placeholder IsPlaceholder,
            typename = std::enable_if_t<
                detail::global_or_generic(Space) &&
                detail::acc_convertible_v<
                    ElementType, typename accessor<AccDataT, Dimensions, Mode, target::device,
                                                   IsPlaceholder>::value_type>>>
  multi_ptr(accessor<AccDataT, Dimensions, Mode, target::device, IsPlaceholder> acc)
      : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}

  template <typename AccDataT, int Dimensions,
            typename = std::enable_if_t<detail::local_or_generic(Space) &&
                                        detail::acc_convertible_v<ElementType, AccDataT>>>
  multi_ptr(local_accessor<AccDataT, Dimensions> acc)
      : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}

  multi_ptr& operator=(const multi_ptr&) = default;
  multi_ptr& operator=(multi_ptr&&) = default;
  multi_ptr& operator=(std::nullptr_t) {
    m_ptr = nullptr;
    return *this;
  }
  template <access::address_space AS, access::decorated IsDecorated,
            typename = std::enable_if_t<Space == access::address_space::generic_space &&
                                        AS != access::address_space::constant_space>>
  multi_ptr& operator=(const multi_ptr<value_type, AS, IsDecorated>& other) {
    m_ptr = other.get_raw();
    return *this;
  }

  reference operator[](std::ptrdiff_t i) const { return m_ptr[i]; }
  reference operator*() const { return *m_ptr; }
  pointer operator->() const { return get(); }

  pointer get() const { return m_ptr; }
  std::add_pointer_t<value_type> get_raw() const { return m_ptr; }
  decorated_element* get_decorated() const { return m_ptr; }

  // Deprecated in SYCL 2020 (use get()).
  operator pointer() const { return get(); }

  // Casts of a generic pointer to a named address space (the caller knows it points there).
  template <access::address_space To, access::decorated IsDecorated, typename T,
            typename = std::enable_if_t<Space == access::address_space::generic_space &&
                                        To != access::address_space::generic_space &&
                                        To != access::address_space::constant_space &&
                                        (std::is_same_v<T, value_type> ||
                                         std::is_same_v<T, const value_type>)>>
  explicit operator multi_ptr<T, To, IsDecorated>() const {
    return multi_ptr<T, To, IsDecorated>(detail::address_cast<detail::decorated_t<T, To>*>(m_ptr));
  }

  template <access::decorated IsDecorated, typename V = value_type,
            typename = std::enable_if_t<!std::is_const_v<V>>>
  operator multi_ptr<void, Space, IsDecorated>() const {
    return multi_ptr<void, Space, IsDecorated>(
        static_cast<detail::decorated_t<void, Space>*>(m_ptr));
  }
  template <access::decorated IsDecorated, typename V = value_type,
            typename = std::enable_if_t<std::is_const_v<V>>>
  operator multi_ptr<const void, Space, IsDecorated>() const {
    return multi_ptr<const void, Space, IsDecorated>(
        static_cast<detail::decorated_t<const void, Space>*>(m_ptr));
  }
  template <access::decorated IsDecorated, typename V = value_type,
            typename = std::enable_if_t<!std::is_const_v<V>>>
  operator multi_ptr<const value_type, Space, IsDecorated>() const {
    return multi_ptr<const value_type, Space, IsDecorated>(m_ptr);
  }
  // To the other decoration (decorated::yes to no, no to yes).
  template <access::decorated D,
            typename = std::enable_if_t<D != DecorateAddress && D != access::decorated::legacy>>
  operator multi_ptr<value_type, Space, D>() const {
    return multi_ptr<value_type, Space, D>(m_ptr);
  }

  // SYCL 2020 4.7.7.1: a hint to bring numElements elements into the cache (L1).
  template <access::address_space S = Space,
            typename = std::enable_if_t<S == access::address_space::global_space>>
  void prefetch(std::size_t numElements) const {
    detail::prefetch_global(get_raw(), numElements);
  }

  friend multi_ptr& operator++(multi_ptr& mp) { return ++mp.m_ptr, mp; }
  friend multi_ptr operator++(multi_ptr& mp, int) { return multi_ptr(mp.m_ptr++); }
  friend multi_ptr& operator--(multi_ptr& mp) { return --mp.m_ptr, mp; }
  friend multi_ptr operator--(multi_ptr& mp, int) { return multi_ptr(mp.m_ptr--); }
  friend multi_ptr& operator+=(multi_ptr& lhs, difference_type r) { return lhs.m_ptr += r, lhs; }
  friend multi_ptr& operator-=(multi_ptr& lhs, difference_type r) { return lhs.m_ptr -= r, lhs; }
  friend multi_ptr operator+(const multi_ptr& lhs, difference_type r) {
    return multi_ptr(lhs.m_ptr + r);
  }
  friend multi_ptr operator-(const multi_ptr& lhs, difference_type r) {
    return multi_ptr(lhs.m_ptr - r);
  }
  friend difference_type operator-(const multi_ptr& lhs, const multi_ptr& rhs) {
    return lhs.m_ptr - rhs.m_ptr;
  }

#define SYCLONE_MULTI_PTR_COMPARE(op)                                                              \
  friend bool operator op(const multi_ptr& lhs, const multi_ptr& rhs) {                            \
    return lhs.m_ptr op rhs.m_ptr;                                                                 \
  }                                                                                                \
  friend bool operator op(const multi_ptr& lhs, std::nullptr_t) {                                  \
    return lhs.m_ptr op static_cast<decorated_element*>(nullptr);                                  \
  }                                                                                                \
  friend bool operator op(std::nullptr_t, const multi_ptr& rhs) {                                  \
    return static_cast<decorated_element*>(nullptr) op rhs.m_ptr;                                  \
  }
  SYCLONE_MULTI_PTR_COMPARE(==)
  SYCLONE_MULTI_PTR_COMPARE(!=)
  SYCLONE_MULTI_PTR_COMPARE(<)
  SYCLONE_MULTI_PTR_COMPARE(>)
  SYCLONE_MULTI_PTR_COMPARE(<=)
  SYCLONE_MULTI_PTR_COMPARE(>=)

private:
  decorated_element* m_ptr = nullptr;
};

// SYCL 2020 4.7.7.1. multi_ptr of void and const void (decorated::no or yes). Each decoration
// has its own partial specialization, so that multi_ptr<void, Space, decorated::legacy> matches
// the legacy one below only (a pattern with any decoration made the two ambiguous).
#define SYCLONE_MULTI_PTR_VOID(VoidType, Decoration)                                               \
  template <access::address_space Space>                                                           \
  class multi_ptr<VoidType, Space, access::decorated::Decoration> {                                \
    static constexpr access::decorated DecorateAddress = access::decorated::Decoration;            \
    using decorated_element = detail::decorated_t<VoidType, Space>;                                \
                                                                                                   \
  public:                                                                                          \
    static constexpr bool is_decorated = DecorateAddress == access::decorated::yes;                \
    static constexpr access::address_space address_space = Space;                                  \
    using value_type = VoidType;                                                                   \
    using pointer = std::conditional_t<is_decorated, decorated_element*, VoidType*>;               \
    using difference_type = std::ptrdiff_t;                                                        \
                                                                                                   \
    multi_ptr() = default;                                                                         \
    multi_ptr(const multi_ptr&) = default;                                                         \
    multi_ptr(multi_ptr&&) = default;                                                              \
    explicit multi_ptr(decorated_element* ptr) : m_ptr(ptr) {}                                     \
    multi_ptr(std::nullptr_t) {}                                                                   \
    template <typename ElementType, int Dimensions, access_mode Mode,                              \
              access::placeholder IsPlaceholder,                                                   \
              typename = std::enable_if_t<                                                         \
                  detail::global_or_generic(Space) &&                                              \
                  detail::acc_void_convertible_v<                                                  \
                      VoidType, typename accessor<ElementType, Dimensions, Mode, target::device,   \
                                                  IsPlaceholder>::value_type>>>                    \
    multi_ptr(accessor<ElementType, Dimensions, Mode, target::device, IsPlaceholder> acc)          \
        : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}           \
    template <typename ElementType, int Dimensions,                                                \
              typename = std::enable_if_t<detail::local_or_generic(Space) &&                       \
                                          detail::acc_void_convertible_v<VoidType, ElementType>>>  \
    multi_ptr(local_accessor<ElementType, Dimensions> acc)                                         \
        : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}           \
                                                                                                   \
    multi_ptr& operator=(const multi_ptr&) = default;                                              \
    multi_ptr& operator=(multi_ptr&&) = default;                                                   \
    multi_ptr& operator=(std::nullptr_t) {                                                         \
      m_ptr = nullptr;                                                                             \
      return *this;                                                                                \
    }                                                                                              \
                                                                                                   \
    pointer get() const { return m_ptr; }                                                          \
    explicit operator pointer() const { return m_ptr; }                                            \
                                                                                                   \
    template <typename ElementType, typename = std::enable_if_t<std::is_const_v<ElementType> ||    \
                                                                !std::is_const_v<VoidType>>>       \
    explicit operator multi_ptr<ElementType, Space, DecorateAddress>() const {                     \
      return multi_ptr<ElementType, Space, DecorateAddress>(                                       \
          static_cast<detail::decorated_t<ElementType, Space>*>(m_ptr));                           \
    }                                                                                              \
    template <access::decorated D,                                                                 \
              typename = std::enable_if_t<D != DecorateAddress && D != access::decorated::legacy>> \
    operator multi_ptr<value_type, Space, D>() const {                                             \
      return multi_ptr<value_type, Space, D>(m_ptr);                                               \
    }                                                                                              \
    template <typename V = VoidType, typename = std::enable_if_t<!std::is_const_v<V>>>             \
    operator multi_ptr<const V, Space, DecorateAddress>() const {                                  \
      return multi_ptr<const V, Space, DecorateAddress>(m_ptr);                                    \
    }                                                                                              \
                                                                                                   \
    SYCLONE_MULTI_PTR_COMPARE(==)                                                                  \
    SYCLONE_MULTI_PTR_COMPARE(!=)                                                                  \
    SYCLONE_MULTI_PTR_COMPARE(<)                                                                   \
    SYCLONE_MULTI_PTR_COMPARE(>)                                                                   \
    SYCLONE_MULTI_PTR_COMPARE(<=)                                                                  \
    SYCLONE_MULTI_PTR_COMPARE(>=)                                                                  \
                                                                                                   \
  private:                                                                                         \
    decorated_element* m_ptr = nullptr;                                                            \
  };
SYCLONE_MULTI_PTR_VOID(void, no)
SYCLONE_MULTI_PTR_VOID(void, yes)
SYCLONE_MULTI_PTR_VOID(const void, no)
SYCLONE_MULTI_PTR_VOID(const void, yes)
#undef SYCLONE_MULTI_PTR_VOID

// SYCL 2020 4.7.7.1 (legacy interface, from SYCL 1.2.1): converts implicitly to ElementType*,
// so code written for raw pointers keeps working with accessor::get_pointer().
template <typename ElementType, access::address_space Space>
class multi_ptr<ElementType, Space, access::decorated::legacy> {
  using decorated_element = detail::decorated_t<ElementType, Space>;
  using const_decorated_element = detail::decorated_t<const ElementType, Space>;
  static constexpr bool distinct_decoration = !std::is_same_v<decorated_element, ElementType>;
  static constexpr bool is_void = std::is_void_v<ElementType>;

public:
  using element_type = ElementType;
  using value_type = ElementType;
  using difference_type = std::ptrdiff_t;
  using pointer_t = decorated_element*;
  using const_pointer_t = const_decorated_element*;
  using reference_t =
      std::conditional_t<is_void, void, std::add_lvalue_reference_t<decorated_element>>;
  using const_reference_t =
      std::conditional_t<is_void, void, std::add_lvalue_reference_t<const_decorated_element>>;
  static constexpr access::address_space address_space = Space;

  multi_ptr() = default;
  multi_ptr(const multi_ptr&) = default;
  multi_ptr(multi_ptr&&) = default;
  multi_ptr(ElementType* ptr) : m_ptr(detail::address_cast<decorated_element*>(ptr)) {}
  // The decorated pointer, where it differs from ElementType* (GPU targets, named spaces).
  template <typename P,
            std::enable_if_t<distinct_decoration && std::is_same_v<P, pointer_t>, int> = 0>
  multi_ptr(P ptr) : m_ptr(ptr) {}
  multi_ptr(std::nullptr_t) {}
  ~multi_ptr() = default;

  template <
      typename AccDataT, int Dimensions, access_mode Mode, access::placeholder IsPlaceholder,
      typename = std::enable_if_t<
          detail::global_or_generic(Space) &&
          (is_void ? detail::acc_void_convertible_v<
                         ElementType, typename accessor<AccDataT, Dimensions, Mode, target::device,
                                                        IsPlaceholder>::value_type>
                   : detail::acc_convertible_v<
                         ElementType, typename accessor<AccDataT, Dimensions, Mode, target::device,
                                                        IsPlaceholder>::value_type>)>>
  multi_ptr(accessor<AccDataT, Dimensions, Mode, target::device, IsPlaceholder> acc)
      : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}
  template <typename AccDataT, int Dimensions, access_mode Mode, access::placeholder IsPlaceholder,
            access::address_space S = Space,
            typename = std::enable_if_t<S == access::address_space::constant_space>>
  multi_ptr(accessor<AccDataT, Dimensions, Mode, target::constant_buffer, IsPlaceholder> acc)
      : m_ptr(detail::address_cast<decorated_element*>(acc.get_pointer().get_raw())) {}
  template <
      typename AccDataT, int Dimensions,
      typename = std::enable_if_t<detail::local_or_generic(Space) &&
                                  (is_void ? detail::acc_void_convertible_v<ElementType, AccDataT>
                                           : detail::acc_convertible_v<ElementType, AccDataT>)>>
  multi_ptr(local_accessor<AccDataT, Dimensions> acc)
      : m_ptr(detail::address_cast<decorated_element*>(detail::accessor_data(acc))) {}

  multi_ptr& operator=(const multi_ptr&) = default;
  multi_ptr& operator=(multi_ptr&&) = default;
  multi_ptr& operator=(ElementType* ptr) {
    m_ptr = detail::address_cast<decorated_element*>(ptr);
    return *this;
  }
  template <typename P,
            std::enable_if_t<distinct_decoration && std::is_same_v<P, pointer_t>, int> = 0>
  multi_ptr& operator=(P ptr) {
    m_ptr = ptr;
    return *this;
  }
  multi_ptr& operator=(std::nullptr_t) {
    m_ptr = nullptr;
    return *this;
  }

  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend E& operator*(const multi_ptr& mp) {
    return *mp.get_raw();
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  E* operator->() const {
    return get_raw();
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  E& operator[](std::ptrdiff_t i) const {
    return get_raw()[i];
  }

  pointer_t get() const { return m_ptr; }
  std::add_pointer_t<ElementType> get_raw() const { return m_ptr; }
  pointer_t get_decorated() const { return m_ptr; }

  operator ElementType*() const { return m_ptr; }
  // DPC++, AdaptiveCpp and SimSYCL give a read-only accessor's get_pointer() a non-const element
  // type, and code written for them passes it on as DataT*. SYCL 2020 says global_ptr<const DataT>
  // (the CTS checks the type), so the legacy pointer to const also converts to the non-const raw
  // pointer, with a warning: writing through it is undefined. A template that deduces exactly that
  // pointer type, so that `if (p)`, `p - q` and comparisons still see one conversion only.
  template <typename P, typename E = ElementType,
            std::enable_if_t<std::is_const_v<E> && !std::is_void_v<E> &&
                                 std::is_same_v<P, std::remove_const_t<E>*>,
                             int> = 0>
  [[deprecated("converts a pointer to const (a read-only accessor's get_pointer()) to a "
               "pointer to non-const, as DPC++ does; take const DataT* or use get_multi_ptr()")]]
  operator P() const {
    return const_cast<P>(get_raw());
  }

  template <typename E = ElementType,
            typename = std::enable_if_t<!std::is_const_v<E> && !std::is_void_v<E>>>
  operator multi_ptr<typename detail::dependent<E, void>::type, Space, access::decorated::legacy>()
      const {
    return multi_ptr<void, Space, access::decorated::legacy>(get_raw());
  }
  template <typename E = ElementType, typename = std::enable_if_t<std::is_const_v<E>>>
  operator multi_ptr<typename detail::dependent<E, const void>::type, Space,
                     access::decorated::legacy>() const {
    return multi_ptr<const void, Space, access::decorated::legacy>(get_raw());
  }
  // E is deduced from the target type of a conversion: it must be the element type itself (else
  // multi_ptr<const int> would also convert to multi_ptr<const void> here, E = void).
  template <typename E = ElementType,
            typename = std::enable_if_t<std::is_same_v<E, ElementType> && !std::is_const_v<E>>>
  operator multi_ptr<const E, Space, access::decorated::legacy>() const {
    return multi_ptr<const E, Space, access::decorated::legacy>(get_raw());
  }
  // multi_ptr<void> to multi_ptr<T>.
  template <typename T, typename E = ElementType,
            typename = std::enable_if_t<std::is_void_v<E> && !std::is_void_v<T> &&
                                        (std::is_const_v<T> || !std::is_const_v<E>)>>
  explicit operator multi_ptr<T, Space, access::decorated::legacy>() const {
    return multi_ptr<T, Space, access::decorated::legacy>(static_cast<T*>(get_raw()));
  }

  // SYCL 2020 4.7.7.1: a hint to bring numElements elements into the cache (L1).
  template <typename E = ElementType,
            typename = std::enable_if_t<!std::is_void_v<E> &&
                                        Space == access::address_space::global_space>>
  void prefetch(std::size_t numElements) const {
    detail::prefetch_global(get_raw(), numElements);
  }

  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr& operator++(multi_ptr& mp) {
    return ++mp.m_ptr, mp;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr operator++(multi_ptr& mp, int) {
    multi_ptr old = mp;
    ++mp.m_ptr;
    return old;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr& operator--(multi_ptr& mp) {
    return --mp.m_ptr, mp;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr operator--(multi_ptr& mp, int) {
    multi_ptr old = mp;
    --mp.m_ptr;
    return old;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr& operator+=(multi_ptr& lhs, difference_type r) {
    return lhs.m_ptr += r, lhs;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr& operator-=(multi_ptr& lhs, difference_type r) {
    return lhs.m_ptr -= r, lhs;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr operator+(const multi_ptr& lhs, difference_type r) {
    multi_ptr p = lhs;
    return p += r;
  }
  template <typename E = ElementType, typename = std::enable_if_t<!std::is_void_v<E>>>
  friend multi_ptr operator-(const multi_ptr& lhs, difference_type r) {
    multi_ptr p = lhs;
    return p -= r;
  }

  // The legacy multi_ptr converts to and from ElementType*: comparing it with a raw pointer uses
  // the built-in comparison (the multi_ptr converts), so the multi_ptr overload takes no
  // converted raw pointer on either side (a template that deduces exactly multi_ptr), else
  // `p == raw` is ambiguous.
#define SYCLONE_LEGACY_MULTI_PTR_COMPARE(op)                                                       \
  template <typename L, typename M,                                                                \
            std::enable_if_t<std::is_same_v<L, multi_ptr> && std::is_same_v<M, multi_ptr>, int> =  \
                0>                                                                                 \
  friend bool operator op(const L& lhs, const M& rhs) {                                            \
    return lhs.m_ptr op rhs.m_ptr;                                                                 \
  }                                                                                                \
  friend bool operator op(const multi_ptr& lhs, std::nullptr_t) {                                  \
    return lhs.m_ptr op static_cast<decorated_element*>(nullptr);                                  \
  }                                                                                                \
  friend bool operator op(std::nullptr_t, const multi_ptr& rhs) {                                  \
    return static_cast<decorated_element*>(nullptr) op rhs.m_ptr;                                  \
  }                                                                                                \
  /* A pointer to const against a raw pointer to non-const: compared here, not through the    */   \
  /* deprecated conversion above.                                                             */   \
  template <typename L, typename R, typename E = ElementType,                                      \
            std::enable_if_t<std::is_const_v<E> && std::is_same_v<L, multi_ptr> &&                 \
                                 std::is_same_v<R, std::remove_const_t<E>*>,                       \
                             int> = 0>                                                             \
  friend bool operator op(const L& lhs, R rhs) {                                                   \
    return lhs.get_raw() op rhs;                                                                   \
  }                                                                                                \
  template <typename L, typename R, typename E = ElementType,                                      \
            std::enable_if_t<std::is_const_v<E> && std::is_same_v<R, multi_ptr> &&                 \
                                 std::is_same_v<L, std::remove_const_t<E>*>,                       \
                             int> = 0>                                                             \
  friend bool operator op(L lhs, const R& rhs) {                                                   \
    return lhs op rhs.get_raw();                                                                   \
  }
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(==)
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(!=)
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(<)
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(>)
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(<=)
  SYCLONE_LEGACY_MULTI_PTR_COMPARE(>=)
#undef SYCLONE_LEGACY_MULTI_PTR_COMPARE

private:
  decorated_element* m_ptr = nullptr;
};
#undef SYCLONE_MULTI_PTR_COMPARE

// SYCL 2020 4.7.7.1 deduction guides.
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::read, target::device, IsPlaceholder>)
    -> multi_ptr<const T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::write, target::device, IsPlaceholder>)
    -> multi_ptr<T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::read_write, target::device, IsPlaceholder>)
    -> multi_ptr<T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions>
multi_ptr(local_accessor<T, Dimensions>)
    -> multi_ptr<T, access::address_space::local_space, access::decorated::no>;

// SYCL 2020 4.7.7.1: a multi_ptr to the object `pointer` points to, null where that object is
// not in `Space` (on the GPU targets the check is the hardware's isspacep).
template <access::address_space Space, access::decorated DecorateAddress, typename ElementType>
multi_ptr<ElementType, Space, DecorateAddress> address_space_cast(ElementType* pointer) {
  if (!pointer || !detail::dev::in_address_space(pointer, static_cast<int>(Space))) return nullptr;
  return multi_ptr<ElementType, Space, DecorateAddress>(
      detail::address_cast<detail::decorated_t<ElementType, Space>*>(pointer));
}

// Deprecated in SYCL 2020 (use address_space_cast).
template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
multi_ptr<ElementType, Space, DecorateAddress> make_ptr(ElementType* pointer) {
  return multi_ptr<ElementType, Space, DecorateAddress>(
      detail::address_cast<detail::decorated_t<ElementType, Space>*>(pointer));
}

// SYCL 2020 4.7.7.2. Aliases.
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy>
using global_ptr = multi_ptr<ElementType, access::address_space::global_space, IsDecorated>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy>
using local_ptr = multi_ptr<ElementType, access::address_space::local_space, IsDecorated>;
template <typename ElementType>
using constant_ptr =
    multi_ptr<ElementType, access::address_space::constant_space, access::decorated::legacy>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy>
using private_ptr = multi_ptr<ElementType, access::address_space::private_space, IsDecorated>;
template <typename ElementType>
using raw_global_ptr =
    multi_ptr<ElementType, access::address_space::global_space, access::decorated::no>;
template <typename ElementType>
using raw_local_ptr =
    multi_ptr<ElementType, access::address_space::local_space, access::decorated::no>;
template <typename ElementType>
using raw_private_ptr =
    multi_ptr<ElementType, access::address_space::private_space, access::decorated::no>;
template <typename ElementType>
using decorated_global_ptr =
    multi_ptr<ElementType, access::address_space::global_space, access::decorated::yes>;
template <typename ElementType>
using decorated_local_ptr =
    multi_ptr<ElementType, access::address_space::local_space, access::decorated::yes>;
template <typename ElementType>
using decorated_private_ptr =
    multi_ptr<ElementType, access::address_space::private_space, access::decorated::yes>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy>
using generic_ptr = multi_ptr<ElementType, access::address_space::generic_space, IsDecorated>;
template <typename ElementType>
using raw_generic_ptr =
    multi_ptr<ElementType, access::address_space::generic_space, access::decorated::no>;
template <typename ElementType>
using decorated_generic_ptr =
    multi_ptr<ElementType, access::address_space::generic_space, access::decorated::yes>;

SYCLONE_END_NAMESPACE
