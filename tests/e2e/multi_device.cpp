// Several devices in one process (issue 17): every device SYCL lists (each NVIDIA GPU its own
// device, plus the host device unless SYCLONE_DEVICE_SELECTOR hides it) takes turns on the same
// buffers, which move between devices in dependency order (GPU to GPU directly, peer to peer
// where the hardware allows); USM on each device and copies between devices; a context of
// several devices where a platform has them; sycl_ext_oneapi_peer_access between GPUs;
// sub-devices where a device has them. With one device the same program runs with two queues on
// it. Every result is checked on the host.
#include <sycl/sycl.hpp>

#include <utility>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

std::string name(const sycl::device& d) {
  return d.get_info<sycl::info::device::name>() +
         (d.get_backend() == sycl::backend::ext_oneapi_cuda ? " (cuda)" : " (host)");
}

constexpr int n = 1 << 16;

// One buffer, every device in turn writing it, some only reading it in between.
void test_round_robin(std::vector<sycl::queue>& qs) {
  std::vector<std::uint64_t> want(n);
  std::iota(want.begin(), want.end(), std::uint64_t{0});
  sycl::buffer<std::uint64_t> buf(want.data(), sycl::range<1>(n));
  int rounds = int(qs.size()) * 6;
  sycl::buffer<std::uint64_t> sums{sycl::range<1>(rounds)};
  std::vector<std::uint64_t> want_sums;
  for (int r = 0; r < rounds; ++r) {
    int d = r % int(qs.size());
    qs[d].submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n),
                     [=](sycl::id<1> i) { a[i] = a[i] * 3 + std::uint64_t(d + r); });
    });
    for (auto& x : want) x = x * 3 + std::uint64_t(d + r);
    // Another device reads it (the writer's copy stays valid).
    int reader = (d + 1) % int(qs.size());
    qs[reader].submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_only);
      sycl::accessor s(sums, h, sycl::write_only);
      h.single_task([=] { s[r] = a[0] + a[n - 1]; });
    });
    want_sums.push_back(want[0] + want[n - 1]);
  }
  sycl::host_accessor h(buf, sycl::read_only);
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) ok = h[i] == want[i];
  CHECK(ok);
  sycl::host_accessor s(sums, sycl::read_only);
  for (int r = 0; r < rounds; ++r) CHECK(s[r] == want_sums[r]);
}

// Two buffers whose commands depend on each other across devices.
void test_cross_dependencies(std::vector<sycl::queue>& qs) {
  sycl::queue& q0 = qs.front();
  sycl::queue& q1 = qs.back();
  sycl::buffer<int> x{sycl::range<1>(n)}, y{sycl::range<1>(n)};
  q0.submit([&](sycl::handler& h) {
    sycl::accessor a(x, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = int(i[0]); });
  });
  for (int step = 0; step < 4; ++step) {
    q1.submit([&](sycl::handler& h) {
      sycl::accessor a(x, h, sycl::read_only);
      sycl::accessor b(y, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { b[i] = a[i] + 1; });
    });
    q0.submit([&](sycl::handler& h) {
      sycl::accessor a(x, h, sycl::write_only);
      sycl::accessor b(y, h, sycl::read_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = b[i] * 2; });
    });
  }
  sycl::host_accessor a(x, sycl::read_only);
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) {
    long v = i;
    for (int s = 0; s < 4; ++s) v = (v + 1) * 2;
    ok = a[i] == v;
  }
  CHECK(ok);
}

