// Small SYCL 2020 names the CTS's common code relies on: sycl::bit_cast (host, device and constant
// expressions), sycl::byte (4.14.1, deprecated), std::hash of the common-reference-semantics types
// buffer and accessors (4.5.2: copies hash alike, usable as unordered keys), and the device
// descriptors is_compiler_available / is_linker_available (true: every syclone device compiles
// and links kernel bundles), built_in_kernel_ids (none), and the atomic and fence capabilities of
// devices and contexts (4.6.3.2, 4.6.4.2), the host device's fp16 aspect (sycl::half computes
// there), the generic-space multi_ptr aliases (4.7.7.2), legacy multi_ptr comparisons with raw
// pointers and a constant_buffer accessor's constant_ptr<DataT>, and an integer compared with a
// 1-dimensional id (its value; ambiguous before, which stopped two CTS sub-group-mask units).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <unordered_set>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)
} // namespace

static_assert(sycl::bit_cast<std::uint32_t>(1.0f) == 0x3f800000u);
static_assert(sycl::bit_cast<float>(0x40000000u) == 2.0f);

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static_assert(std::is_same_v<sycl::byte, std::uint8_t>);
#pragma clang diagnostic pop

static_assert(std::is_same_v<sycl::raw_generic_ptr<int>,
                             sycl::multi_ptr<int, sycl::access::address_space::generic_space,
                                             sycl::access::decorated::no>>);
static_assert(
    std::is_same_v<sycl::decorated_generic_ptr<const float>,
                   sycl::multi_ptr<const float, sycl::access::address_space::generic_space,
                                   sycl::access::decorated::yes>>);

