// sycl_khr_work_item_queries (issue 30): khr::this_nd_item, this_group and this_sub_group (and
// sycl_ext_oneapi_free_function_queries' this_work_item::get_nd_item etc., the same), called
// from functions the kernel does not pass its nd_item to, equal what the kernel's own nd_item
// says, in 1, 2 and 3 dimensions, with a (deprecated) offset, across a work-group barrier, in a
// function kept out of line, and in a kernel with sub-group exchanges; the spec's own example
// (vector_add through this_nd_item) computes the right sums.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#ifndef SYCL_KHR_WORK_ITEM_QUERIES
#error "SYCL_KHR_WORK_ITEM_QUERIES is not defined"
#endif
#ifndef SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES
#error "SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES is not defined"
#endif

namespace {

// Bit 0: nd_item equal; 1: the group; 2: the sub-group; 3: the global id (with the offset) and
// the linear ids; 4: the same after a barrier.
template <int D>
int compare(const sycl::nd_item<D>& it) {
  int bits = 0;
  sycl::nd_item<D> mine = sycl::khr::this_nd_item<D>();
  if (mine == it) bits |= 1;
  if (sycl::khr::this_group<D>() == it.get_group()) bits |= 2;
  if (sycl::khr::this_sub_group() == it.get_sub_group()) bits |= 4;
  namespace wi = sycl::ext::oneapi::this_work_item;
  if (wi::get_nd_item<D>() != it || wi::get_work_group<D>() != it.get_group() ||
      wi::get_sub_group() != it.get_sub_group())
    bits |= 32;
  if (mine.get_global_id() == it.get_global_id() &&
      mine.get_global_linear_id() == it.get_global_linear_id() &&
      mine.get_local_linear_id() == it.get_local_linear_id() &&
      mine.get_group_linear_id() == it.get_group_linear_id())
    bits |= 8;
  return bits;
}

[[gnu::noinline]] std::size_t out_of_line_id() {
  return sycl::khr::this_nd_item<1>().get_global_linear_id();
}

template <int D>
void check(sycl::queue& q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t n = global.size();
  int* bits = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::nd_range<D>{global, local}, [=](sycl::nd_item<D> it) {
     int b = compare(it);
     sycl::group_barrier(it.get_group());
     if (sycl::khr::this_nd_item<D>() == it) b |= 16;
     bits[it.get_global_linear_id()] = b;
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i)
    if (bits[i] != 31) {
      if (ok) std::printf("%d-D, work-item %zu: %d (want 31)\n", D, i, bits[i]);
      ok = false;
    }
  EXPECT(ok);
  sycl::free(bits, q);
}

void with_offset(sycl::queue& q) {
  constexpr std::size_t n = 64;
  std::size_t* ids = sycl::malloc_shared<std::size_t>(n, q);
  q.submit([&](sycl::handler& h) {
     h.parallel_for(
         sycl::nd_range<1>{sycl::range<1>{n}, sycl::range<1>{16}, sycl::id<1>{100}},
         [=](sycl::nd_item<1> it) {
           ids[it.get_global_linear_id()] =
               sycl::khr::this_nd_item<1>().get_global_id(0) -
               (it.get_global_id(0) == sycl::khr::this_nd_item<1>().get_global_id(0) ? 0 : 1000000);
         });
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok &= ids[i] == 100 + i;
  EXPECT(ok);
  sycl::free(ids, q);
}

// The extension's example: a function that finds its element through this_nd_item.
void vector_add(const float* a, const float* b, float* c) {
  std::size_t i = sycl::khr::this_nd_item<1>().get_global_linear_id();
  c[i] = a[i] + b[i];
}

void example(sycl::queue& q) {
  constexpr std::size_t n = 1024;
  float* a = sycl::malloc_shared<float>(n, q);
  float* b = sycl::malloc_shared<float>(n, q);
  float* c = sycl::malloc_shared<float>(n, q);
  std::size_t* out_of_line = sycl::malloc_shared<std::size_t>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i);
    c[i] = 0;
  }
  q.parallel_for(sycl::nd_range<1>{n, 32}, [=](sycl::nd_item<1> it) {
     vector_add(a, b, c);
     out_of_line[it.get_global_linear_id()] = out_of_line_id();
   }).wait();
  bool sums = true, ids = true;
  for (std::size_t i = 0; i < n; ++i) {
    sums &= c[i] == float(3 * i);
    ids &= out_of_line[i] == i;
  }
  EXPECT(sums);
  EXPECT(ids);
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  sycl::free(out_of_line, q);
}

// An nd_range kernel with a reduction (its kernel object is the reduction's): the queries answer
// the same there.
void with_reduction(sycl::queue& q) {
  constexpr std::size_t n = 512;
  int* bad = sycl::malloc_shared<int>(1, q);
  long* sum = sycl::malloc_shared<long>(1, q);
  *bad = 0;
  *sum = 0;
  q.parallel_for(sycl::nd_range<2>{{16, 32}, {4, 8}}, sycl::reduction(sum, sycl::plus<long>()),
                 [=](sycl::nd_item<2> it, auto& s) {
                   if (compare(it) != 15) *bad = 1; // (benign race: every writer writes 1)
                   s += long(sycl::khr::this_nd_item<2>().get_global_linear_id());
                 })
      .wait();
  EXPECT(*bad == 0);
  EXPECT(*sum == long(n) * (n - 1) / 2);
  sycl::free(bad, q);
  sycl::free(sum, q);
}

// A kernel with sub-group exchanges (the host's loops run a sub-group as a vector).
void with_sub_groups(sycl::queue& q) {
  constexpr std::size_t n = 256;
  int* out = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::nd_range<1>{n, 64}, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = sycl::khr::this_sub_group();
     int lane = int(sg.get_local_linear_id());
     int sum = sycl::reduce_over_group(sg, lane, sycl::plus<>());
     int size = int(sg.get_local_linear_range());
     out[it.get_global_linear_id()] =
         (sum == size * (size - 1) / 2 && sg == it.get_sub_group()) ? 1 : 0;
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok &= out[i] == 1;
  EXPECT(ok);
  sycl::free(out, q);
}

} // namespace

int main() {
  sycl::queue q;
  check<1>(q, sycl::range<1>{128}, sycl::range<1>{32});
  check<2>(q, sycl::range<2>{8, 12}, sycl::range<2>{4, 6});
  check<3>(q, sycl::range<3>{4, 6, 8}, sycl::range<3>{2, 3, 4});
  with_offset(q);
  with_reduction(q);
  example(q);
  with_sub_groups(q);
  if (failures == 0) std::printf("work_item_queries: all checks passed\n");
  return failures;
}
