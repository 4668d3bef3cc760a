// SYCLONE_E2E_ARGS: -fsycl-targets=host
// kernel_bundles.cpp built without device images. On the host device the kernels still exist
// (the host program registers them), but nothing records which specialization constants they
// read, so bundles report none (include/sycl/kernel_bundle.hpp). On a GPU the kernels are not
// compatible: bundles, compatibility queries and submissions say so.
#define SYCLONE_TEST_HOST_ONLY 1
#include "kernel_bundles.cpp"
