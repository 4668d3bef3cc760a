// sycl_ext_oneapi_local_memory (issue 30): group_local_memory and
// group_local_memory_for_overwrite. Each call of a kernel is an object of its own (two calls for
// the same type do not share memory), shared by the work-items of a work-group and separate for
// each work-group (work-groups run at the same time on the host's threads and the GPU's SMs);
// the object is constructed once per group from the arguments (value-initialized without them,
// aggregate-initialized for arrays; default-initialized by the _for_overwrite form), before any
// work-item reads it; a tree reduction through such an array computes every group's sum.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#ifndef SYCL_EXT_ONEAPI_LOCAL_MEMORY
#error "SYCL_EXT_ONEAPI_LOCAL_MEMORY is not defined"
#endif

namespace oneapi = sycl::ext::oneapi;

namespace {

struct point {
  int x, y, z;
  point(int x = 1, int y = -2, int z = 3) : x(x), y(y), z(z) {}
};

constexpr std::size_t groups = 64, group_size = 32, n = groups * group_size;

void objects(sycl::queue& q) {
  int* out = sycl::malloc_shared<int>(n * 8, q);
  q.parallel_for(sycl::nd_range<1>{n, group_size}, [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     std::size_t l = it.get_local_linear_id();
     auto a = oneapi::group_local_memory<int[group_size]>(g);
     auto b = oneapi::group_local_memory<int[group_size]>(g);
     auto seven = oneapi::group_local_memory<int>(g, 7);
     auto zero = oneapi::group_local_memory<double>(g);
     auto p = oneapi::group_local_memory<point>(g, 5, 6);
     auto arr = oneapi::group_local_memory<int[5]>(g, 1, -2, 3);
     auto fresh = oneapi::group_local_memory_for_overwrite<point>(g);
     auto scratch = oneapi::group_local_memory_for_overwrite<int>(g);
     int* r = out + it.get_global_linear_id() * 8;
     r[0] = *seven == 7 && *zero == 0.0 && p->x == 5 && p->y == 6 && p->z == 3;
     r[1] = (*arr)[0] == 1 && (*arr)[1] == -2 && (*arr)[2] == 3 && (*arr)[3] == 0 && (*arr)[4] == 0;
     r[2] = fresh->x == 1 && fresh->y == -2 && fresh->z == 3;
     // The two arrays are different memory: each work-item writes its own slot of both.
     (*a)[l] = int(l);
     (*b)[l] = int(1000 + l);
     if (l == 0) *scratch = int(it.get_group_linear_id());
     sycl::group_barrier(g);
     std::size_t other = group_size - 1 - l;
     r[3] = (*a)[other] == int(other) && (*b)[other] == int(1000 + other);
     // Each work-group has its own objects.
     r[4] = *scratch == int(it.get_group_linear_id());
     r[5] = a.get() != b.get();
     r[6] = sycl::address_space_cast<sycl::access::address_space::local_space,
                                     sycl::access::decorated::no>(&(*a)[l])
                .get() != nullptr;
   }).wait();
  const char* what[] = {"constructed values",        "array initializer", "default-initialized",
                        "distinct arrays",           "per-group objects", "distinct addresses",
                        "in the local address space"};
  for (int c = 0; c < 7; ++c) {
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok &= out[i * 8 + c] == 1;
    if (!ok) std::printf("check %d (%s) failed\n", c, what[c]);
    EXPECT(ok);
  }
  sycl::free(out, q);
}

// Per-group sums through a local tree: the memory of group_local_memory_for_overwrite.
void reduction(sycl::queue& q) {
  constexpr std::size_t wg = 128, count = 1 << 16;
  float* in = sycl::malloc_shared<float>(count, q);
  float* sums = sycl::malloc_shared<float>(count / wg, q);
  for (std::size_t i = 0; i < count; ++i) in[i] = float(i % 97);
  q.parallel_for(sycl::nd_range<1>{count, wg}, [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     auto tree = oneapi::group_local_memory_for_overwrite<float[wg]>(g);
     std::size_t l = it.get_local_id(0);
     (*tree)[l] = in[it.get_global_id(0)];
     for (std::size_t s = wg / 2; s > 0; s /= 2) {
       sycl::group_barrier(g);
       if (l < s) (*tree)[l] += (*tree)[l + s];
     }
     if (l == 0) sums[it.get_group(0)] = (*tree)[0];
   }).wait();
  bool ok = true;
  for (std::size_t gi = 0; gi < count / wg; ++gi) {
    float want = 0;
    for (std::size_t i = gi * wg; i < (gi + 1) * wg; ++i) want += in[i];
    ok &= sums[gi] == want;
  }
  EXPECT(ok);
  sycl::free(in, q);
  sycl::free(sums, q);
}

} // namespace

int main() {
  sycl::queue q;
  objects(q);
  reduction(q);
  if (failures == 0) std::printf("group_local_memory: all checks passed\n");
  return failures;
}
