// NVIDIA PTX device builtins (llvm.nvvm.* through clang's __nvvm_* builtins).
// SYCL's last dimension is the fastest varying one and maps to CUDA's x.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
inline constexpr bool is_host = false;

// The work-group's local memory: CUDA dynamic shared memory, sized at launch.
extern "C" __attribute__((address_space(3))) std::byte __syclone_local_memory[];

template <int Dimensions>
SYCLONE_INLINE std::size_t cuda_dim(int sycl_dim) {
  return static_cast<std::size_t>(Dimensions - 1 - sycl_dim);
}
SYCLONE_INLINE std::size_t local_id(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_tid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_tid_y()
                         : __nvvm_read_ptx_sreg_tid_z();
}
SYCLONE_INLINE std::size_t group_id(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_ctaid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y()
                         : __nvvm_read_ptx_sreg_ctaid_z();
}
SYCLONE_INLINE std::size_t local_range(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_ntid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_ntid_y()
                         : __nvvm_read_ptx_sreg_ntid_z();
}
SYCLONE_INLINE void work_group_barrier() { __nvvm_barrier_sync(0); }
SYCLONE_INLINE std::byte* local_memory() noexcept {
  return (std::byte*)&__syclone_local_memory[0];
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// A specialization constant's value. The JIT replaces every call with the value set for the
// launch before optimizing (DESIGN.md: native specialization on NVIDIA); `name` is the
// specialization_id's __builtin_sycl_unique_stable_name.
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE
