// SYCL 2020 4.15.3 atomic_ref inside kernels on the host device: a histogram with atomic
// increments in global memory (USM and buffer accessors), a per-work-group histogram in local
// memory merged with group_barrier, fetch_min/fetch_max, compare_exchange, exchange, floating
// point fetch_add, and 64-bit counters. Also run under the shuffled schedule.
#include <sycl/sycl.hpp>

#include <cstdint>
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

constexpr std::size_t N = 1 << 16;
constexpr std::size_t BINS = 37;

unsigned value_at(std::size_t i) {
  return static_cast<unsigned>((i * 2654435761u) >> 7);
}

template <typename T>
using device_atomic = sycl::atomic_ref<T, sycl::memory_order::relaxed, sycl::memory_scope::device>;

void test_global_histogram(sycl::queue& q) {
  std::vector<unsigned> expect(BINS, 0);
  unsigned* data = sycl::malloc_shared<unsigned>(N, q);
  for (std::size_t i = 0; i < N; ++i) {
    data[i] = value_at(i);
    ++expect[data[i] % BINS];
  }
  // USM counters.
  unsigned* bins = sycl::malloc_shared<unsigned>(BINS, q);
  q.memset(bins, 0, BINS * sizeof(unsigned)).wait();
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
     device_atomic<unsigned> counter(bins[data[i] % BINS]);
     counter.fetch_add(1u);
   }).wait();
  bool ok = true;
  for (std::size_t b = 0; b < BINS; ++b) ok = ok && bins[b] == expect[b];
  CHECK(ok);

  // Buffer counters, incremented with operator++ and +=.
  std::vector<int> counts(BINS, 0);
  {
    sycl::buffer<int> bc(counts.data(), sycl::range<1>(BINS));
    q.submit([&](sycl::handler& h) {
      sycl::accessor c(bc, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device,
                         sycl::access::address_space::global_space>
            counter(c[data[i] % BINS]);
        if (i[0] % 2)
          ++counter;
        else
          counter += 1;
      });
    });
  }
  ok = true;
  for (std::size_t b = 0; b < BINS; ++b) ok = ok && counts[b] == static_cast<int>(expect[b]);
  CHECK(ok);
  sycl::free(bins, q);
  sycl::free(data, q);
}

void test_local_histogram(sycl::queue& q) {
  constexpr std::size_t wg = 256;
  std::vector<unsigned> expect(BINS, 0);
  for (std::size_t i = 0; i < N; ++i) ++expect[value_at(i) % BINS];
  unsigned* bins = sycl::malloc_shared<unsigned>(BINS, q);
  for (std::size_t b = 0; b < BINS; ++b) bins[b] = 0;
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<unsigned> local(sycl::range<1>(BINS), h);
     h.parallel_for(
         sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(wg)), [=](sycl::nd_item<1> it) {
           std::size_t l = it.get_local_id(0);
           for (std::size_t b = l; b < BINS; b += wg) local[b] = 0;
           sycl::group_barrier(it.get_group());
           unsigned v = static_cast<unsigned>((it.get_global_id(0) * 2654435761u) >> 7);
           sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                            sycl::access::address_space::local_space>
               slot(local[v % BINS]);
           slot.fetch_add(1u);
           sycl::group_barrier(it.get_group());
           for (std::size_t b = l; b < BINS; b += wg)
             device_atomic<unsigned>(bins[b]).fetch_add(local[b]);
         });
   }).wait();
  bool ok = true;
  for (std::size_t b = 0; b < BINS; ++b) ok = ok && bins[b] == expect[b];
  CHECK(ok);
  sycl::free(bins, q);
}

void test_other_operations(sycl::queue& q) {
  struct results {
    int min, max;
    unsigned long long sum64;
    float fsum;
    int cas_winners;
    int exchanged;
    int ticket;
    unsigned bits_or, bits_and;
  };
  results* r = sycl::malloc_shared<results>(1, q);
  *r = results{1 << 30, -(1 << 30), 0, 0.0f, 0, -1, 0, 0u, ~0u};
  int* owner = sycl::malloc_shared<int>(1, q);
  *owner = -1;
  constexpr std::size_t n = 4096;
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     int i = static_cast<int>(id[0]);
     int v = (i * 7919) % 5003 - 2500;
     device_atomic<int>(r->min).fetch_min(v);
     device_atomic<int>(r->max).fetch_max(v);
     device_atomic<unsigned long long>(r->sum64).fetch_add(1ull << 33);
     device_atomic<float>(r->fsum).fetch_add(0.5f);
     int expected = -1;
     if (device_atomic<int>(*owner).compare_exchange_strong(expected, i))
       device_atomic<int>(r->cas_winners).fetch_add(1);
     device_atomic<int>(r->exchanged).exchange(i);
     device_atomic<int>(r->ticket)++;
     device_atomic<unsigned>(r->bits_or).fetch_or(1u << (i % 32));
     device_atomic<unsigned>(r->bits_and).fetch_and(~(1u << (i % 16)));
   }).wait();
  int mn = 1 << 30, mx = -(1 << 30);
  for (int i = 0; i < static_cast<int>(n); ++i) {
    int v = (i * 7919) % 5003 - 2500;
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  CHECK(r->min == mn && r->max == mx);
  CHECK(r->sum64 == (static_cast<unsigned long long>(n) << 33));
  CHECK(r->fsum == 0.5f * n);
  CHECK(r->cas_winners == 1 && *owner >= 0 && *owner < static_cast<int>(n));
  CHECK(r->exchanged >= 0 && r->exchanged < static_cast<int>(n));
  CHECK(r->ticket == static_cast<int>(n));
  CHECK(r->bits_or == ~0u && r->bits_and == 0xffff0000u);

  // load / store and the default orders.
  sycl::atomic_ref<int, sycl::memory_order::seq_cst, sycl::memory_scope::system> a(r->ticket);
  a.store(5);
  CHECK(a.load() == 5 && static_cast<int>(a) == 5);
  CHECK(a.exchange(9) == 5 && a.load() == 9);
  sycl::free(owner, q);
  sycl::free(r, q);
}
} // namespace

int main() {
  sycl::queue q;
  test_global_histogram(q);
  test_local_histogram(q);
  test_other_operations(q);
  if (g_failures) {
    std::printf("atomic_histogram: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("atomic_histogram: PASSED\n");
  return 0;
}
