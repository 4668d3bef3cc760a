// Kernels named by types of internal linkage, spelled alike in tu_local1.cpp and tu_local2.cpp
// with different bodies: the linked image must keep both units' kernels.
#include <sycl/sycl.hpp>

namespace {
class same_name;
}

static void run(sycl::queue& q, int* p) {
  q.single_task([=] { p[0] = 1; });
  q.single_task<same_name>([=] { p[1] = 1 * 10; });
}

void run_1(sycl::queue& q, int* p) {
  run(q, p);
}

// How the header reads manglings (sycl/detail/kernel_launch.hpp): names of internal linkage,
// and external ones that look alike inside their identifiers or template arguments.
using sycl::detail::internal_linkage_mangling;
static_assert(internal_linkage_mangling(
    "_ZTSZZL22CATCH2_INTERNAL_TEST_0vENKUlRN4sycl3_V17handlerEE_clES4_EUlT_E_"));
static_assert(internal_linkage_mangling("_ZTSZL3runRN4sycl3_V15queueEPiEUlvE_"));
static_assert(internal_linkage_mangling("_ZTSN12_GLOBAL__N_19same_nameE"));
static_assert(internal_linkage_mangling("_ZTSZN2nsL3runEvEUlvE_"));
static_assert(internal_linkage_mangling("_ZTS3KerIL_ZL4specEE"));
static_assert(!internal_linkage_mangling("_ZTS4PfL1"));
static_assert(!internal_linkage_mangling("_ZTS14PfJointGroupL2"));
static_assert(!internal_linkage_mangling("_ZTS11fill_kernelIiE"));
static_assert(!internal_linkage_mangling("_ZTSZ11fill_lambdaPiEUlvE_"));
static_assert(!internal_linkage_mangling("_ZTS3KerILi5EE"));
static_assert(!internal_linkage_mangling("_ZTS3KerIL7my_enum1EE"));
static_assert(!internal_linkage_mangling("_ZTS3KerIL_Z4specEE"));
static_assert(!internal_linkage_mangling("_ZTSZ4mainEUlvE0_"));
