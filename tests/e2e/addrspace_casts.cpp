// sycl_khr_static_addrspace_cast and sycl_khr_dynamic_addrspace_cast (issue 30), and the core
// address_space_cast they align with. In kernels, pointers to global memory (a buffer accessor,
// USM), to local memory (a local_accessor) and to private memory (a variable, and an array that
// stays live across a work-group barrier, which the host's compiled loops keep in their own
// per-work-item storage) are cast to each named space: the dynamic casts answer null for every
// space but the object's own, the static casts give back the same address, and loads and stores
// through the results reach the object. Under fibers (SYCLONE_HOST_KERNELS=fibers, the
// .fibers test) private memory is the fiber's stack.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#ifndef SYCL_KHR_STATIC_ADDRSPACE_CAST
#error "SYCL_KHR_STATIC_ADDRSPACE_CAST is not defined"
#endif
#ifndef SYCL_KHR_DYNAMIC_ADDRSPACE_CAST
#error "SYCL_KHR_DYNAMIC_ADDRSPACE_CAST is not defined"
#endif

namespace {

using space = sycl::access::address_space;

// Bit 0: the cast to global gave a pointer, bit 1 local, bit 2 private; bit 3: the dynamic cast
// to the object's own space and the static one kept the address; bit 4: the same through a
// generic multi_ptr.
template <space Own, typename T>
int classify(T* p) {
  int bits = 0;
  auto g = sycl::khr::dynamic_addrspace_cast<space::global_space>(p);
  auto l = sycl::khr::dynamic_addrspace_cast<space::local_space>(p);
  auto q = sycl::khr::dynamic_addrspace_cast<space::private_space>(p);
  bits |= g.get_raw() != nullptr ? 1 : 0;
  bits |= l.get_raw() != nullptr ? 2 : 0;
  bits |= q.get_raw() != nullptr ? 4 : 0;
  auto own = sycl::khr::dynamic_addrspace_cast<Own>(p);
  auto fixed = sycl::khr::static_addrspace_cast<Own>(p);
  if (own.get_raw() == p && fixed.get_raw() == p) bits |= 8;
  sycl::generic_ptr<T, sycl::access::decorated::no> generic(p);
  auto own_generic = sycl::khr::dynamic_addrspace_cast<Own>(generic);
  auto fixed_generic = sycl::khr::static_addrspace_cast<Own>(sycl::raw_generic_ptr<T>(p));
  static_assert(std::is_same_v<decltype(fixed_generic),
                               sycl::multi_ptr<T, Own, sycl::access::decorated::no>>);
  if (own_generic.get_raw() == p && fixed_generic.get_raw() == p &&
      sycl::address_space_cast<Own, sycl::access::decorated::no>(p).get_raw() == p)
    bits |= 16;
  return bits;
}

constexpr int global_bits = 1 | 8 | 16, local_bits = 2 | 8 | 16, private_bits = 4 | 8 | 16;

void in_kernels(sycl::queue& q) {
  constexpr std::size_t n = 64, group = 16;
  int* usm = sycl::malloc_device<int>(n, q);
  int* results = sycl::malloc_shared<int>(n * 5, q);
  sycl::buffer<int> buf{sycl::range<1>{n}};
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc{buf, h, sycl::write_only, sycl::no_init};
     sycl::local_accessor<int> tile{group, h};
     h.parallel_for(sycl::nd_range<1>{n, group}, [=](sycl::nd_item<1> it) {
       std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
       int* r = results + i * 5;
       int* global_acc = &acc[i];
       r[0] = classify<space::global_space>(global_acc);
       r[1] = classify<space::global_space>(usm + i);
       int* local_ptr = &tile[l];
       r[2] = classify<space::local_space>(local_ptr);
       // Writes through the cast pointers reach the objects.
       *sycl::khr::static_addrspace_cast<space::local_space>(local_ptr) = int(i);
       *sycl::khr::dynamic_addrspace_cast<space::global_space>(usm + i) = int(2 * i);
       int mine[4] = {int(i), 1, 2, 3};
       r[3] = classify<space::private_space>(&mine[1]);
       sycl::group_barrier(it.get_group());
       // Live across the barrier: where the compiled loops keep it, still private.
       volatile int keep = mine[(i + 1) % 4];
       r[4] = classify<space::private_space>(&mine[i % 4]) |
              (tile[(l + 1) % group] == int(it.get_group(0) * group + (l + 1) % group) &&
                       keep == mine[(i + 1) % 4]
                   ? 0
                   : 64);
       acc[i] = mine[0];
     });
   }).wait();
  bool ok[5] = {true, true, true, true, true};
  const int want[5] = {global_bits, global_bits, local_bits, private_bits, private_bits};
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 5; ++k)
      if (results[i * 5 + k] != want[k]) {
        if (ok[k])
          std::printf("work-item %zu, check %d: %d (want %d)\n", i, k, results[i * 5 + k], want[k]);
        ok[k] = false;
      }
  for (bool b : ok) EXPECT(b);
  int back[n];
  q.memcpy(back, usm, sizeof back).wait();
  bool written = true;
  for (std::size_t i = 0; i < n; ++i) written &= back[i] == int(2 * i);
  EXPECT(written);
  sycl::host_accessor acc{buf};
  for (std::size_t i = 0; i < n; ++i) written &= acc[i] == int(i);
  EXPECT(written);
  sycl::free(usm, q);
  sycl::free(results, q);
}

// A range kernel: private memory is the work-item's stack, the rest global.
void in_range_kernel(sycl::queue& q) {
  int* results = sycl::malloc_shared<int>(2, q);
  int* data = sycl::malloc_shared<int>(1, q);
  q.single_task([=] {
     int mine = 5;
     results[0] = classify<space::private_space>(&mine);
     results[1] = classify<space::global_space>(data);
   }).wait();
  EXPECT(results[0] == private_bits);
  EXPECT(results[1] == global_bits);
  sycl::free(results, q);
  sycl::free(data, q);
}

// A hierarchical kernel's work-group-scope variables are local memory (SYCL 2020 4.9.4.2.3): a
// cast to the local space keeps them (on the host they live on a stack; a GPU puts them in
// shared memory).
void in_hierarchical_kernel(sycl::queue& q) {
  int* results = sycl::malloc_shared<int>(4, q);
  q.submit([&](sycl::handler& h) {
     h.parallel_for_work_group(sycl::range<1>{4}, sycl::range<1>{8}, [=](sycl::group<1> g) {
       int tile[8];
       auto local =
           sycl::address_space_cast<space::local_space, sycl::access::decorated::no>(&tile[0]);
       g.parallel_for_work_item([&](sycl::h_item<1> it) { tile[it.get_local_id(0)] = 1; });
       results[g.get_group_id(0)] = local.get_raw() == &tile[0] ? tile[7] : -1;
     });
   }).wait();
  for (int i = 0; i < 4; ++i) EXPECT(results[i] == 1);
  sycl::free(results, q);
}

} // namespace

int main() {
  sycl::queue q;
  in_kernels(q);
  in_range_kernel(q);
  in_hierarchical_kernel(q);
  if (failures == 0) std::printf("addrspace_casts: all checks passed\n");
  return failures;
}
