// SYCLONE_E2E_ARGS: -fsycl-targets=host
// kernel_bundles.cpp built without device images. On the host device the kernels still exist
// (the host program registers them) and bundles know which specialization constants they read
// (recorded by syclone++'s plugin in the host compile: SYCL 2020 4.11.11 has_specialization_constant
// holds without device code). On a GPU the kernels are not compatible: bundles, compatibility
// queries and submissions say so.
#define SYCLONE_TEST_HOST_ONLY 1
#include "kernel_bundles.cpp"
