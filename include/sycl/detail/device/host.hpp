// Host CPU device builtins. Work-item state lives in the host backend (src/backends/host), which
// runs nd_range work-items as fibers; these entry points reach it from inlined kernel code.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail::host {
// Blocks the calling work-item until every work-item of its work-group arrived (SYCL 2020
// 4.17.3 group_barrier). Must be called from an nd_range kernel running on the host device.
SYCLONE_EXPORT void work_group_barrier();
// Base of the current work-group's local memory (SYCL 2020 4.7.6.11 local_accessor).
SYCLONE_EXPORT std::byte* local_memory() noexcept;
} // namespace detail::host

namespace detail::dev {
inline constexpr bool is_host = true;
inline void work_group_barrier() { host::work_group_barrier(); }
inline std::byte* local_memory() noexcept { return host::local_memory(); }
// Hardware work-item ids exist only on GPU targets; on the host the executor passes ids to the
// kernel object. Declared so target-independent templates resolve the names; never called here.
std::size_t local_id(int hw_dim);
std::size_t group_id(int hw_dim);
std::size_t local_range(int hw_dim);
// Only the GPU targets read specialization constants through the JIT; named here so that
// target-independent templates resolve the name (the host path never calls it).
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE
