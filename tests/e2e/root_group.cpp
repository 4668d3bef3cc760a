// sycl_ext_oneapi_root_group and the launch queries it relies on: a kernel launched with
// use_root_sync and as many work-groups as max_num_work_groups allows synchronizes all of them
// with group_barrier(root_group) several times (each round reads what every other work-group
// wrote in the previous one), the root group's queries answer as the nd_item does, a launch with
// more work-groups throws errc::nd_range at submission, and a root barrier in a kernel launched
// without the property is reported (the host: errc::invalid from the kernel).
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

class rounds_kernel;
class queries_kernel;
class unsynced_kernel;
class overflow_kernel;
} // namespace

int main() {
  sycl::queue q;
  const bool host = q.get_device().get_backend() != sycl::backend::ext_oneapi_cuda;
  auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());

  // Several rounds of a global exchange: in round r every work-item writes its value, the root
  // barrier, then it sums what all the others wrote; the sum is the same everywhere only if no
  // work-item read before every work-group wrote.
  {
    sycl::kernel k = bundle.get_kernel<rounds_kernel>();
    const std::size_t wg = 64;
    std::size_t groups =
        k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
            q, sycl::range<1>(wg), 0);
    CHECK(groups >= 1);
    if (groups > 264) groups = 264; // two per multiprocessor of an H200
    const std::size_t n = groups * wg;
    constexpr int rounds = 4;
    int* data = sycl::malloc_shared<int>(n, q);
    long long* sums = sycl::malloc_shared<long long>(n * rounds, q);
    q.parallel_for<rounds_kernel>(sycl::nd_range<1>(n, wg),
                                  syclex::properties{syclex::use_root_sync},
                                  [=](sycl::nd_item<1> it) {
                                    auto root = it.ext_oneapi_get_root_group();
                                    const std::size_t i = root.get_local_linear_id();
                                    for (int r = 0; r < rounds; ++r) {
                                      data[i] = static_cast<int>(i) * (r + 1);
                                      sycl::group_barrier(root);
                                      long long s = 0;
                                      for (std::size_t j = 0; j < n; ++j) s += data[j];
                                      sums[i * rounds + r] = s;
                                      sycl::group_barrier(root);
                                    }
                                  })
        .wait();
    bool all = true;
    for (int r = 0; r < rounds; ++r) {
      const long long expect = static_cast<long long>(n) * (n - 1) / 2 * (r + 1);
      for (std::size_t i = 0; i < n; ++i) all = all && sums[i * rounds + r] == expect;
    }
    CHECK(all);
    sycl::free(data, q);
    sycl::free(sums, q);

    // One work-group more than fit at once: errc::nd_range at submission.
    const std::size_t most =
        bundle.get_kernel<overflow_kernel>()
            .ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
                q, sycl::range<1>(wg));
    bool threw = false;
    try {
      q.parallel_for<overflow_kernel>(sycl::nd_range<1>((most + 1) * wg, wg),
                                      syclex::properties{syclex::use_root_sync},
                                      [=](sycl::nd_item<1> it) {
                                        auto root = it.ext_oneapi_get_root_group();
                                        (void)root;
                                      });
    } catch (const sycl::exception& e) {
      threw = e.code() == sycl::errc::nd_range;
    }
    CHECK(threw);
    // A work-group size of 0: errc::invalid; one the kernel cannot have: 0 work-groups.
    bool invalid = false;
    try {
      (void)k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
          q, sycl::range<1>(0));
    } catch (const sycl::exception& e) {
      invalid = e.code() == sycl::errc::invalid;
    }
    CHECK(invalid);
    CHECK((k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
              q, sycl::range<1>(1u << 20))) == 0);
    // The other launch queries agree with the device and kernel queries.
    const std::size_t max_wg =
        k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_work_group_size>(q);
    CHECK(max_wg ==
          k.get_info<sycl::info::kernel_device_specific::work_group_size>(q.get_device()));
    const std::uint32_t sg =
        k.ext_oneapi_get_info<syclex::info::kernel::max_sub_group_size>(q, sycl::range<1>(wg));
    CHECK(sg >= 1 && wg % sg == 0);
    CHECK((k.ext_oneapi_get_info<syclex::info::kernel::num_sub_groups>(q, sycl::range<1>(wg))) ==
          wg / sg);
    sycl::id<2> sizes =
        k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_work_item_sizes<2>>(q);
    CHECK(sizes[0] >= 1 && sizes[1] >= 1 && sizes[1] <= max_wg);
  }

  // The root group's queries, in 2 dimensions, through both ways to get it.
  {
    const sycl::range<2> local(4, 8);
    sycl::kernel k = bundle.get_kernel<queries_kernel>();
    std::size_t groups =
        k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(q, local);
    if (groups > 8) groups = 8;
    const sycl::range<2> global(4 * groups, 8);
    const std::size_t n = global.size();
    int* ok = sycl::malloc_shared<int>(n, q);
    q.parallel_for<queries_kernel>(
         sycl::nd_range<2>(global, local), syclex::properties{syclex::use_root_sync},
         [=](sycl::nd_item<2> it) {
           auto root = it.ext_oneapi_get_root_group();
           auto same = syclex::this_work_item::get_root_group<2>();
           bool good =
               root.get_group_id() == sycl::id<2>(0, 0) &&
               root.get_local_id() == it.get_global_id() &&
               root.get_group_range() == sycl::range<2>(1, 1) &&
               root.get_local_range() == it.get_global_range() &&
               root.get_max_local_range() == it.get_global_range() &&
               root.get_group_linear_id() == 0 &&
               root.get_local_linear_id() == it.get_global_linear_id() &&
               root.get_group_linear_range() == 1 &&
               root.get_local_linear_range() == it.get_global_range().size() &&
               root.leader() == (it.get_global_linear_id() == 0) &&
               same.get_local_linear_id() == root.get_local_linear_id() &&
               root.get_id<syclex::execution_scope::work_group>() ==
                   it.get_group().get_group_id() &&
               root.get_linear_id<syclex::execution_scope::work_item>() ==
                   it.get_global_linear_id() &&
               root.get_range<syclex::execution_scope::work_group>() == it.get_group_range();
           sycl::group_barrier(root);
           ok[it.get_global_linear_id()] = good ? 1 : 0;
         })
        .wait();
    bool all = true;
    for (std::size_t i = 0; i < n; ++i) all = all && ok[i] == 1;
    CHECK(all);
    sycl::free(ok, q);
  }

  // A root barrier without use_root_sync: on the host, errc::invalid from the kernel, delivered
  // to the queue's async_handler; the queue stays usable.
  if (host) {
    bool reported = false;
    sycl::queue hq(q.get_device(), [&](sycl::exception_list errors) {
      for (const std::exception_ptr& e : errors) {
        try {
          std::rethrow_exception(e);
        } catch (const sycl::exception& x) {
          reported = reported || x.code() == sycl::errc::invalid;
        }
      }
    });
    hq.parallel_for<unsynced_kernel>(sycl::nd_range<1>(8, 4), [=](sycl::nd_item<1> it) {
        sycl::group_barrier(it.ext_oneapi_get_root_group());
      }).wait_and_throw();
    CHECK(reported);
    int* x = sycl::malloc_shared<int>(1, hq);
    hq.single_task([=] { *x = 7; }).wait();
    CHECK(*x == 7);
    sycl::free(x, hq);
  }

  if (g_failures) return 1;
  std::printf("root_group: all checks passed\n");
  return 0;
}
