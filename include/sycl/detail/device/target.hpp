// The one target switch (DESIGN.md "Contracts"): every per-target device builtin comes from
// exactly one of these groups of headers (<target>.hpp and the <target>_*.hpp it is split into),
// all exposing the same functions in sycl::detail::dev.
#pragma once

#include <sycl/detail/config.hpp>

#if defined(__NVPTX__) && SYCLONE_DEVICE
#include <sycl/detail/device/nvptx.hpp>
#include <sycl/detail/device/nvptx_load_store.hpp>
#include <sycl/detail/device/nvptx_memory.hpp>
#elif (defined(__SPIRV__) || defined(__SPIR__)) && SYCLONE_DEVICE
#include <sycl/detail/device/direct_load_store.hpp>
#include <sycl/detail/device/spirv.hpp>
#include <sycl/detail/device/spirv_memory.hpp>
#else
#include <sycl/detail/device/direct_load_store.hpp>
#include <sycl/detail/device/host.hpp>
#include <sycl/detail/device/host_memory.hpp>
#endif