// USM device memory on every device, copied device to device by the destination's queue.
void test_usm_between_devices(std::vector<sycl::queue>& qs) {
  std::vector<int*> mem;
  for (std::size_t d = 0; d < qs.size(); ++d) mem.push_back(sycl::malloc_device<int>(n, qs[d]));
  int first = 7;
  qs[0]
      .parallel_for(sycl::range<1>(n),
                    [p = mem[0], first](sycl::id<1> i) { p[i] = int(i[0]) + first; })
      .wait();
  std::vector<int> staging(n);
  for (std::size_t d = 1; d < qs.size(); ++d) {
    if (qs[d].get_device().get_platform() == qs[d - 1].get_device().get_platform()) {
      qs[d].memcpy(mem[d], mem[d - 1], n * sizeof(int)).wait();
    } else {
      // A device allocation of another platform's device is not this device's to read
      // (SYCL 2020 4.8.2): the queue says so synchronously, and the copy goes through the host.
      bool refused = false;
      try {
        qs[d].memcpy(mem[d], mem[d - 1], n * sizeof(int));
      } catch (const sycl::exception& e) {
        refused = e.code() == sycl::errc::invalid;
      }
      CHECK(refused);
      qs[d - 1].memcpy(staging.data(), mem[d - 1], n * sizeof(int)).wait();
      qs[d].memcpy(mem[d], staging.data(), n * sizeof(int)).wait();
    }
    qs[d].parallel_for(sycl::range<1>(n), [p = mem[d]](sycl::id<1> i) { p[i] += 1; }).wait();
  }
  std::vector<int> back(n);
  qs.back().memcpy(back.data(), mem.back(), n * sizeof(int)).wait();
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) ok = back[i] == i + first + int(qs.size()) - 1;
  CHECK(ok);
  for (std::size_t d = 0; d < qs.size(); ++d) sycl::free(mem[d], qs[d]);
}

// A context holding every device of a platform with several.
void test_shared_context() {
  for (const auto& p : sycl::platform::get_platforms()) {
    auto devs = p.get_devices();
    if (devs.size() < 2) continue;
    sycl::context ctx(devs);
    CHECK(ctx.get_devices().size() == devs.size());
    std::vector<sycl::queue> qs;
    for (const auto& d : devs) qs.emplace_back(ctx, d);
    std::vector<int*> mem;
    for (std::size_t d = 0; d < devs.size(); ++d) {
      mem.push_back(sycl::malloc_device<int>(n, devs[d], ctx));
      CHECK(sycl::get_pointer_device(mem.back(), ctx) == devs[d]);
    }
    sycl::buffer<int> buf{sycl::range<1>(n)};
    for (std::size_t d = 0; d < devs.size(); ++d)
      qs[d].submit([&](sycl::handler& h) {
        sycl::accessor a(buf, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n),
                       [=](sycl::id<1> i) { a[i] = (d == 0 ? 0 : a[i]) + int(d) + 1; });
      });
    sycl::host_accessor a(buf, sycl::read_only);
    int want = 0;
    for (std::size_t d = 0; d < devs.size(); ++d) want += int(d) + 1;
    CHECK(a[0] == want && a[n - 1] == want);
    for (std::size_t d = 0; d < devs.size(); ++d) sycl::free(mem[d], ctx);
    std::printf("context of %zu devices of %s: checked\n", devs.size(),
                p.get_info<sycl::info::platform::name>().c_str());
  }
}

// sycl_ext_oneapi_peer_access between every pair of GPUs: where allowed, a kernel on one reads
// the other's USM device memory directly.
void test_peer_access(std::vector<sycl::queue>& qs) {
  for (std::size_t i = 0; i < qs.size(); ++i)
    for (std::size_t j = 0; j < qs.size(); ++j) {
      sycl::device a = qs[i].get_device(), b = qs[j].get_device();
      if (i == j || a == b) continue;
      bool can = a.ext_oneapi_can_access_peer(b);
      bool atomics =
          a.ext_oneapi_can_access_peer(b, sycl::ext::oneapi::peer_access::atomics_supported);
      std::printf("peer access %s -> %s: %s%s\n", name(a).c_str(), name(b).c_str(),
                  can ? "yes" : "no", atomics ? " (atomics)" : "");
      if (!can) {
        bool threw = false;
        try {
          a.ext_oneapi_enable_peer_access(b);
        } catch (const sycl::exception& e) {
          threw = e.code() == sycl::errc::feature_not_supported;
        }
        CHECK(threw);
        continue;
      }
      a.ext_oneapi_enable_peer_access(b);
      a.ext_oneapi_enable_peer_access(b); // twice: no error
      int* theirs = sycl::malloc_device<int>(n, qs[j]);
      int* mine = sycl::malloc_device<int>(n, qs[i]);
      qs[j]
          .parallel_for(sycl::range<1>(n), [=](sycl::id<1> k) { theirs[k] = int(k[0]) * 5; })
          .wait();
      qs[i].parallel_for(sycl::range<1>(n), [=](sycl::id<1> k) { mine[k] = theirs[k] + 1; }).wait();
      std::vector<int> back(n);
      qs[i].memcpy(back.data(), mine, n * sizeof(int)).wait();
      bool ok = true;
      for (int k = 0; k < n && ok; ++k) ok = back[k] == k * 5 + 1;
      CHECK(ok);
      a.ext_oneapi_disable_peer_access(b);
      sycl::free(theirs, qs[j]);
      sycl::free(mine, qs[i]);
    }
}

