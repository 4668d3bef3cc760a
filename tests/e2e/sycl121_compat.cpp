// SYCLONE_E2E_ARGS: -std=c++20 -Wno-deprecated-declarations
// SYCLONE_E2E_HOST_ONLY: selects the host CPU device by the deprecated cpu_selector class.
// SYCL 1.2.1 code SYCL 2020 still accepts: <CL/sycl.hpp> and cl::sycl (C.2), the
// sycl::opencl::cl_* scalar types, the deprecated selector classes (4.6.1.2) and the device
// aspect traits (4.6.4.3), parallel_for with a braced range (4.9.4.2.1, 4.6.5.2) and the
// deprecated group members get_id / get_global_range / get_linear_id / mem_fence (4.9.1.7) and
// handler::parallel_for with an offset (4.9.4.2.1).
#include <CL/sycl.hpp>

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// A SYCL 1.2.1 user selector: derives from device_selector and overrides operator().
class prefer_cpu : public cl::sycl::device_selector {
public:
  int operator()(const cl::sycl::device& d) const override { return d.is_cpu() ? 50 : -1; }
};
class reject_all : public cl::sycl::device_selector {
public:
  int operator()(const cl::sycl::device&) const override { return -1; }
};

static_assert(std::is_same_v<cl::sycl::queue, sycl::queue>);
static_assert(std::is_same_v<sycl::opencl::cl_char, std::int8_t>);
static_assert(std::is_same_v<sycl::opencl::cl_uchar, std::uint8_t>);
static_assert(std::is_same_v<sycl::opencl::cl_short, std::int16_t>);
static_assert(std::is_same_v<sycl::opencl::cl_ushort, std::uint16_t>);
static_assert(std::is_same_v<sycl::opencl::cl_int, std::int32_t>);
static_assert(std::is_same_v<sycl::opencl::cl_uint, std::uint32_t>);
static_assert(std::is_same_v<sycl::opencl::cl_long, std::int64_t>);
static_assert(std::is_same_v<sycl::opencl::cl_ulong, std::uint64_t>);
static_assert(std::is_same_v<sycl::opencl::cl_float, float>);
static_assert(std::is_same_v<sycl::opencl::cl_double, double>);
static_assert(std::is_same_v<sycl::opencl::cl_half, sycl::half>);
static_assert(std::is_same_v<sycl::opencl::cl_bool, bool>);
static_assert(std::is_same_v<cl::sycl::opencl::cl_int, std::int32_t>);

// The host CPU device is always there and has these; no syclone device is an accelerator. Every
// device has images (software sampling, detail/image_texel.hpp).
static_assert(sycl::any_device_has_v<sycl::aspect::cpu>);
static_assert(sycl::any_device_has<sycl::aspect::gpu>::value);
static_assert(!sycl::any_device_has_v<sycl::aspect::accelerator>);
static_assert(sycl::any_device_has_v<sycl::aspect::image>);
static_assert(sycl::all_devices_have_v<sycl::aspect::image>);
static_assert(sycl::all_devices_have_v<sycl::aspect::fp64>);
static_assert(sycl::all_devices_have<sycl::aspect::usm_device_allocations>::value);
static_assert(!sycl::all_devices_have_v<sycl::aspect::cpu>);
static_assert(!sycl::all_devices_have_v<sycl::aspect::gpu>);
static_assert(std::is_base_of_v<std::true_type, sycl::any_device_has<sycl::aspect::fp16>>);
} // namespace

