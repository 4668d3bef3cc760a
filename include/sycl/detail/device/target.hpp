// The one target switch (DESIGN.md "Contracts"): every per-target device builtin comes from
// exactly one of these headers, all exposing the same functions in sycl::detail::dev.
#pragma once

#include <sycl/detail/config.hpp>

#if defined(__NVPTX__) && SYCLONE_DEVICE
#include <sycl/detail/device/nvptx.hpp>
#elif (defined(__SPIRV__) || defined(__SPIR__)) && SYCLONE_DEVICE
#include <sycl/detail/device/spirv.hpp>
#else
#include <sycl/detail/device/host.hpp>
#endif