// SYCL 2020 4.6.4.2 on every device: one that lists no partition property (an NVIDIA GPU)
// refuses each form with errc::feature_not_supported; one that lists them (the host device)
// makes sub-devices whose queues share a buffer with the parent's queue.
void test_partitions(const std::vector<sycl::device>& devs) {
  using pp = sycl::info::partition_property;
  for (const sycl::device& d : devs) {
    auto props = d.get_info<sycl::info::device::partition_properties>();
    if (props.empty()) {
      CHECK(d.get_info<sycl::info::device::partition_max_sub_devices>() == 0);
      bool threw = false;
      try {
        d.create_sub_devices<pp::partition_equally>(1);
      } catch (const sycl::exception& e) {
        threw = e.code() == sycl::errc::feature_not_supported;
      }
      CHECK(threw);
      continue;
    }
    std::vector<sycl::device> subs = d.create_sub_devices<pp::partition_equally>(1);
    CHECK(subs.size() == d.get_info<sycl::info::device::max_compute_units>());
    sycl::queue parent(d), sub(subs.back());
    std::vector<int> data(n, 1);
    {
      sycl::buffer<int> b(data.data(), sycl::range<1>(n));
      sub.submit([&](sycl::handler& h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += int(i[0]); });
      });
      parent.submit([&](sycl::handler& h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] *= 2; });
      });
    }
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) ok = data[i] == 2 * (1 + i);
    CHECK(ok);
  }
}

} // namespace

// SYCL 2020 4.6.4.3: any_device_has<A> is true when some device has A, all_devices_have<A> false
// when some device lacks it (a GPU without native host atomics lacks usm_atomic_host_allocations,
// which all_devices_have once claimed).
template <int... A>
void test_aspect_traits(const std::vector<sycl::device>& devs, std::integer_sequence<int, A...>) {
  auto one = [&](auto a) {
    constexpr auto aspect = static_cast<sycl::aspect>(decltype(a)::value);
    for (const auto& d : devs) {
      if (d.has(aspect) && !sycl::any_device_has_v<aspect>)
        std::printf("FAILED: %s has aspect %d but any_device_has says no\n", name(d).c_str(),
                    decltype(a)::value);
      if (!d.has(aspect) && sycl::all_devices_have_v<aspect>)
        std::printf("FAILED: %s lacks aspect %d but all_devices_have says yes\n", name(d).c_str(),
                    decltype(a)::value);
      CHECK(!d.has(aspect) || sycl::any_device_has_v<aspect>);
      CHECK(d.has(aspect) || !sycl::all_devices_have_v<aspect>);
    }
  };
  (one(std::integral_constant<int, A>{}), ...);
}

int main() {
  std::vector<sycl::device> devs = sycl::device::get_devices();
  if (devs.empty()) { // SYCLONE_DEVICE_SELECTOR hid every device
    std::printf("skipped: no device\n");
    return 77;
  }
  // Every sycl::aspect, the last being sycl_ext_intel_device_info's ext_intel_power_limits.
  constexpr int aspect_count = static_cast<int>(sycl::aspect::ext_intel_power_limits) + 1;
  test_aspect_traits(devs, std::make_integer_sequence<int, aspect_count>{});
  std::vector<sycl::queue> qs;
  for (const auto& d : devs) qs.emplace_back(d);
  if (qs.size() == 1) qs.emplace_back(devs[0]); // one device: two queues on it
  std::printf("%zu queues on %zu devices:", qs.size(), devs.size());
  for (const auto& d : devs) std::printf(" [%s]", name(d).c_str());
  std::printf("\n");
  test_round_robin(qs);
  test_cross_dependencies(qs);
  test_usm_between_devices(qs);
  test_shared_context();
  test_peer_access(qs);
  test_partitions(devs);
  if (g_failures) return 1;
  std::printf("multi_device: all checks passed\n");
  return 0;
}
