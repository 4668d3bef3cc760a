// Kernels for prefetch_codegen_test: every hint of sycl_ext_oneapi_prefetch, through the real
// headers, compiled to nvptx64 bitcode the way syclone++ compiles device code. The test JITs each
// kernel for sm_90 and sm_80 and checks the PTX (never run: the host code here is not compiled).
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

// One kernel name per case; the test finds each by its unique stable name (_ZTS<len><name>).
class PfL1;
class PfL2;
class PfL3;
class PfL4;
class PfL1nt;
class PfL2nt;
class PfL3nt;
class PfL4nt;
class PfDefault;
class PfLowestWins;
class PfLowestWinsNt;
class PfRange;
class PfGlobalPtr;
class PfGenericPtr;
class PfAccessor;
class PfMultiPtrMember;
class PfLocal;
class PfJointGroupL2;
class PfJointGroupL3;
class PfJointGroupL1;
class PfJointGroupNt;
class PfJointAccessor;

template <typename Name, typename Props>
void single(sycl::queue& q, float* p, Props props) {
  q.single_task<Name>([=] { syclex::prefetch(p + 64, props); });
}

void kernels(sycl::queue& q, float* p, sycl::buffer<float>& b) {
  single<PfL1>(q, p, syclex::properties{syclex::prefetch_hint_L1});
  single<PfL2>(q, p, syclex::properties{syclex::prefetch_hint_L2});
  single<PfL3>(q, p, syclex::properties{syclex::prefetch_hint_L3});
  single<PfL4>(q, p, syclex::properties{syclex::prefetch_hint_L4});
  single<PfL1nt>(q, p, syclex::properties{syclex::prefetch_hint_L1_nt});
  single<PfL2nt>(q, p, syclex::properties{syclex::prefetch_hint_L2_nt});
  single<PfL3nt>(q, p, syclex::properties{syclex::prefetch_hint_L3_nt});
  single<PfL4nt>(q, p, syclex::properties{syclex::prefetch_hint_L4_nt});
  q.single_task<PfDefault>([=] { syclex::prefetch(p + 64); });
  single<PfLowestWins>(q, p,
                       syclex::properties{syclex::prefetch_hint_L4, syclex::prefetch_hint_L2});
  single<PfLowestWinsNt>(q, p,
                         syclex::properties{syclex::prefetch_hint_L3_nt, syclex::prefetch_hint_L1});
  // 1 KiB from an unknown alignment: a loop over 128-byte lines.
  q.single_task<PfRange>(
      [=] { syclex::prefetch(p + 3, 256, syclex::properties{syclex::prefetch_hint_L2}); });
  q.single_task<PfGlobalPtr>([=] {
    auto g = sycl::address_space_cast<sycl::access::address_space::global_space,
                                      sycl::access::decorated::no>(p);
    syclex::prefetch(g + 64, 8, syclex::properties{syclex::prefetch_hint_L2});
  });
  // A pointer read from memory may point anywhere: the prefetch checks for global memory first.
  q.single_task<PfGenericPtr>([=] {
    sycl::multi_ptr<float, sycl::access::address_space::generic_space, sycl::access::decorated::no>
        g(*reinterpret_cast<float* const*>(p));
    syclex::prefetch(g, syclex::properties{syclex::prefetch_hint_L2});
  });
  q.single_task<PfMultiPtrMember>([=] { sycl::global_ptr<float>(p).prefetch(8); });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::read_only);
    h.single_task<PfAccessor>(
        [=] { syclex::prefetch(a, 16, 8, syclex::properties{syclex::prefetch_hint_L3}); });
  });
  q.submit([&](sycl::handler& h) {
    sycl::local_accessor<float> l(sycl::range<1>(64), h);
    h.parallel_for<PfLocal>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
      float* lp = l.get_pointer();
      syclex::prefetch(lp, 64, syclex::properties{syclex::prefetch_hint_L2});
      p[it.get_global_id(0)] = lp[it.get_local_id(0)];
    });
  });
  q.parallel_for<PfJointGroupL2>(sycl::nd_range<1>(256, 128), [=](sycl::nd_item<1> it) {
    syclex::joint_prefetch(it.get_group(), p, 1024, syclex::properties{syclex::prefetch_hint_L2});
  });
  q.parallel_for<PfJointGroupL3>(sycl::nd_range<1>(256, 128), [=](sycl::nd_item<1> it) {
    syclex::joint_prefetch(it.get_group(), p, 1024, syclex::properties{syclex::prefetch_hint_L3});
  });
  q.parallel_for<PfJointGroupL1>(sycl::nd_range<1>(256, 128), [=](sycl::nd_item<1> it) {
    syclex::joint_prefetch(it.get_group(), p, 1024, syclex::properties{syclex::prefetch_hint_L1});
  });
  q.parallel_for<PfJointGroupNt>(sycl::nd_range<1>(256, 128), [=](sycl::nd_item<1> it) {
    syclex::joint_prefetch(it.get_group(), p, 1024,
                           syclex::properties{syclex::prefetch_hint_L2_nt});
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.parallel_for<PfJointAccessor>(sycl::nd_range<1>(256, 128), [=](sycl::nd_item<1> it) {
      syclex::joint_prefetch(it.get_group(), a, 0, 256,
                             syclex::properties{syclex::prefetch_hint_L4});
    });
  });
}

