// SYCL 2020 4.15.4 (deprecated, SYCL 1.2.1): the sycl::atomic class, the atomic_* free functions,
// and what access_mode::atomic accessors return from operator[].
//
// Every operation is the matching atomic_ref operation (atomic_ref.hpp: one clang
// __scoped_atomic_* builtin per target), at device scope for global memory and work-group scope
// for local memory. SYCL 1.2.1 only allowed memory_order::relaxed; a stronger order is honoured.
#pragma once

#include <sycl/access.hpp>
#include <sycl/atomic_ref.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/multi_ptr.hpp>

#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

template <typename T, access::address_space AddressSpace = access::address_space::global_space>
class [[deprecated("use sycl::atomic_ref instead")]] atomic {
  static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned int> ||
                    std::is_same_v<T, long> || std::is_same_v<T, unsigned long> ||
                    std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
                    std::is_same_v<T, float>,
                "sycl::atomic supports int, unsigned int, long, unsigned long, long long, "
                "unsigned long long and float (use atomic_ref for double and pointers)");
  static_assert(AddressSpace == access::address_space::global_space ||
                    AddressSpace == access::address_space::local_space,
                "sycl::atomic refers to global or local memory");
  static constexpr memory_scope scope = AddressSpace == access::address_space::local_space
                                            ? memory_scope::work_group
                                            : memory_scope::device;
  using ref = atomic_ref<T, memory_order::relaxed, scope, AddressSpace>;
  static constexpr bool is_integral = !std::is_same_v<T, float>;

public:
  // An atomic over the element a multi_ptr points to (SYCL 2020 4.15.4: any pointee type of
  // T's size, reinterpreted as T, as SYCL 1.2.1 allowed).
  template <typename PointerT, access::decorated IsDecorated>
  atomic(multi_ptr<PointerT, AddressSpace, IsDecorated> ptr)
      : m_ptr(reinterpret_cast<T*>(ptr.get_raw())) {
    static_assert(sizeof(PointerT) == sizeof(T),
                  "sycl::atomic<T> over a multi_ptr to an element of another size");
  }

  void store(T operand, memory_order order = memory_order::relaxed) {
    get().store(operand, store_order(order));
  }
  T load(memory_order order = memory_order::relaxed) const { return get().load(load_order(order)); }
  T exchange(T operand, memory_order order = memory_order::relaxed) {
    return get().exchange(operand, order);
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order success = memory_order::relaxed,
                               memory_order fail = memory_order::relaxed) {
    return get().compare_exchange_strong(expected, desired, success, fail);
  }

#define SYCLONE_LEGACY_ATOMIC_FETCH(name)                                                          \
  template <typename U = T, std::enable_if_t<!std::is_same_v<U, float>>* = nullptr>                \
  T name(T operand, memory_order order = memory_order::relaxed) {                                  \
    return get().name(operand, order);                                                             \
  }
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_add)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_sub)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_and)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_or)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_xor)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_min)
  SYCLONE_LEGACY_ATOMIC_FETCH(fetch_max)
#undef SYCLONE_LEGACY_ATOMIC_FETCH

private:
  ref get() const { return ref(*m_ptr); }
  // A load cannot release and a store cannot acquire: the nearest order that can.
  static memory_order load_order(memory_order o) {
    return o == memory_order::release   ? memory_order::relaxed
           : o == memory_order::acq_rel ? memory_order::acquire
                                        : o;
  }
  static memory_order store_order(memory_order o) {
    return o == memory_order::acquire   ? memory_order::relaxed
           : o == memory_order::acq_rel ? memory_order::release
                                        : o;
  }

  T* m_ptr;
};

// SYCL 2020 4.15.4 (deprecated): the free-function forms, taking the atomic by value.
template <typename T, access::address_space AddressSpace>
void atomic_store(atomic<T, AddressSpace> object, T operand,
                  memory_order order = memory_order::relaxed) {
  object.store(operand, order);
}
template <typename T, access::address_space AddressSpace>
T atomic_load(atomic<T, AddressSpace> object, memory_order order = memory_order::relaxed) {
  return object.load(order);
}
template <typename T, access::address_space AddressSpace>
T atomic_exchange(atomic<T, AddressSpace> object, T operand,
                  memory_order order = memory_order::relaxed) {
  return object.exchange(operand, order);
}
template <typename T, access::address_space AddressSpace>
bool atomic_compare_exchange_strong(atomic<T, AddressSpace> object, T& expected, T desired,
                                    memory_order success = memory_order::relaxed,
                                    memory_order fail = memory_order::relaxed) {
  return object.compare_exchange_strong(expected, desired, success, fail);
}
#define SYCLONE_LEGACY_ATOMIC_FREE(name)                                                           \
  template <typename T, access::address_space AddressSpace>                                        \
  T atomic_##name(atomic<T, AddressSpace> object, T operand,                                       \
                  memory_order order = memory_order::relaxed) {                                    \
    return object.name(operand, order);                                                            \
  }
SYCLONE_LEGACY_ATOMIC_FREE(fetch_add)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_sub)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_and)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_or)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_xor)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_min)
SYCLONE_LEGACY_ATOMIC_FREE(fetch_max)
#undef SYCLONE_LEGACY_ATOMIC_FREE

SYCLONE_END_NAMESPACE
