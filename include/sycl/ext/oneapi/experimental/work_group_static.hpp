// sycl_ext_oneapi_work_group_static (intel/llvm sycl/doc/extensions/experimental): variables of
// the work-group's local memory declared like thread_local ones, at namespace scope, as static
// data members or at block scope (where they are static whether or not `static` is written; a
// block-scope variable written without it is one variable per place it is inlined into).
//
// Each work_group_static variable is one allocation of device local memory per work-group:
// every use of the variable names the calling work-group's storage. syclone's passes (src/passes,
// run by the NVPTX JIT, syclone++'s SPIR-V lowering and the host compile's pass plugin) give each
// variable its storage: a shared-memory variable on GPU targets, a thread-local one on the host
// device (a thread runs one work-group at a time). Like shared memory the storage starts
// indeterminate: T is trivially constructible and destructible, and nothing constructs it.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>

#include <cstddef>
#include <type_traits>

#define SYCL_EXT_ONEAPI_WORK_GROUP_STATIC 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <typename T>
class work_group_static final {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                "work_group_static<T>: T must be trivially constructible and trivially "
                "destructible (sycl_ext_oneapi_work_group_static)");

public:
  work_group_static() = default;
  work_group_static(const work_group_static&) = delete;
  work_group_static& operator=(const work_group_static&) = delete;

  // The calling work-group's object.
  [[gnu::always_inline]] operator T&() const noexcept { return *storage(); }

  template <typename U = T, std::enable_if_t<!std::is_array_v<U>, int> = 0>
  [[gnu::always_inline]] const work_group_static& operator=(const T& value) const noexcept {
    *storage() = value;
    return *this;
  }

  [[gnu::always_inline]] T* operator&() const noexcept { return storage(); }

private:
  // The variable is named by its address, which the passes read at compile time.
  [[gnu::always_inline]] T* storage() const noexcept {
    return static_cast<T*>(
        sycl::detail::dev::work_group_static_storage<sizeof(T), alignof(T)>(this));
  }
};

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
