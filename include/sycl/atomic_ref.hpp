// SYCL 2020 4.15.3. atomic_ref: atomic operations on an object that lives elsewhere (a buffer
// element, USM, local memory).
//
// Every operation is one clang __scoped_atomic_* builtin carrying the SYCL memory order and
// scope (see atomic_fence.hpp); LLVM lowers them to native instructions where the target has them
// (x86 lock-prefixed ops, NVPTX atom.add.f32/.f64, atom.min/max ...) and to compare-and-swap
// loops where it does not (floating-point min/max on both). Read-modify-writes on NVPTX also get
// fences from the target header (see rmw()). Pointer offsets are scaled by the element size:
// the builtins add bytes, as GCC's do.
#pragma once

#include <sycl/access.hpp>
#include <sycl/atomic_fence.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>

#include <cstddef>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {
// SYCL 2020 4.15.3: the default load and store orders that follow from the default order.
template <memory_order Order>
struct memory_order_traits;
template <>
struct memory_order_traits<memory_order::relaxed> {
  static constexpr memory_order read_order = memory_order::relaxed;
  static constexpr memory_order write_order = memory_order::relaxed;
};
template <>
struct memory_order_traits<memory_order::acq_rel> {
  static constexpr memory_order read_order = memory_order::acquire;
  static constexpr memory_order write_order = memory_order::release;
};
template <>
struct memory_order_traits<memory_order::seq_cst> {
  static constexpr memory_order read_order = memory_order::seq_cst;
  static constexpr memory_order write_order = memory_order::seq_cst;
};

// The failure order of a compare-exchange given one order: it cannot release.
constexpr memory_order cas_failure_order(memory_order order) {
  return order == memory_order::acq_rel   ? memory_order::acquire
         : order == memory_order::release ? memory_order::relaxed
                                          : order;
}

template <typename T>
inline constexpr bool is_atomic_integral_v =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> ||
    std::is_same_v<T, unsigned long long>;
template <typename T>
inline constexpr bool is_atomic_floating_v = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <typename T>
inline constexpr bool is_atomic_pointer_v =
    std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>;
} // namespace detail

// SYCL 2020 4.15.3. The atomic_ref class template, for int, unsigned int, long, unsigned long,
// long long, unsigned long long, float, double and object pointers.
template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space AddressSpace = access::address_space::generic_space>
class atomic_ref {
  static_assert(detail::is_atomic_integral_v<T> || detail::is_atomic_floating_v<T> ||
                    detail::is_atomic_pointer_v<T>,
                "sycl::atomic_ref supports int, unsigned int, long, unsigned long, long long, "
                "unsigned long long, float, double and object pointer types");
  static_assert(DefaultOrder == memory_order::relaxed || DefaultOrder == memory_order::acq_rel ||
                    DefaultOrder == memory_order::seq_cst,
                "the default order of sycl::atomic_ref is relaxed, acq_rel or seq_cst");
  static_assert(AddressSpace == access::address_space::global_space ||
                    AddressSpace == access::address_space::local_space ||
                    AddressSpace == access::address_space::generic_space,
                "sycl::atomic_ref refers to global, local or generic memory");

  static constexpr bool is_integral = detail::is_atomic_integral_v<T>;
  static constexpr bool is_floating = detail::is_atomic_floating_v<T>;
  static constexpr bool is_pointer = detail::is_atomic_pointer_v<T>;

public:
  using value_type = T;
  using difference_type = std::conditional_t<is_pointer, std::ptrdiff_t, T>;
  static constexpr std::size_t required_alignment = alignof(T) > sizeof(T) ? alignof(T) : sizeof(T);
  static constexpr bool is_always_lock_free = __atomic_always_lock_free(sizeof(T), nullptr);
  static constexpr memory_order default_read_order =
      detail::memory_order_traits<DefaultOrder>::read_order;
  static constexpr memory_order default_write_order =
      detail::memory_order_traits<DefaultOrder>::write_order;
  static constexpr memory_order default_read_modify_write_order = DefaultOrder;
  static constexpr memory_scope default_scope = DefaultScope;

  // The referenced object must be aligned to required_alignment.
  explicit atomic_ref(T& ref) : m_ptr(&ref) {}
  atomic_ref(const atomic_ref&) noexcept = default;
  atomic_ref& operator=(const atomic_ref&) = delete;

  bool is_lock_free() const noexcept { return is_always_lock_free; }

