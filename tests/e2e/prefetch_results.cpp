// sycl_ext_oneapi_prefetch (seed 000) and multi_ptr (SYCL 2020 4.7.7, seed 001) on the device:
// every prefetch and joint_prefetch overload with every hint, on USM, buffers through accessors,
// global, generic, decorated and legacy multi_ptrs, local and private memory and the last bytes
// of an allocation, in kernels whose results must be exactly those computed without them
// (a prefetch is a hint: it never changes a result and never faults). Also multi_ptr's
// conversions, arithmetic and address_space_cast inside kernels, and get_multi_ptr of accessors.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;
using sycl::access::address_space;
using sycl::access::decorated;

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr std::size_t n = 1 << 14;
constexpr std::size_t wg = 128;

float value(std::size_t i) {
  return static_cast<float>((i * 37) % 1001) * 0.5f - 100.0f;
}

// Every single-work-item overload of prefetch, with every hint, around element i.
template <typename T>
void prefetch_everything(T* p, std::size_t i) {
  syclex::prefetch(p + i);
  syclex::prefetch(static_cast<void*>(p + i));
  syclex::prefetch(static_cast<void*>(p + i), 64, syclex::properties{syclex::prefetch_hint_L2});
  syclex::prefetch(p + i, syclex::properties{syclex::prefetch_hint_L3});
  syclex::prefetch(p + i, 16, syclex::properties{syclex::prefetch_hint_L4});
  syclex::prefetch(p + i, 4, syclex::properties{syclex::prefetch_hint_L1_nt});
  syclex::prefetch(p + i, 4, syclex::properties{syclex::prefetch_hint_L2_nt});
  syclex::prefetch(p + i, 1, syclex::properties{syclex::prefetch_hint_L3_nt});
  syclex::prefetch(p + i, 33, syclex::properties{syclex::prefetch_hint_L4_nt});
  syclex::prefetch(p + i, syclex::properties{syclex::prefetch_hint_L4, syclex::prefetch_hint_L1});
  auto g = sycl::address_space_cast<address_space::global_space, decorated::no>(p);
  syclex::prefetch(g + i, syclex::properties{syclex::prefetch_hint_L2});
  syclex::prefetch(g + i, 8);
  sycl::decorated_global_ptr<T> d = g;
  syclex::prefetch(d + i, 8, syclex::properties{syclex::prefetch_hint_L3_nt});
  sycl::multi_ptr<T, address_space::generic_space, decorated::no> generic;
  generic = g;
  syclex::prefetch(generic + i, 2, syclex::properties{syclex::prefetch_hint_L1});
  sycl::raw_global_ptr<const void> v = sycl::raw_global_ptr<const T>(g + i);
  syclex::prefetch(v, 24, syclex::properties{syclex::prefetch_hint_L2_nt});
  syclex::prefetch(sycl::raw_global_ptr<void>(g + i));
  sycl::global_ptr<T>(p + i).prefetch(8); // seed 001
  g.prefetch(1);
}