int main() {
  // Deprecated selector classes, by value and through a device_selector reference.
  cl::sycl::cpu_selector cpu;
  const cl::sycl::device_selector& as_base = cpu;
  CHECK(as_base(cl::sycl::device(cpu)) > 0);
  CHECK(as_base.select_device().is_cpu());
  cl::sycl::queue q(cpu);
  CHECK(q.get_device().is_cpu());
  CHECK(cl::sycl::device(prefer_cpu{}).is_cpu());
  CHECK(sycl::platform(as_base) == q.get_device().get_platform());
  CHECK(sycl::queue(q.get_context(), as_base).get_device() == q.get_device());
  cl::sycl::default_selector def;
  CHECK(sycl::device(def) == sycl::device(sycl::default_selector_v));
  CHECK(sycl::queue(def, sycl::property_list{}).get_device() == sycl::device(def));
  for (const auto& d : sycl::device::get_devices()) {
    CHECK((sycl::gpu_selector{}(d) >= 0) == d.is_gpu());
    CHECK(sycl::accelerator_selector{}(d) < 0);
  }
  bool threw = false;
  try {
    reject_all{}.select_device();
  } catch (const sycl::exception& e) {
    threw = e.code() == sycl::errc::runtime;
  }
  CHECK(threw);
  threw = false;
  try {
    sycl::queue bad{sycl::accelerator_selector{}};
  } catch (const sycl::exception& e) {
    threw = e.code() == sycl::errc::runtime;
  }
  CHECK(threw);

  // Braced ranges, on the handler and the queue shortcuts, with and without dependencies.
  constexpr std::size_t R = 4, C = 6;
  std::vector<int> out(R * C, 0);
  {
    sycl::buffer<int, 2> buf(out.data(), sycl::range<2>(R, C));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::write_only);
      h.parallel_for({R, C}, [=](sycl::item<2> it) {
        a[it] = static_cast<int>(it.get_id(0) * 100 + it.get_id(1));
      });
    });
  }
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) CHECK(out[i * C + j] == static_cast<int>(i * 100 + j));

  int* usm = sycl::malloc_shared<int>(2 * 3 * 4, q);
  auto e1 = q.parallel_for({2, 3, 4}, [=](sycl::id<3> i) {
    usm[(i[0] * 3 + i[1]) * 4 + i[2]] = static_cast<int>(i[0] + i[1] + i[2]);
  });
  auto e2 = q.parallel_for({24}, e1, [=](sycl::id<1> i) { usm[i] *= 2; });
  q.parallel_for({4, 6}, std::vector<sycl::event>{e2}, [=](sycl::item<2> it) {
     usm[it.get_linear_id()] += 1;
   }).wait();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) CHECK(usm[(i * 3 + j) * 4 + k] == 2 * (i + j + k) + 1);

  // Deprecated group members against their SYCL 2020 names.
  std::fill(usm, usm + 24, -1);
  q.parallel_for(sycl::nd_range<2>({4, 6}, {2, 3}), [=](sycl::nd_item<2> it) {
     auto g = it.get_group();
     g.mem_fence();
     it.mem_fence(sycl::access::fence_space::local_space);
     bool ok = g.get_id() == g.get_group_id() && g.get_id(1) == g.get_group_id(1) &&
               g.get_global_range() == it.get_global_range() && g.get_global_range(0) == 4 &&
               g.get_global_range(1) == 6 && g.get_linear_id() == g.get_group_linear_id();
     usm[it.get_global_linear_id()] = ok ? static_cast<int>(g.get_linear_id()) : -2;
   }).wait();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) CHECK(usm[i * 6 + j] == (i / 2) * 2 + j / 3);

  // A const kernel object (an exact match for the Range templates too) and reductions.
  const auto fill = [=](sycl::item<2> it) { usm[it.get_linear_id()] = 3; };
  q.parallel_for(sycl::range<2>(4, 6), sycl::event{}, fill).wait();
  q.parallel_for({4, 6}, fill).wait();
  int* sum = sycl::malloc_shared<int>(1, q);
  *sum = 0;
  q.parallel_for({4, 6}, sycl::reduction(sum, sycl::plus<int>()), [=](sycl::id<2> i, auto& r) {
     r += usm[i[0] * 6 + i[1]];
   }).wait();
  CHECK(*sum == 3 * 24);
  q.submit([&](sycl::handler& h) {
     h.parallel_for({2, 3, 4}, sycl::reduction(sum, sycl::plus<int>()),
                    [=](sycl::id<3>, auto& r) { r += 1; });
   }).wait();
  CHECK(*sum == 3 * 24 + 24);
  sycl::free(sum, q);

  // parallel_for with an offset (deprecated): ids run from the offset; item<D> knows it.
  std::vector<int> shifted(8 * 8, 0);
  {
    sycl::buffer<int, 2> buf(shifted.data(), sycl::range<2>(8, 8));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for(sycl::range<2>(3, 4), sycl::id<2>(2, 1), [=](sycl::item<2> it) {
        bool ok = it.get_offset() == sycl::id<2>(2, 1) && it.get_range() == sycl::range<2>(3, 4);
        a[it.get_id()] = ok ? static_cast<int>(it.get_linear_id()) + 1 : -1;
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for<class offset_ids>(sycl::range<1>(2), sycl::id<1>(6),
                                       [=](sycl::id<1> i) { a[i[0]][7] = 100; });
    });
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int expected = (i >= 2 && i < 5 && j >= 1 && j < 5) ? (i - 2) * 4 + (j - 1) + 1 : 0;
      if ((i == 6 || i == 7) && j == 7) expected = 100;
      CHECK(shifted[i * 8 + j] == expected);
    }
  sycl::free(usm, q);

  if (g_failures) return 1;
  std::printf("sycl121_compat: all checks passed\n");
  return 0;
}
