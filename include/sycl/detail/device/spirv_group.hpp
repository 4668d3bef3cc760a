// Sub-group and work-group primitives for SPIR-V: declared with the signatures every target
// provides (see host_group.hpp, nvptx_group.hpp) so that target-independent headers resolve the
// names. syclone++ does not compile kernels for spirv64 yet (spirv.hpp), so none is reachable;
// the SPIR-V target maps them onto GroupNonUniform* instructions.
// Included by spirv.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
std::uint32_t sub_group_max_size() noexcept;
void sub_group_barrier(const sg_info& sg);
template <typename T>
T sub_group_shuffle(const sg_info& sg, T x, std::uint32_t src);
template <typename T>
T sub_group_shuffle_down(const sg_info& sg, T x, std::uint32_t delta);
template <typename T>
T sub_group_shuffle_up(const sg_info& sg, T x, std::uint32_t delta);
template <typename T>
T sub_group_shuffle_xor(const sg_info& sg, T x, std::uint32_t mask);
template <typename T, typename Op>
T sub_group_reduce(const sg_info& sg, T x, Op op);
template <bool Exclusive, typename T, typename Op>
opt<T> sub_group_scan(const sg_info& sg, T x, Op op);
bool sub_group_any(const sg_info& sg, bool p);
bool sub_group_all(const sg_info& sg, bool p);
template <typename T>
T work_group_broadcast(const wg_info& wg, T x, std::uint32_t src);
template <typename T, typename Op>
T work_group_reduce(const wg_info& wg, T x, Op op);
template <bool Exclusive, typename T, typename Op>
opt<T> work_group_scan(const wg_info& wg, T x, Op op);
bool work_group_any(const wg_info& wg, bool p);
bool work_group_all(const wg_info& wg, bool p);
} // namespace detail::dev
SYCLONE_END_NAMESPACE
