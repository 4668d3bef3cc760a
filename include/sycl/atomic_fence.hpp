// SYCL 2020 4.15.1. atomic_fence, and the mapping of SYCL memory orders and scopes onto clang's
// scoped atomic builtins, which atomic_ref shares.
//
// clang's __scoped_atomic_* builtins take the order and scope as arguments and lower on every
// target we compile for; the fence itself is per target (detail/device/*.hpp) because NVPTX needs
// its scope spelled out (fence.acq_rel.cta rather than clang's .sys).
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace detail {
constexpr int builtin_order(memory_order order) {
  switch (order) {
  case memory_order::relaxed:
    return __ATOMIC_RELAXED;
  case memory_order::acquire:
    return __ATOMIC_ACQUIRE;
  case memory_order::release:
    return __ATOMIC_RELEASE;
  case memory_order::acq_rel:
    return __ATOMIC_ACQ_REL;
  case memory_order::seq_cst:
    return __ATOMIC_SEQ_CST;
  }
  return __ATOMIC_SEQ_CST;
}
constexpr int builtin_scope(memory_scope scope) {
  switch (scope) {
  case memory_scope::work_item:
    return __MEMORY_SCOPE_SINGLE;
  case memory_scope::sub_group:
    return __MEMORY_SCOPE_WVFRNT;
  case memory_scope::work_group:
    return __MEMORY_SCOPE_WRKGRP;
  case memory_scope::device:
    return __MEMORY_SCOPE_DEVICE;
  case memory_scope::system:
    return __MEMORY_SCOPE_SYSTEM;
  }
  return __MEMORY_SCOPE_SYSTEM;
}
} // namespace detail

// SYCL 2020 4.15.1: orders memory accesses of the calling work-item as `order` says, for
// work-items within `scope`. A relaxed fence has no effect.
SYCLONE_INLINE void atomic_fence(memory_order order, memory_scope scope) {
  detail::dev::atomic_fence(detail::builtin_order(order), detail::builtin_scope(scope));
}

SYCLONE_END_NAMESPACE
