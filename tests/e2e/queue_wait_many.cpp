// Issue 16: an out-of-order queue keeps only the events queue::wait needs (on a GPU, the newest
// operation of each device stream stands for the older ones of that stream, with no driver
// call), so waiting for the queue must still wait for every command, and every event must read
// complete afterwards. A slow kernel is followed by hundreds of short independent ones, spread
// over the queue's streams, some behind the slow one on its stream; a buffer read by hundreds of
// kernels (its pile of reads is pruned the same way) is then written, and the write must come
// after every read (each reader writes the sum it read to USM). Runs shuffled too
// (SYCLONE_E2E_SHUFFLED).
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

constexpr int kernels = 300;
constexpr std::size_t N = 1024;

// Busy work the compiler cannot fold away: returns v, for the small finite values here.
float delay(float v, int n) {
  float x = v * 1e-30f + 1.0f;
  for (int i = 0; i < n; ++i) x = x * 0.999f + 0.001f;
  return v * (x > 0.5f ? 1.0f : 0.0f);
}

void slow_then_many(sycl::queue& q, int round) {
  const int slow = q.get_device().is_gpu() ? 200000 : 2000;
  float* slow_out = sycl::malloc_shared<float>(N, q);
  int* marks = sycl::malloc_shared<int>(kernels, q);
  for (std::size_t i = 0; i < N; ++i) slow_out[i] = -1.0f;
  for (int k = 0; k < kernels; ++k) marks[k] = -1;
  std::vector<sycl::event> events;
  events.push_back(q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
    slow_out[i] = delay(float(i[0]) + float(round), slow);
  }));
  for (int k = 0; k < kernels; ++k) events.push_back(q.single_task([=] { marks[k] = k + round; }));
  q.wait();
  bool slow_done = true;
  for (std::size_t i = 0; i < N; ++i) slow_done = slow_done && slow_out[i] == float(i) + round;
  CHECK(slow_done);
  bool marked = true;
  for (int k = 0; k < kernels; ++k) marked = marked && marks[k] == k + round;
  CHECK(marked);
  bool complete = true;
  for (auto& e : events)
    complete = complete && e.get_info<sycl::info::event::command_execution_status>() ==
                               sycl::info::event_command_status::complete;
  CHECK(complete);
  sycl::free(marks, q);
  sycl::free(slow_out, q);
}

void many_reads_then_write(sycl::queue& q, int round) {
  std::vector<float> src(N);
  for (std::size_t i = 0; i < N; ++i) src[i] = float(i % 7) + float(round);
  float* sums = sycl::malloc_shared<float>(kernels, q);
  for (int k = 0; k < kernels; ++k) sums[k] = -1.0f;
  {
    sycl::buffer<float> in{src.data(), sycl::range<1>(N)};
    // The readers need no order among themselves; each writes its own element of `sums`.
    for (int k = 0; k < kernels; ++k)
      q.submit([&](sycl::handler& h) {
        sycl::accessor r{in, h, sycl::read_only};
        const int work = k % 50 == 0 ? 2000 : 0;
        h.single_task([=] {
          float s = 0;
          for (std::size_t i = 0; i < N; ++i) s += r[i];
          sums[k] = delay(s, work);
        });
      });
    // The write must wait for every read above.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a{in, h, sycl::write_only};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = -100.0f; });
    });
  }
  q.wait();
  float want = 0;
  for (std::size_t i = 0; i < N; ++i) want += float(i % 7) + float(round);
  bool ok = true;
  for (int k = 0; k < kernels; ++k) ok = ok && sums[k] == want;
  CHECK(ok);
  CHECK(src[0] == -100.0f);
  sycl::free(sums, q);
}
} // namespace

int main() {
  sycl::queue q; // out of order
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  for (int round = 0; round < 3; ++round) {
    slow_then_many(q, round);
    many_reads_then_write(q, round);
  }
  if (g_failures) return 1;
  std::printf("queue_wait_many: all checks passed\n");
}
