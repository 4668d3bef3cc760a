// sycl_ext_oneapi_work_group_static and sycl_ext_oneapi_work_group_scratch_memory on the device:
// - a namespace-scope work_group_static array, filled by each work-group and read back across
//   its work-items after a barrier (a per-group rotation: every value comes from another
//   work-item of the same group);
// - a function's static work_group_static scalar, used from two functions the kernel calls (one
//   variable for both), and a static data member;
// - scratch memory of a launch-time size (work_group_scratch_size), through handler::parallel_for
//   and nd_launch, next to a local accessor (both must stay intact);
// - the feature-test macros, and the work_group_static operators the extension lists.
// Values are checked on the host against the same arithmetic.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <type_traits>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

static_assert(SYCL_EXT_ONEAPI_WORK_GROUP_STATIC == 1);
static_assert(SYCL_EXT_ONEAPI_WORK_GROUP_SCRATCH_MEMORY == 1);
static_assert(!std::is_copy_constructible_v<syclex::work_group_static<int>>);
static_assert(sycl::ext::oneapi::experimental::is_property_key_v<syclex::work_group_scratch_size>);

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr int local = 64, groups = 8, n = local * groups;

syclex::work_group_static<int[local]> tile; // namespace scope

struct counters {
  static syclex::work_group_static<int> group_total; // a static data member
};
syclex::work_group_static<int> counters::group_total;

// A block-scope static: one variable, whichever function reaches it.
int& group_flag() {
  static syclex::work_group_static<int> flag;
  return flag;
}
void set_flag(int v) {
  group_flag() = v;
}
int get_flag() {
  return group_flag();
}

void test_static(sycl::queue& q) {
  std::vector<int> out(n, -1), totals(groups, -1), flags(groups, -1);
  {
    sycl::buffer<int> b(out.data(), sycl::range<1>(n));
    sycl::buffer<int> t(totals.data(), sycl::range<1>(groups));
    sycl::buffer<int> f(flags.data(), sycl::range<1>(groups));
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      sycl::accessor tot(t, h, sycl::write_only);
      sycl::accessor fl(f, h, sycl::write_only);
      h.parallel_for(sycl::nd_range<1>(n, local), [=](sycl::nd_item<1> it) {
        int l = static_cast<int>(it.get_local_id(0));
        int g = static_cast<int>(it.get_group(0));
        int* p = &tile[0];
        p[l] = g * 1000 + l * l;
        if (l == 0) {
          counters::group_total = 0;
          set_flag(g + 7);
        }
        sycl::group_barrier(it.get_group());
        // Every work-item reads another's value: the storage is the group's.
        o[it.get_global_id(0)] = tile[(l + 5) % local];
        sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                         sycl::access::address_space::local_space>
            total(counters::group_total);
        total.fetch_add(l);
        sycl::group_barrier(it.get_group());
        if (l == local - 1) {
          tot[g] = counters::group_total;
          fl[g] = get_flag();
        }
      });
    });
  }
  int wrong = 0;
  for (int g = 0; g < groups; ++g)
    for (int l = 0; l < local; ++l) {
      int k = (l + 5) % local;
      wrong += out[g * local + l] != g * 1000 + k * k;
    }
  CHECK(wrong == 0);
  for (int g = 0; g < groups; ++g) {
    CHECK(totals[g] == local * (local - 1) / 2);
    CHECK(flags[g] == g + 7);
  }
}

// Scratch memory: each work-group reverses its slice through it, a local accessor beside it.
void test_scratch(sycl::queue& q) {
  std::vector<float> in(n), out(n, 0.0f), acc_out(n, 0.0f);
  for (int i = 0; i < n; ++i) in[i] = 0.25f * i - 3.0f;
  {
    sycl::buffer<float> bi(in.data(), sycl::range<1>(n));
    sycl::buffer<float> bo(out.data(), sycl::range<1>(n));
    sycl::buffer<float> ba(acc_out.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor x(bi, h, sycl::read_only);
      sycl::accessor y(bo, h, sycl::write_only);
      sycl::accessor z(ba, h, sycl::write_only);
      sycl::local_accessor<float, 1> beside(sycl::range<1>(local), h);
      h.parallel_for(sycl::nd_range<1>(n, local),
                     syclex::properties{syclex::work_group_scratch_size(local * sizeof(float))},
                     [=](sycl::nd_item<1> it) {
                       auto* s = static_cast<float*>(syclex::get_work_group_scratch_memory());
                       // The same allocation at every call.
                       auto* again = static_cast<float*>(syclex::get_work_group_scratch_memory());
                       std::size_t l = it.get_local_id(0);
                       s[l] = x[it.get_global_id(0)];
                       beside[l] = 2.0f * x[it.get_global_id(0)];
                       sycl::group_barrier(it.get_group());
                       y[it.get_global_id(0)] = again[local - 1 - l];
                       z[it.get_global_id(0)] = beside[local - 1 - l];
                     });
    });
  }
  int wrong = 0, wrong_acc = 0;
  for (int g = 0; g < groups; ++g)
    for (int l = 0; l < local; ++l) {
      wrong += out[g * local + l] != in[g * local + (local - 1 - l)];
      wrong_acc += acc_out[g * local + l] != 2.0f * in[g * local + (local - 1 - l)];
    }
  CHECK(wrong == 0);
  CHECK(wrong_acc == 0);

  // nd_launch with a launch_config, as the extension's example: group sums through scratch.
  int* sums = sycl::malloc_shared<int>(groups, q);
  syclex::launch_config cfg{
      sycl::nd_range<1>(n, local),
      syclex::properties{syclex::work_group_scratch_size(local * sizeof(int))}};
  syclex::nd_launch(q, cfg, [=](sycl::nd_item<1> it) {
    int* s = static_cast<int*>(syclex::get_work_group_scratch_memory());
    int l = static_cast<int>(it.get_local_id(0));
    s[l] = l + static_cast<int>(it.get_group(0));
    sycl::group_barrier(it.get_group());
    if (l == 0) {
      int sum = 0;
      for (int i = 0; i < local; ++i) sum += s[i];
      sums[it.get_group(0)] = sum;
    }
  });
  q.wait();
  for (int g = 0; g < groups; ++g) CHECK(sums[g] == local * (local - 1) / 2 + local * g);
  sycl::free(sums, q);
}

// More scratch memory than the device's local memory: errc::memory_allocation from the launch.
void test_too_much(sycl::queue& q) {
  std::size_t limit = q.get_device().get_info<sycl::info::device::local_mem_size>();
  bool thrown = false;
  try {
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::nd_range<1>(local, local),
                     syclex::properties{syclex::work_group_scratch_size(limit + 4096)},
                     [=](sycl::nd_item<1>) { (void)syclex::get_work_group_scratch_memory(); });
    });
    q.wait();
  } catch (const sycl::exception& e) {
    thrown = e.code() == sycl::errc::memory_allocation;
  }
  CHECK(thrown);
}
} // namespace

int main() {
  sycl::queue q;
  test_static(q);
  test_scratch(q);
  test_too_much(q);
  if (g_failures) return 1;
  std::printf("work_group_static: OK on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