template <typename Group, typename T>
void joint_prefetch_everything(Group grp, T* p, std::size_t base) {
  syclex::joint_prefetch(grp, p + base);
  syclex::joint_prefetch(grp, static_cast<void*>(p + base));
  syclex::joint_prefetch(grp, static_cast<void*>(p + base), 512,
                         syclex::properties{syclex::prefetch_hint_L2});
  syclex::joint_prefetch(grp, p + base, syclex::properties{syclex::prefetch_hint_L3});
  syclex::joint_prefetch(grp, p + base, 128, syclex::properties{syclex::prefetch_hint_L4});
  syclex::joint_prefetch(grp, p + base + 1, 37, syclex::properties{syclex::prefetch_hint_L3});
  syclex::joint_prefetch(grp, p + base, 64, syclex::properties{syclex::prefetch_hint_L1});
  syclex::joint_prefetch(grp, p + base, 64, syclex::properties{syclex::prefetch_hint_L1_nt});
  syclex::joint_prefetch(grp, p + base + 3, 5, syclex::properties{syclex::prefetch_hint_L2_nt});
  auto g = sycl::address_space_cast<address_space::global_space, decorated::yes>(p);
  syclex::joint_prefetch(grp, g + base);
  syclex::joint_prefetch(grp, g + base, 256, syclex::properties{syclex::prefetch_hint_L4_nt});
  sycl::raw_global_ptr<void> v = sycl::raw_global_ptr<T>(g + base);
  syclex::joint_prefetch(grp, v, syclex::properties{syclex::prefetch_hint_L2});
  syclex::joint_prefetch(grp, v, 1024);
}
} // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  const bool gpu = q.get_device().is_gpu();

  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = value(i);
  float* in = sycl::malloc_device<float>(n, q);
  float* out = sycl::malloc_shared<float>(n, q);
  q.memcpy(in, host.data(), n * sizeof(float)).wait();

  // 1. Work-item prefetches of USM, ahead of and at the element read, up to the last byte.
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     std::size_t i = id[0];
     prefetch_everything(in, i);
     if (i + 64 < n) prefetch_everything(in, i + 63);
     syclex::prefetch(in + i, n - i, syclex::properties{syclex::prefetch_hint_L2}); // to the end
     syclex::prefetch(in + n - 1, syclex::properties{syclex::prefetch_hint_L2_nt}); // last element
     float x = in[i];
     float priv[4] = {x, x, x, x};
     syclex::prefetch(priv, 4); // private memory: nothing to do, nothing to fault
     out[i] = priv[i % 4] * 2.0f + 1.0f;
   }).wait();
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != host[i] * 2.0f + 1.0f;
  CHECK(wrong == 0);

  // 2. Group prefetches by work-groups and sub-groups, and prefetches of local memory.
  q.fill(out, 0.0f, n).wait();
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<float> tile(sycl::range<1>(wg), h);
     h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
       std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
       std::size_t base = it.get_group(0) * wg;
       auto sg = it.get_sub_group();
       joint_prefetch_everything(it.get_group(), in, base);
       joint_prefetch_everything(sg, in,
                                 base + sg.get_group_linear_id() * sg.get_max_local_range()[0]);
       tile[l] = in[i];
       // Local memory through a generic pointer: skipped, never faults.
       syclex::prefetch(static_cast<void*>(&tile[0]), wg * sizeof(float));
       syclex::joint_prefetch(it.get_group(), &tile[0], wg);
       sycl::group_barrier(it.get_group());
       out[i] = tile[wg - 1 - l] + 3.0f;
     });
   }).wait();
  wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = i / wg, l = i % wg;
    wrong += out[i] != host[g * wg + wg - 1 - l] + 3.0f;
  }
  CHECK(wrong == 0);

  // 3. Accessor overloads (read and read_write, 1 and 2 dimensions), get_multi_ptr and the
  // legacy get_pointer, multi_ptr built from accessors.
  {
    sycl::buffer<float> b1(host.data(), sycl::range<1>(n));
    sycl::buffer<float, 2> b2(host.data(), sycl::range<2>(n / wg, wg));
    std::vector<float> result(n, 0.0f);
    sycl::buffer<float> r(result.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a1(b1, h, sycl::read_only);
      sycl::accessor a2(b2, h, sycl::read_only);
      sycl::accessor w(r, h, sycl::read_write);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        std::size_t i = it.get_global_id(0);
        sycl::id<2> i2(i / wg, i % wg);
        syclex::prefetch(a1, sycl::id<1>(i));
        syclex::prefetch(a1, i, 16, syclex::properties{syclex::prefetch_hint_L2});
        syclex::prefetch(a2, i2, syclex::properties{syclex::prefetch_hint_L3_nt});
        syclex::prefetch(a2, i2, 3, syclex::properties{syclex::prefetch_hint_L4});
        syclex::prefetch(w, i);
        syclex::joint_prefetch(it.get_group(), a1, it.get_group(0) * wg, wg,
                               syclex::properties{syclex::prefetch_hint_L3});
        // A group function's arguments are the same on every work-item of the group (seed 000):
        // the sub-group's first element, not this work-item's.
        auto sg = it.get_sub_group();
        syclex::joint_prefetch(
            sg, a1, it.get_group(0) * wg + sg.get_group_linear_id() * sg.get_max_local_range()[0]);
        syclex::joint_prefetch(it.get_group(), a2, sycl::id<2>(it.get_group(0), 0), wg);
        syclex::joint_prefetch(it.get_group(), w, sycl::id<1>(0));
        auto m1 = a1.get_multi_ptr<decorated::no>();
        auto m2 = a2.get_multi_ptr<decorated::yes>();
        sycl::multi_ptr wm(w); // deduction guide: raw_global_ptr<float>
        sycl::global_ptr<const float> legacy = a1.get_pointer();
        const float* raw = a1.get_pointer();
        syclex::prefetch(m1 + i, 4);
        m1.prefetch(4);
        wm[i] = m1[i] + m2[i] + legacy[i] + raw[i] + a2[i2];
      });
    });
    sycl::host_accessor h(r, sycl::read_only);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += h[i] != 5.0f * host[i];
    CHECK(wrong == 0);
  }

  // 4. address_space_cast: the object's own space gives the pointer; on a GPU, another space
  // gives null (the host has one address space, where every cast succeeds).
  int* flags = sycl::malloc_shared<int>(8, q);
  for (int k = 0; k < 8; ++k) flags[k] = -1;
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int> l(sycl::range<1>(4), h);
     h.parallel_for(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>) {
       int priv = 7;
       int* gp = flags;
       int* lp = &l[0];
       int* pp = &priv;
       flags[0] =
           sycl::address_space_cast<address_space::global_space, decorated::no>(gp) != nullptr;
       flags[1] =
           sycl::address_space_cast<address_space::local_space, decorated::no>(lp) != nullptr;
       flags[2] =
           sycl::address_space_cast<address_space::private_space, decorated::yes>(pp) != nullptr;
       flags[3] =
           sycl::address_space_cast<address_space::generic_space, decorated::no>(lp) != nullptr;
       flags[4] =
           sycl::address_space_cast<address_space::global_space, decorated::no>(lp) == nullptr;
       flags[5] =
           sycl::address_space_cast<address_space::local_space, decorated::no>(gp) == nullptr;
       auto lm = l.get_multi_ptr<decorated::yes>();
       lm[1] = 41;
       sycl::local_ptr<int> legacy = l.get_pointer();
       flags[6] = legacy[1] + 1;
       auto dp = sycl::address_space_cast<address_space::private_space, decorated::yes>(pp);
       flags[7] = *dp;
     });
   }).wait();
  CHECK(flags[0] == 1 && flags[1] == 1 && flags[2] == 1 && flags[3] == 1);
  if (gpu) CHECK(flags[4] == 1 && flags[5] == 1);
  CHECK(flags[6] == 42 && flags[7] == 7);

  sycl::free(flags, q);
  sycl::free(out, q);
  sycl::free(in, q);
  std::printf("%s\n", g_failures ? "FAILED" : "passed");
  return g_failures ? 1 : 0;
}
