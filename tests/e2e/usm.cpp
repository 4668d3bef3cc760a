// SYCLONE_E2E_ARGS: -std=c++20
// SYCL 2020 4.8 unified shared memory: malloc_device/host/shared (byte and typed, queue and
// device+context forms), the aligned_alloc_* variants, malloc with usm::alloc, free through a
// queue and a context, usm_allocator with std::vector, get_pointer_type / get_pointer_device,
// zero-size allocations, and the errors for freeing foreign pointers. Built as C++20.
#include <sycl/sycl.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <numeric>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || (needle && !std::strstr(e.what(), needle))) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

constexpr std::size_t N = 1000;

bool aligned(const void* p, std::size_t a) {
  return std::bit_cast<std::uintptr_t>(p) % a == 0;
}

// Fills p[i] = i * k on the device and checks a host copy.
bool roundtrip(sycl::queue& q, int* p, int k) {
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
     p[i] = static_cast<int>(i[0]) * k;
   }).wait();
  std::vector<int> host(N, -1);
  q.memcpy(host.data(), p, N * sizeof(int)).wait();
  for (std::size_t i = 0; i < N; ++i)
    if (host[i] != static_cast<int>(i) * k) return false;
  return true;
}

void test_allocations(sycl::queue& q) {
  sycl::device dev = q.get_device();
  sycl::context ctx = q.get_context();
  using sycl::usm::alloc;

  int* d1 = sycl::malloc_device<int>(N, q);
  int* d2 = static_cast<int*>(sycl::malloc_device(N * sizeof(int), dev, ctx));
  int* h1 = sycl::malloc_host<int>(N, q);
  int* h2 = static_cast<int*>(sycl::malloc_host(N * sizeof(int), ctx));
  int* s1 = sycl::malloc_shared<int>(N, dev, ctx);
  int* s2 = static_cast<int*>(sycl::malloc_shared(N * sizeof(int), q));
  int* m1 = sycl::malloc<int>(N, q, alloc::device);
  int* m2 = static_cast<int*>(sycl::malloc(N * sizeof(int), dev, ctx, alloc::host));
  int* m3 = sycl::malloc<int>(N, dev, ctx, alloc::shared);
  int* all[] = {d1, d2, h1, h2, s1, s2, m1, m2, m3};
  alloc kinds[] = {alloc::device, alloc::device, alloc::host, alloc::host,  alloc::shared,
                   alloc::shared, alloc::device, alloc::host, alloc::shared};
  for (int i = 0; i < 9; ++i) {
    if (!all[i]) {
      std::printf("FAILED: allocation %d returned nullptr\n", i);
      ++g_failures;
      continue;
    }
    CHECK(aligned(all[i], alignof(int)));
    CHECK(sycl::get_pointer_type(all[i], ctx) == kinds[i]);
    // Interior pointers belong to their allocation too.
    CHECK(sycl::get_pointer_type(all[i] + N - 1, ctx) == kinds[i]);
    CHECK(sycl::get_pointer_device(all[i], ctx) == dev);
    CHECK(roundtrip(q, all[i], i + 1));
  }
  // Host and shared memory is directly usable on the host.
  for (std::size_t i = 0; i < N; ++i) h1[i] = 1;
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { s1[i] = h1[i] + 1; }).wait();
  CHECK(s1[0] == 2 && s1[N - 1] == 2);

  sycl::free(d1, q);
  sycl::free(d2, ctx);
  sycl::free(h1, q);
  sycl::free(h2, ctx);
  sycl::free(s1, q);
  sycl::free(s2, ctx);
  sycl::free(m1, q);
  sycl::free(m2, q);
  sycl::free(m3, ctx);
  // After free the pointers are unknown to the context.
  CHECK(sycl::get_pointer_type(d1, ctx) == alloc::unknown);
  sycl::free(nullptr, q); // freeing nullptr does nothing
  sycl::free(nullptr, ctx);
}

void test_aligned(sycl::queue& q) {
  sycl::device dev = q.get_device();
  sycl::context ctx = q.get_context();
  for (std::size_t a : {8u, 64u, 256u, 4096u}) {
    void* p1 = sycl::aligned_alloc_device(a, 100, q);
    void* p2 = sycl::aligned_alloc_host(a, 100, ctx);
    void* p3 = sycl::aligned_alloc_shared(a, 100, dev, ctx);
    double* p4 = sycl::aligned_alloc_device<double>(a, 10, dev, ctx);
    float* p5 = sycl::aligned_alloc_host<float>(a, 10, q);
    short* p6 = sycl::aligned_alloc_shared<short>(a, 10, q);
    void* p7 = sycl::aligned_alloc(a, 100, q, sycl::usm::alloc::shared);
    int* p8 = sycl::aligned_alloc<int>(a, 10, dev, ctx, sycl::usm::alloc::device);
    void* ps[] = {p1, p2, p3, p4, p5, p6, p7, p8};
    for (void* p : ps) {
      if (!p || !aligned(p, a)) {
        std::printf("FAILED: aligned allocation (alignment %zu) at %p\n", a, p);
        ++g_failures;
      }
      sycl::free(p, q);
    }
  }
  // The typed forms never go below alignof(T).
  double* d = sycl::aligned_alloc_shared<double>(1, 4, q);
  CHECK(d && aligned(d, alignof(double)));
  sycl::free(d, q);
  // A non-power-of-two alignment is not supported: nullptr, no exception.
  CHECK(sycl::aligned_alloc_shared(24, 100, q) == nullptr);
}

