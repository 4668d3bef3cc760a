// SPIR-V device builtins (the SPIR-V target issue fills these in; kernels for spirv64 are not
// compiled by syclone++ yet, so nothing here is reachable today).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
inline constexpr bool is_host = false;
void work_group_barrier();
std::byte* local_memory() noexcept;
std::size_t local_id(int hw_dim);
std::size_t group_id(int hw_dim);
std::size_t local_range(int hw_dim);
// Only the GPU targets read specialization constants through the JIT; named here so that
// target-independent templates resolve the name (the host path never calls it).
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE
