// SYCL 2020 3.9.1 / 4.7.2: on an out-of-order queue, accessors order command groups: a read
// after a write sees the write (RAW), a write after a read does not change what the read saw
// (WAR), the last of two writes wins (WAW), across several buffers and through sub-buffers of
// one buffer (overlapping and disjoint). The first command of each pair is slow, so a missed
// dependency lets the second overtake it: on a GPU the scheduler spreads independent commands
// over several streams, on the host over worker threads (and two first reads of one buffer must
// both see the contents the first of them brought to the device); under
// SYCLONE_HOST_SCHEDULE=shuffle (SYCLONE_E2E_SHUFFLED: ctest runs it so too) workers take ready
// commands in a random order.
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

constexpr std::size_t N = 4096;
constexpr int slow = 1000; // iterations of busy work per element in the slow kernels

// Busy work the compiler cannot fold away (it starts from v): returns v, for the small finite
// values of this test.
float delay(float v, int n) {
  float x = v * 1e-30f + 1.0f;
  for (int i = 0; i < n; ++i) x = x * 0.999f + 0.001f;
  return v * (x > 0.5f ? 1.0f : 0.0f);
}

template <typename F>
void slow_write(sycl::queue& q, sycl::buffer<float>& b, F value) {
  q.submit([&](sycl::handler& h) {
    sycl::accessor a{b, h, sycl::write_only};
    h.parallel_for(b.get_range(), [=](sycl::id<1> i) { a[i] = delay(value(i[0]), slow); });
  });
}

void test_raw_war_waw(sycl::queue& q, int round) {
  const float r = static_cast<float>(round);
  std::vector<float> hx(N), hy(N), hz(N);
  {
    sycl::buffer<float> x{hx.data(), sycl::range<1>(N)}, y{hy.data(), sycl::range<1>(N)},
        z{hz.data(), sycl::range<1>(N)};
    // RAW: y reads what a slow kernel wrote to x.
    slow_write(q, x, [=](std::size_t i) { return float(i) + r; });
    q.submit([&](sycl::handler& h) {
      sycl::accessor in{x, h, sycl::read_only};
      sycl::accessor out{y, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = in[i] * 2.0f; });
    });
    // WAR: a slow read of y into z, then an overwrite of y.
    q.submit([&](sycl::handler& h) {
      sycl::accessor in{y, h, sycl::read_only};
      sycl::accessor out{z, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = delay(in[i], slow) + 1.0f; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor out{y, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = -1.0f; });
    });
    // WAW: a slow write of x, then a fast one; the fast one must land last.
    slow_write(q, x, [=](std::size_t) { return 5.0f; });
    q.submit([&](sycl::handler& h) {
      sycl::accessor out{x, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = float(i) * 3.0f + r; });
    });
  }
  bool raw_war = true, waw = true, overwrite = true;
  for (std::size_t i = 0; i < N; ++i) {
    raw_war = raw_war && hz[i] == (float(i) + r) * 2.0f + 1.0f;
    overwrite = overwrite && hy[i] == -1.0f;
    waw = waw && hx[i] == float(i) * 3.0f + r;
  }
  CHECK(raw_war);
  CHECK(overwrite);
  CHECK(waw);
}

void test_sub_buffers(sycl::queue& q, int round) {
  const float r = static_cast<float>(round);
  std::vector<float> hp(N, 0.0f), hsum(N, 0.0f);
  {
    sycl::buffer<float> p{hp.data(), sycl::range<1>(N)}, sum{hsum.data(), sycl::range<1>(N)};
    sycl::buffer<float> lo{p, sycl::id<1>(0), sycl::range<1>(N / 2)};
    sycl::buffer<float> hi{p, sycl::id<1>(N / 2), sycl::range<1>(N / 2)};
    sycl::buffer<float> mid{p, sycl::id<1>(N / 4), sycl::range<1>(N / 2)}; // overlaps both halves
    // RAW through the parent: a read of the whole buffer after slow writes of its halves.
    slow_write(q, lo, [=](std::size_t i) { return float(i) + r; });
    slow_write(q, hi, [=](std::size_t i) { return float(i + N / 2) + r; });
    q.submit([&](sycl::handler& h) {
      sycl::accessor in{p, h, sycl::read_only};
      sycl::accessor out{sum, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = delay(in[i], slow); });
    });
    // WAR then WAW across overlapping sub-buffers: mid is overwritten after the slow read
    // above, then lo after mid.
    q.submit([&](sycl::handler& h) {
      sycl::accessor out{mid, h, sycl::write_only, sycl::no_init};
      h.parallel_for(sycl::range<1>(N / 2), [=](sycl::id<1> i) { out[i] = 100.0f + r; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor out{lo, h, sycl::write_only};
      h.parallel_for(sycl::range<1>(N / 2), [=](sycl::id<1> i) { out[i] = 200.0f + r; });
    });
  }
  bool raw = true, war_waw = true;
  for (std::size_t i = 0; i < N; ++i) {
    raw = raw && hsum[i] == float(i) + r;
    float want = i < N / 2 ? 200.0f + r : i < 3 * N / 4 ? 100.0f + r : float(i) + r;
    war_waw = war_waw && hp[i] == want;
  }
  CHECK(raw);
  CHECK(war_waw);
}

// Many buffers, each a chain of read-modify-writes interleaved with the others.
void test_interleaved_chains(sycl::queue& q) {
  constexpr int buffers = 6, steps = 12;
  std::vector<std::vector<float>> host(buffers, std::vector<float>(N, 0.0f));
  {
    std::vector<sycl::buffer<float>> bufs;
    for (auto& h : host) bufs.emplace_back(h.data(), sycl::range<1>(N));
    for (int s = 0; s < steps; ++s)
      for (int b = 0; b < buffers; ++b)
        q.submit([&](sycl::handler& h) {
          sycl::accessor a{bufs[b], h, sycl::read_write};
          const int work = (s + b) % 3 == 0 ? slow : 0;
          h.parallel_for(sycl::range<1>(N),
                         [=](sycl::id<1> i) { a[i] = delay(a[i], work) * 2.0f + float(b); });
        });
  }
  bool ok = true;
  for (int b = 0; b < buffers; ++b) {
    float want = 0.0f;
    for (int s = 0; s < steps; ++s) want = want * 2.0f + float(b);
    for (std::size_t i = 0; i < N; ++i) ok = ok && host[b][i] == want;
  }
  CHECK(ok);
}
// Reads need no order among themselves, but the first one to run on a GPU brings the buffer's
// contents there: a second reader on another stream must still see them, not the device
// allocation before the copy landed (16 MiB take a while on PCIe).
void test_first_reads(sycl::queue& q) {
  constexpr std::size_t M = std::size_t(4) << 20;
  std::vector<float> in(M), a(M, -1.0f), b(M, -1.0f);
  for (std::size_t i = 0; i < M; ++i) in[i] = float(i % 1000) + 0.5f;
  {
    sycl::buffer<float> src{in.data(), sycl::range<1>(M)};
    sycl::buffer<float> oa{a.data(), sycl::range<1>(M)}, ob{b.data(), sycl::range<1>(M)};
    for (auto* out : {&oa, &ob})
      q.submit([&](sycl::handler& h) {
        sycl::accessor r{src, h, sycl::read_only};
        sycl::accessor w{*out, h, sycl::write_only, sycl::no_init};
        h.parallel_for(sycl::range<1>(M), [=](sycl::id<1> i) { w[i] = r[i]; });
      });
  }
  bool ok = true;
  for (std::size_t i = 0; i < M; i += 997) ok = ok && a[i] == in[i] && b[i] == in[i];
  CHECK(ok);
}
} // namespace

int main() {
  sycl::queue q; // out of order
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  for (int round = 0; round < 4; ++round) {
    test_raw_war_waw(q, round);
    test_sub_buffers(q, round);
  }
  test_interleaved_chains(q);
  for (int round = 0; round < 2; ++round) test_first_reads(q);
  if (g_failures) return 1;
  std::printf("buffer_ordering: all checks passed\n");
}
