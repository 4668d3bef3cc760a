// SYCLONE_E2E_ARGS: -Wno-deprecated-declarations
// SYCL 2020 4.9.1.2 / 4.9.1.5 (deprecated, still specified): an nd_range with an offset. Every
// work-item's global id includes the offset, get_global_linear_id subtracts it first, and
// nd_item::get_offset and get_nd_range() return it; also a reduction over such an nd_range.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

struct record {
  std::size_t global_id[2], linear, offset[2], nd_offset[2];
  int visits;
};
} // namespace

int main() {
  sycl::queue q;
  const sycl::range<2> global{8, 6}, local{4, 2};
  const sycl::id<2> offset{3, 5};
  const std::size_t n = global.size();
  record* rec = sycl::malloc_shared<record>(n, q);
  for (std::size_t i = 0; i < n; ++i) rec[i] = record{};
  q.parallel_for(sycl::nd_range<2>(global, local, offset), [=](sycl::nd_item<2> it) {
     const std::size_t lin = it.get_global_linear_id();
     record& r = rec[lin];
     for (int d = 0; d < 2; ++d) {
       r.global_id[d] = it.get_global_id(d);
       r.offset[d] = it.get_offset()[d];
       r.nd_offset[d] = it.get_nd_range().get_offset()[d];
     }
     r.linear = lin;
     r.visits += 1;
   }).wait();
  for (std::size_t i = 0; i < global[0]; ++i)
    for (std::size_t j = 0; j < global[1]; ++j) {
      const record& r = rec[i * global[1] + j];
      CHECK(r.visits == 1);
      CHECK(r.global_id[0] == i + offset[0] && r.global_id[1] == j + offset[1]);
      CHECK(r.linear == i * global[1] + j);
      CHECK(r.offset[0] == offset[0] && r.offset[1] == offset[1]);
      CHECK(r.nd_offset[0] == offset[0] && r.nd_offset[1] == offset[1]);
    }

  // Without an offset the ids start at zero and get_offset is zero.
  std::size_t* first = sycl::malloc_shared<std::size_t>(3, q);
  q.parallel_for(sycl::nd_range<1>(8, 4), [=](sycl::nd_item<1> it) {
     if (it.get_global_linear_id() == 0) {
       first[0] = it.get_global_id(0);
       first[1] = it.get_offset()[0];
       first[2] = it.get_nd_range().get_offset()[0];
     }
   }).wait();
  CHECK(first[0] == 0 && first[1] == 0 && first[2] == 0);

  // A reduction over an nd_range with an offset sees the shifted global ids.
  std::size_t* sum = sycl::malloc_shared<std::size_t>(1, q);
  *sum = 0;
  q.parallel_for(sycl::nd_range<1>(16, 4, 100), sycl::reduction(sum, sycl::plus<std::size_t>()),
                 [=](sycl::nd_item<1> it, auto& s) { s += it.get_global_id(0); })
      .wait();
  CHECK(*sum == 16 * 100 + 15 * 16 / 2);

  sycl::free(rec, q);
  sycl::free(first, q);
  sycl::free(sum, q);
  if (g_failures) return 1;
  std::printf("nd_range_offset: OK\n");
  return 0;
}
