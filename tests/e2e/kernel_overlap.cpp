// Issue 16: independent command groups on an out-of-order queue run concurrently (several device
// streams on a GPU, several worker threads on the host). Two kernels, each writing its own
// buffer, meet through USM flags: each raises its flag and waits, a bounded number of times, to
// see the other's. Only kernels that run at the same time both see the other: the test asserts
// overlap, not speed (a slow machine only makes the wait longer). The profiling timestamps of
// the two commands must overlap as well.
#include <sycl/sycl.hpp>

#include <cstdint>
#include <cstdio>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

using flag_ref = sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device,
                                  sycl::access::address_space::global_space>;

// Raises `mine`, then waits (at most `bound` polls) for `theirs`; writes whether it came.
sycl::event meet(sycl::queue& q, sycl::buffer<int>& result, int* mine, int* theirs,
                 std::uint64_t bound) {
  return q.submit([&](sycl::handler& h) {
    sycl::accessor out{result, h, sycl::write_only, sycl::no_init};
    h.single_task([=] {
      flag_ref(*mine).store(1);
      std::uint64_t polls = 0;
      while (flag_ref(*theirs).load() == 0 && polls < bound) ++polls;
      out[0] = flag_ref(*theirs).load();
    });
  });
}
} // namespace

int main() {
  sycl::queue q{sycl::property::queue::enable_profiling{}};
  const bool gpu = q.get_device().is_gpu();
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  // A GPU polls a device-scope atomic in about a microsecond, the host in nanoseconds: both
  // bounds are seconds, far beyond what the other kernel needs to start.
  const std::uint64_t bound = gpu ? 5'000'000 : 2'000'000'000;
  int* flags = sycl::malloc_device<int>(2, q);
  for (int round = 0; round < 3; ++round) {
    q.memset(flags, 0, 2 * sizeof(int)).wait();
    int saw_b = -1, saw_a = -1;
    {
      sycl::buffer<int> ra{&saw_b, 1}, rb{&saw_a, 1};
      sycl::event a = meet(q, ra, &flags[0], &flags[1], bound);
      sycl::event b = meet(q, rb, &flags[1], &flags[0], bound);
      a.wait();
      b.wait();
      auto a0 = a.get_profiling_info<sycl::info::event_profiling::command_start>();
      auto a1 = a.get_profiling_info<sycl::info::event_profiling::command_end>();
      auto b0 = b.get_profiling_info<sycl::info::event_profiling::command_start>();
      auto b1 = b.get_profiling_info<sycl::info::event_profiling::command_end>();
      CHECK(a0 <= a1 && b0 <= b1);
      CHECK(a0 < b1 && b0 < a1); // the two intervals overlap
    }
    CHECK(saw_b == 1); // kernel a saw kernel b running
    CHECK(saw_a == 1);
  }
  sycl::free(flags, q);
  if (g_failures) return 1;
  std::printf("kernel_overlap: all checks passed\n");
}
