// Per-kernel facts that syclone++ learns from the source and the runtime needs at submission,
// registered by the generated registration object next to the device images (image.hpp).
// Plain C data, like the image descriptors.
#pragma once

#include <sycl/detail/config.hpp>

extern "C" {

// Seed 004: the sub-group size a kernel requires through [[sycl::reqd_sub_group_size(N)]],
// [[intel::sub_group_size(N)]], [[intel::named_sub_group_size(primary|automatic)]], a
// sub_group_size property, or -fsycl-default-sub-group-size when it states none.
struct syclone_kernel_sub_group_size {
  const char* kernel; // __builtin_sycl_unique_stable_name of the kernel name
  uint32_t size;      // N, or 0xffffffff for primary, 0xfffffffe for automatic; N with bit 30
                      // (syclone_sub_group_size_core) set when it came from SYCL 2020's
                      // [[sycl::reqd_sub_group_size(N)]]: an unsupported N then throws
                      // errc::kernel_not_supported (SYCL 2020 5.8.1), not seed 004's
                      // errc::feature_not_supported
};
#define SYCLONE_SUB_GROUP_SIZE_CORE 0x40000000u

// Called by the generated registration object before main (or at dlopen). The runtime copies
// the records; a later registration of the same kernel replaces an earlier one.
SYCLONE_EXPORT void __syclone_register_sub_group_sizes(const syclone_kernel_sub_group_size* records,
                                                       uint64_t count);

// SYCL 2020 4.11.11: the specialization constants each kernel reads, as the host compile saw
// them (syclone++'s plugin follows the calls of the kernel's functor); the runtime uses them for
// kernels no device image describes (programs built with -fsycl-targets=host).
struct syclone_kernel_spec_constant {
  const char* kernel;        // __builtin_sycl_unique_stable_name of the kernel name
  const char* spec_constant; // __builtin_sycl_unique_stable_name of its spec_constant_tag
};
SYCLONE_EXPORT void
__syclone_register_kernel_spec_constants(const syclone_kernel_spec_constant* records,
                                         uint64_t count);

// SYCL 2020 5.8.1: a kernel's [[sycl::reqd_work_group_size]], [[sycl::work_group_size_hint]] and
// [[sycl::device_has]], as syclone++'s plugin read them from the kernel's call operator.
struct syclone_kernel_attributes {
  const char* kernel;                 // __builtin_sycl_unique_stable_name of the kernel name
  uint32_t reqd_work_group_dims;      // 0: no reqd_work_group_size
  uint64_t reqd_work_group_size[3];   // SYCL dimension order
  uint32_t work_group_size_hint_dims; // 0: no work_group_size_hint
  uint64_t work_group_size_hint[3];   // SYCL dimension order
  int32_t aspect_count;               // -1: no device_has
  const int32_t* aspects;             // sycl::aspect values
};
SYCLONE_EXPORT void __syclone_register_kernel_attributes(const syclone_kernel_attributes* records,
                                                         uint64_t count);

} // extern "C"
