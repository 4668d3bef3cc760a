// Kernels named by types of internal linkage, spelled alike in tu_local1.cpp and tu_local2.cpp
// with different bodies: the linked image must keep both units' kernels.
#include <sycl/sycl.hpp>

namespace {
class same_name;
}

static void run(sycl::queue& q, int* p) {
  q.single_task([=] { p[0] = 2; });
  q.single_task<same_name>([=] { p[1] = 2 * 10; });
}

void run_2(sycl::queue& q, int* p) {
  run(q, p);
}