class PfJointSubGroupSeed;
class PfJointSubGroupAligned;
class PfJointSubGroupL1;
class PfJointSubGroupWalk;
class PfWalkL2;

// seed 000's sub-group example, and a sub-group prefetching 16-byte aligned whole vectors.
void sub_group_kernels(sycl::queue& q, int* data, sycl::float4* v) {
  q.parallel_for<PfJointSubGroupSeed>(sycl::nd_range<1>(256, 64), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    int s = 0;
    for (int j = sg.get_local_id(); j < 1024; j += sg.get_max_local_range()) {
      syclex::joint_prefetch(sg, &data[j + 100], sg.get_max_local_range(),
                             syclex::properties{syclex::prefetch_hint_L3});
      s += data[j];
    }
    data[it.get_global_id(0)] = s;
  });
  q.parallel_for<PfJointSubGroupAligned>(sycl::nd_range<1>(256, 64), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    syclex::joint_prefetch(sg, v + 64, 32, syclex::properties{syclex::prefetch_hint_L2});
  });
  q.parallel_for<PfJointSubGroupL1>(sycl::nd_range<1>(256, 64), [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    syclex::joint_prefetch(sg, v + 64, 32);
  });
}

// bench/cuda_prefetch.sycl.cpp's latency-bound walk: each sub-group prefetches the line it reads
// `distance` iterations later, as one bulk prefetch (PfJointSubGroupWalk) or per work-item
// (PfWalkL2, the reference the joint form should match).
template <typename Name, bool Joint>
void walk(sycl::queue& q, const float* a, float* out, std::size_t per_group, int distance,
          int mask) {
  q.parallel_for<Name>(sycl::nd_range<1>(132 * 32, 32), [=](sycl::nd_item<1> it) {
    const std::size_t lines = per_group / 32;
    const float* base = a + it.get_group(0) * per_group;
    const std::size_t lane = it.get_local_id(0);
    float acc = 0.0f;
    for (std::size_t k = 0; k < lines; ++k) {
      if (k + distance < lines) {
        const float* ahead = base + (k + distance) * 32;
        if constexpr (Joint)
          syclex::joint_prefetch(it.get_sub_group(), ahead, 32,
                                 syclex::properties{syclex::prefetch_hint_L2});
        else
          syclex::prefetch(ahead + lane, syclex::properties{syclex::prefetch_hint_L2});
      }
      float x = base[k * 32 + lane + (static_cast<int>(acc) & mask)];
      acc = acc * 0.5f + x;
    }
    out[it.get_global_id(0)] = acc;
  });
}
void walk_kernels(sycl::queue& q, const float* a, float* out) {
  walk<PfJointSubGroupWalk, true>(q, a, out, 1 << 16, 32, 0);
  walk<PfWalkL2, false>(q, a, out, 1 << 16, 32, 0);
}