void test_zero_and_unknown(sycl::queue& q) {
  sycl::context ctx = q.get_context();
  CHECK(sycl::malloc_device(0, q) == nullptr);
  CHECK(sycl::malloc_host(0, q) == nullptr);
  CHECK(sycl::malloc_shared(0, q) == nullptr);
  CHECK(sycl::malloc_shared<int>(0, q) == nullptr);
  CHECK(sycl::malloc(0, q, sycl::usm::alloc::device) == nullptr);
  CHECK(sycl::aligned_alloc_host(64, 0, q) == nullptr);
  // Requests larger than the device can hold fail with nullptr, also when the element count
  // times the element size overflows (it must not wrap to a small allocation).
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  CHECK(sycl::malloc_shared(max, q) == nullptr);
  CHECK(sycl::malloc_device(max - 8, q) == nullptr);
  CHECK(sycl::malloc_shared<int>(max / 2 + 2, q) == nullptr);
  CHECK(sycl::malloc_host<double>(max / 4, q) == nullptr);
  CHECK(sycl::aligned_alloc_device<int>(64, max / 2 + 2, q) == nullptr);
  CHECK(sycl::malloc<long>(max / 4, q, sycl::usm::alloc::device) == nullptr);
  bool threw = false;
  try {
    sycl::usm_allocator<int, sycl::usm::alloc::shared> alloc(q);
    (void)alloc.allocate(max / 2 + 2);
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  CHECK(threw);

  int on_stack = 0;
  std::vector<int> on_heap(4);
  CHECK(sycl::get_pointer_type(&on_stack, ctx) == sycl::usm::alloc::unknown);
  CHECK(sycl::get_pointer_type(on_heap.data(), ctx) == sycl::usm::alloc::unknown);
  CHECK(sycl::get_pointer_type(nullptr, ctx) == sycl::usm::alloc::unknown);
  EXPECT_ERRC(sycl::errc::invalid, nullptr, sycl::get_pointer_device(&on_stack, ctx));

  // Freeing what sycl::malloc did not allocate: a clear error, and nothing is lost.
  EXPECT_ERRC(sycl::errc::invalid, "was not allocated", sycl::free(&on_stack, q));
  EXPECT_ERRC(sycl::errc::invalid, "was not allocated", sycl::free(on_heap.data(), ctx));
  int* p = sycl::malloc_shared<int>(4, q);
  EXPECT_ERRC(sycl::errc::invalid, "was not allocated", sycl::free(p + 1, q));
  sycl::free(p, q);
  EXPECT_ERRC(sycl::errc::invalid, "already", sycl::free(p, q)); // double free
  int* fresh = sycl::malloc_shared<int>(N, q);
  CHECK(roundtrip(q, fresh, 3));
  sycl::free(fresh, q);
}

void test_usm_allocator(sycl::queue& q) {
  sycl::usm_allocator<int, sycl::usm::alloc::shared> alloc(q);
  std::vector<int, decltype(alloc)> v(alloc);
  for (int i = 0; i < 500; ++i) v.push_back(i); // reallocates several times
  CHECK(sycl::get_pointer_type(v.data(), q.get_context()) == sycl::usm::alloc::shared);
  int* data = v.data();
  q.parallel_for(sycl::range<1>(v.size()), [=](sycl::id<1> i) { data[i] *= 2; }).wait();
  CHECK(std::accumulate(v.begin(), v.end(), 0) == 2 * 499 * 500 / 2);

  sycl::usm_allocator<double, sycl::usm::alloc::host, 128> host_alloc(q.get_context(),
                                                                      q.get_device());
  std::vector<double, decltype(host_alloc)> w(64, 1.5, host_alloc);
  CHECK(aligned(w.data(), 128));
  CHECK(sycl::get_pointer_type(w.data(), q.get_context()) == sycl::usm::alloc::host);
  // Rebinding and comparing allocators.
  sycl::usm_allocator<char, sycl::usm::alloc::shared> rebound(alloc);
  CHECK(rebound == alloc);
  sycl::queue other;
  sycl::usm_allocator<int, sycl::usm::alloc::shared> same_ctx(other);
  CHECK(same_ctx == alloc); // one default context per platform
  sycl::context own{q.get_device()};
  sycl::usm_allocator<int, sycl::usm::alloc::shared> other_ctx(own, q.get_device());
  CHECK(other_ctx != alloc);
}

void test_usm_and_events(sycl::queue& q) {
  // Device memory moved with memcpy / copy / fill across an in-order chain.
  sycl::queue io{q.get_context(), q.get_device(), sycl::property::queue::in_order{}};
  double* d = sycl::malloc_device<double>(N, io);
  double* h = sycl::malloc_host<double>(N, io);
  io.fill(d, 2.5, N);
  io.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { d[i] *= static_cast<double>(i[0]); });
  io.copy(d, h, N);
  io.wait();
  bool ok = true;
  for (std::size_t i = 0; i < N; ++i) ok = ok && h[i] == 2.5 * static_cast<double>(i);
  CHECK(ok);
  sycl::free(d, io);
  sycl::free(h, io);
}
} // namespace

int main() {
  sycl::queue q;
  test_allocations(q);
  test_aligned(q);
  test_zero_and_unknown(q);
  test_usm_allocator(q);
  test_usm_and_events(q);
  if (g_failures) {
    std::printf("usm: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("usm: PASSED\n");
  return 0;
}