  void store(T operand, memory_order order = default_write_order,
             memory_scope scope = default_scope) const noexcept {
    __scoped_atomic_store(m_ptr, &operand, detail::builtin_order(order),
                          detail::builtin_scope(scope));
  }
  T operator=(T desired) const noexcept {
    store(desired);
    return desired;
  }
  T load(memory_order order = default_read_order,
         memory_scope scope = default_scope) const noexcept {
    T result;
    __scoped_atomic_load(m_ptr, &result, detail::builtin_order(order),
                         detail::builtin_scope(scope));
    return result;
  }
  operator T() const noexcept { return load(); }

  T exchange(T operand, memory_order order = default_read_modify_write_order,
             memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::exchange>(
        order, scope, operand,
        [&](int o, int s) {
          T result;
          __scoped_atomic_exchange(m_ptr, &operand, &result, o, s);
          return result;
        },
        [&](T) { return operand; });
  }

  bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure,
                             memory_scope scope = default_scope) const noexcept {
    return __scoped_atomic_compare_exchange(
        m_ptr, &expected, &desired, true, detail::builtin_order(success),
        detail::builtin_order(failure), detail::builtin_scope(scope));
  }
  bool compare_exchange_weak(T& expected, T desired,
                             memory_order order = default_read_modify_write_order,
                             memory_scope scope = default_scope) const noexcept {
    return compare_exchange_weak(expected, desired, order, detail::cas_failure_order(order), scope);
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure,
                               memory_scope scope = default_scope) const noexcept {
    return __scoped_atomic_compare_exchange(
        m_ptr, &expected, &desired, false, detail::builtin_order(success),
        detail::builtin_order(failure), detail::builtin_scope(scope));
  }
  bool compare_exchange_strong(T& expected, T desired,
                               memory_order order = default_read_modify_write_order,
                               memory_scope scope = default_scope) const noexcept {
    return compare_exchange_strong(expected, desired, order, detail::cas_failure_order(order),
                                   scope);
  }

  // Integral and floating-point: fetch_add/fetch_sub/fetch_min/fetch_max (SYCL 2020 4.15.3.1/2);
  // integral also fetch_and/fetch_or/fetch_xor; pointers fetch_add/fetch_sub in elements
  // (4.15.3.3). Each returns the value before the operation.
  T fetch_add(difference_type operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::add>(
        order, scope, scaled(operand),
        [&](int o, int s) { return __scoped_atomic_fetch_add(m_ptr, scaled(operand), o, s); },
        [&](T old) { return added(old, operand); });
  }
  T fetch_sub(difference_type operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::sub>(
        order, scope, scaled(operand),
        [&](int o, int s) { return __scoped_atomic_fetch_sub(m_ptr, scaled(operand), o, s); },
        [&](T old) { return subtracted(old, operand); });
  }
  // Floating-point min/max follow fmin/fmax: a NaN operand or stored value loses.
  template <typename U = T, std::enable_if_t<!detail::is_atomic_pointer_v<U>>* = nullptr>
  T fetch_min(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::min>(
        order, scope, operand,
        [&](int o, int s) { return __scoped_atomic_fetch_min(m_ptr, operand, o, s); },
        [&](T old) { return smaller(old, operand); });
  }
  template <typename U = T, std::enable_if_t<!detail::is_atomic_pointer_v<U>>* = nullptr>
  T fetch_max(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::max>(
        order, scope, operand,
        [&](int o, int s) { return __scoped_atomic_fetch_max(m_ptr, operand, o, s); },
        [&](T old) { return larger(old, operand); });
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T fetch_and(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::bit_and>(
        order, scope, operand,
        [&](int o, int s) { return __scoped_atomic_fetch_and(m_ptr, operand, o, s); },
        [&](T old) { return static_cast<T>(old & operand); });
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T fetch_or(T operand, memory_order order = default_read_modify_write_order,
             memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::bit_or>(
        order, scope, operand,
        [&](int o, int s) { return __scoped_atomic_fetch_or(m_ptr, operand, o, s); },
        [&](T old) { return static_cast<T>(old | operand); });
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T fetch_xor(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const noexcept {
    return rmw<detail::dev::rmw_op::bit_xor>(
        order, scope, operand,
        [&](int o, int s) { return __scoped_atomic_fetch_xor(m_ptr, operand, o, s); },
        [&](T old) { return static_cast<T>(old ^ operand); });
  }

  // Operators use the default order and scope and return the new value (the postfix forms and
  // fetch_* the old one). The new value is computed as the atomic operation does: integers wrap.
  template <typename U = T, std::enable_if_t<!detail::is_atomic_floating_v<U>>* = nullptr>
  T operator++(int) const noexcept {
    return fetch_add(1);
  }
  template <typename U = T, std::enable_if_t<!detail::is_atomic_floating_v<U>>* = nullptr>
  T operator--(int) const noexcept {
    return fetch_sub(1);
  }
  template <typename U = T, std::enable_if_t<!detail::is_atomic_floating_v<U>>* = nullptr>
  T operator++() const noexcept {
    return added(fetch_add(1), 1);
  }
  template <typename U = T, std::enable_if_t<!detail::is_atomic_floating_v<U>>* = nullptr>
  T operator--() const noexcept {
    return subtracted(fetch_sub(1), 1);
  }
  T operator+=(difference_type operand) const noexcept {
    return added(fetch_add(operand), operand);
  }
  T operator-=(difference_type operand) const noexcept {
    return subtracted(fetch_sub(operand), operand);
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T operator&=(T operand) const noexcept {
    return fetch_and(operand) & operand;
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T operator|=(T operand) const noexcept {
    return fetch_or(operand) | operand;
  }
  template <typename U = T, std::enable_if_t<detail::is_atomic_integral_v<U>>* = nullptr>
  T operator^=(T operand) const noexcept {
    return fetch_xor(operand) ^ operand;
  }

private:
  // One read-modify-write. `native` issues the builtin with a clang order and scope; `compute`
  // gives the new value from the old one, for the compare-exchange loop. See
  // detail::dev::atomic_rmw_needs_fences for why a target may need the fences.
  // `operand` is the operation's operand as the target's own instructions take it (bytes for
  // pointers).
  template <detail::dev::rmw_op Op, typename V, typename Native, typename Compute>
  T rmw(memory_order order, memory_scope scope, V operand, Native native,
        Compute compute) const noexcept {
    int o = detail::builtin_order(order), s = detail::builtin_scope(scope);
    if constexpr (is_floating && !detail::dev::atomic_float_rmw_native) {
      // The target has no floating-point read-modify-write: its compare-exchange loop.
      return detail::dev::atomic_rmw_loop(m_ptr, compute, o, s);
    } else if constexpr (detail::dev::atomic_rmw_needs_fences) {
      if (order == memory_order::release || order == memory_order::acq_rel ||
          order == memory_order::seq_cst)
        detail::dev::atomic_fence(o, s);
      T old;
      if (AddressSpace != access::address_space::local_space &&
          (scope == memory_scope::system ||
           (scope == memory_scope::device && detail::dev::atomic_rmw_system_scope_for_device)))
        old = detail::dev::atomic_rmw_system<Op>(m_ptr, operand, compute);
      else
        old = native(__ATOMIC_RELAXED, s);
      if (order == memory_order::acquire || order == memory_order::acq_rel ||
          order == memory_order::seq_cst)
        detail::dev::atomic_fence(__ATOMIC_ACQ_REL, s);
      return old;
    } else {
      (void)operand;
      (void)compute;
      return native(o, s);
    }
  }

  static T smaller(T a, T b) {
    if constexpr (std::is_same_v<T, float>)
      return __builtin_fminf(a, b);
    else if constexpr (std::is_same_v<T, double>)
      return __builtin_fmin(a, b);
    else
      return b < a ? b : a;
  }
  static T larger(T a, T b) {
    if constexpr (std::is_same_v<T, float>)
      return __builtin_fmaxf(a, b);
    else if constexpr (std::is_same_v<T, double>)
      return __builtin_fmax(a, b);
    else
      return a < b ? b : a;
  }
  // The builtins add bytes to pointers.
  static auto scaled(difference_type operand) {
    if constexpr (is_pointer)
      return operand * static_cast<std::ptrdiff_t>(sizeof(std::remove_pointer_t<T>));
    else
      return operand;
  }
  static T added(T value, difference_type operand) {
    if constexpr (is_integral)
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(value) +
                            static_cast<std::make_unsigned_t<T>>(operand));
    else
      return value + operand;
  }
  static T subtracted(T value, difference_type operand) {
    if constexpr (is_integral)
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(value) -
                            static_cast<std::make_unsigned_t<T>>(operand));
    else
      return value - operand;
  }

  T* m_ptr;
};

SYCLONE_END_NAMESPACE
