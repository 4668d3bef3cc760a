// sycl_ext_oneapi_prefetch (seed 000), "Prefetch functions": the two examples, as written, with
// a `foo` that adds every element it is given to a sum, so that the result can be checked: the
// prefetches are hints and must not change it.
#include <sycl/sycl.hpp>

#include <cstdio>

namespace syclex = sycl::ext::oneapi::experimental;

int main() {
  constexpr int N = 1024, M = 256;
  sycl::queue q;
  int* data = sycl::malloc_shared<int>(M + 100, q);
  for (int k = 0; k < M + 100; ++k) data[k] = k;
  unsigned long long* sum = sycl::malloc_shared<unsigned long long>(1, q);
  auto foo = [sum](int x) {
    sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device>(
        *sum)
        .fetch_add(static_cast<unsigned long long>(x));
  };
  const unsigned long long expected = 1ull * N * M * (M - 1) / 2;

  // Prefetch into L1 what the next iterations read soon, and into L3 what they read later.
  *sum = 0;
  q.parallel_for(N, [=](auto i) {
    for (int j = 0; j < M; ++j) {
      syclex::prefetch(&data[j + 10], syclex::properties{syclex::prefetch_hint_L1});
      syclex::prefetch(&data[j + 100], syclex::properties{syclex::prefetch_hint_L3});
      foo(data[j]);
    }
  });
  q.wait();
  bool ok = *sum == expected;
  std::printf("L1 + L3 hints: sum %llu (expected %llu)\n", *sum, expected);

  // The same with a nontemporal hint: the data is not expected to be reused.
  *sum = 0;
  q.parallel_for(N, [=](auto i) {
    for (int j = 0; j < M; ++j) {
      syclex::prefetch(
          &data[j + 10],
          syclex::properties{syclex::prefetch_hint<syclex::cache_level::L1, syclex::nontemporal>});
      foo(data[j]);
    }
  });
  q.wait();
  ok = ok && *sum == expected;
  std::printf("L1 nontemporal hint: sum %llu (expected %llu)\n", *sum, expected);

  sycl::free(sum, q);
  sycl::free(data, q);
  std::printf("%s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}