int main() {
  sycl::queue q;
  sycl::device dev = q.get_device();
  CHECK(dev.get_info<sycl::info::device::is_compiler_available>());
  CHECK(dev.get_info<sycl::info::device::is_linker_available>());
  CHECK(dev.get_info<sycl::info::device::built_in_kernel_ids>().empty());
  auto has = [](const auto& list, auto value) {
    return std::find(list.begin(), list.end(), value) != list.end();
  };
  sycl::context ctx = q.get_context();
  for (auto scopes : {ctx.get_info<sycl::info::context::atomic_memory_scope_capabilities>(),
                      ctx.get_info<sycl::info::context::atomic_fence_scope_capabilities>(),
                      dev.get_info<sycl::info::device::atomic_fence_scope_capabilities>()})
    CHECK(has(scopes, sycl::memory_scope::work_group) && has(scopes, sycl::memory_scope::device));
  for (auto orders : {ctx.get_info<sycl::info::context::atomic_fence_order_capabilities>(),
                      dev.get_info<sycl::info::device::atomic_fence_order_capabilities>()})
    CHECK(has(orders, sycl::memory_order::relaxed) && has(orders, sycl::memory_order::acq_rel));

  // fp16: the host device has it; where a device has it, sycl::half computes in kernels.
  if (dev.is_cpu()) CHECK(dev.has(sycl::aspect::fp16));
  if (dev.has(sycl::aspect::fp16)) {
    float* h = sycl::malloc_shared<float>(1, q);
    q.single_task([=] {
       sycl::half a = 1.5f, b = 2.0f;
       sycl::raw_generic_ptr<float> p(h);
       *p = static_cast<float>(a * b + a);
     }).wait();
    CHECK(*h == 4.5f);
    sycl::free(h, q);
  }

  // bit_cast in a kernel.
  std::uint32_t bits[2] = {};
  {
    sycl::buffer<std::uint32_t> b(bits, sycl::range<1>(2));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.single_task([=] {
        a[0] = sycl::bit_cast<std::uint32_t>(-0.5f);
        a[1] = static_cast<std::uint32_t>(sycl::bit_cast<std::uint64_t>(1.0) >> 32);
      });
    });
  }
  CHECK(bits[0] == 0xbf000000u);
  CHECK(bits[1] == 0x3ff00000u);

  // std::hash: copies of one buffer / accessor hash alike and find each other in a set.
  sycl::buffer<int> b1(sycl::range<1>(4)), b2(sycl::range<1>(4));
  sycl::buffer<int> b1_copy = b1;
  CHECK(std::hash<sycl::buffer<int>>()(b1) == std::hash<sycl::buffer<int>>()(b1_copy));
  std::unordered_set<sycl::buffer<int>> buffers{b1, b2};
  CHECK(buffers.size() == 2);
  CHECK(buffers.count(b1_copy) == 1);
  {
    sycl::host_accessor h1(b1);
    auto h1_copy = h1;
    CHECK(std::hash<decltype(h1)>()(h1) == std::hash<decltype(h1)>()(h1_copy));
  }
  sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::device> placeholder(b1);
  auto placeholder_copy = placeholder;
  CHECK(std::hash<decltype(placeholder)>()(placeholder) ==
        std::hash<decltype(placeholder)>()(placeholder_copy));
  q.submit([&](sycl::handler& h) {
    sycl::local_accessor<int, 1> local(sycl::range<1>(8), h);
    auto local_copy = local;
    CHECK(std::hash<decltype(local)>()(local) == std::hash<decltype(local)>()(local_copy));
    h.parallel_for(sycl::nd_range<1>(8, 8),
                   [=](sycl::nd_item<1> it) { local[it.get_local_id(0)] = 1; });
  });
  q.wait();

  // Legacy multi_ptr<T> (SYCL 1.2.1 interface) converts to legacy multi_ptr<const T>, <void> and
  // <const void> (these did not compile: two partial specializations matched legacy void), and
  // vec loads and stores through them in a kernel.
  {
    using gs = sycl::access::address_space;
    int* data = sycl::malloc_shared<int>(8, q);
    for (int i = 0; i < 8; ++i) data[i] = i + 1;
    q.single_task([=] {
       sycl::multi_ptr<int, gs::global_space> p(data);
       sycl::multi_ptr<const int, gs::global_space> cp = p;
       sycl::multi_ptr<void, gs::global_space> vp = p;
       sycl::multi_ptr<const void, gs::global_space> cvp = cp;
       sycl::vec<int, 4> v;
       v.load(1, cp); // elements 4..7
       v.store(0, p);
       data[7] = (vp.get() == cvp.get()) ? 100 : -100;
     }).wait();
    CHECK(data[0] == 5 && data[3] == 8 && data[7] == 100);
    sycl::free(data, q);
  }

  // The legacy multi_ptr (4.7.7.2, deprecated) compares with raw pointers either way round, and
  // with its own kind, without ambiguity (the CTS's multi_ptr_legacy_api did not compile); a
  // constant_buffer accessor's get_pointer() is constant_ptr<DataT>
  // (multi_ptr_legacy_constructors).
  {
    using legacy_void = sycl::multi_ptr<void, sycl::access::address_space::global_space,
                                        sycl::access::decorated::legacy>;
    using legacy_int = sycl::multi_ptr<int, sycl::access::address_space::global_space,
                                       sycl::access::decorated::legacy>;
    int x[2] = {1, 2};
    void* const raw = x;
    legacy_void a(raw), b(raw);
    CHECK(a == raw && raw == a && a == b && !(a != b) && a != nullptr && !(nullptr == a));
    sycl::id<1> high(3);
    unsigned long before = 0xff, after = 0xf7;
    CHECK(after == (before ^ (1 << high)) && std::size_t(3) == high && !(std::size_t(4) == high));
    CHECK(sycl::id<2>(1, 2) == sycl::id<2>(1, 2) && sycl::range<2>(1, 2) != sycl::range<2>(1, 3));
    legacy_int c(x), d(x + 1);
    CHECK(c < d && c == x && x + 1 == d && c + 1 == d && c != nullptr);
    sycl::buffer<float> constants(sycl::range<1>(1));
    {
      sycl::host_accessor w(constants);
      w[0] = 2.5f;
    }
    sycl::buffer<float> out(sycl::range<1>(1));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<float, 1, sycl::access_mode::read, sycl::target::constant_buffer> in(constants,
                                                                                          h);
      sycl::accessor o(out, h, sycl::write_only);
      h.single_task([=] {
        sycl::constant_ptr<float> p = in.get_pointer();
        sycl::multi_ptr<void, sycl::access::address_space::constant_space,
                        sycl::access::decorated::legacy>
            v(in.get_pointer());
        o[0] = *p + (v == nullptr ? 100.0f : 0.0f);
      });
    });
    CHECK(sycl::host_accessor(out)[0] == 2.5f);
  }

  if (g_failures) return 1;
  std::printf("core_utilities: ok\n");
  return 0;
}
