// SYCL 2020 4.10.7.3: a private_memory used with an h_item of another work-group is an error
// (errc::invalid, asynchronously: it happens inside the kernel) with a message naming the
// object, the work-groups and the fix; the queue stays usable and buffers are written back. The
// host throws where the misuse happens; a GPU records it in the command's error slot and the
// runtime reports it when the kernel completed (before wait_and_throw returns).
#include <sycl/sycl.hpp>

#include <cstdio>
#include <string>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

int main() {
  int async_invalid = 0;
  std::string message;
  sycl::queue q{[&](sycl::exception_list errors) {
    for (auto& e : errors) {
      try {
        std::rethrow_exception(e);
      } catch (const sycl::exception& x) {
        if (x.code() == sycl::errc::invalid) ++async_invalid;
        message = x.what();
      }
    }
  }};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());

  // An h_item of work-group 0, saved by a first kernel.
  auto* saved = sycl::malloc_shared<sycl::h_item<1>>(1, q);
  q.submit([&](sycl::handler& h) {
     h.parallel_for_work_group(sycl::range<1>(1), sycl::range<1>(4), [=](sycl::group<1> g) {
       g.parallel_for_work_item([&](sycl::h_item<1> it) {
         if (it.get_local_id(0) == 0) *saved = it;
       });
     });
   }).wait();

  // Work-group 1 of the second kernel uses its private_memory with it.
  int* out = sycl::malloc_shared<int>(2, q);
  out[0] = out[1] = -1;
  q.submit([&](sycl::handler& h) {
     h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(4), [=](sycl::group<1> g) {
       sycl::private_memory<int> pm(g);
       g.parallel_for_work_item([&](sycl::h_item<1> it) {
         if (it.get_local_id(0) == 0) {
           pm(*saved) = 7;
           out[g.get_group_id(0)] = pm(*saved);
         }
       });
     });
   }).wait_and_throw();
  CHECK(async_invalid == 1);
  CHECK(message.find("private_memory") != std::string::npos &&
        message.find("work-group 1") != std::string::npos);
  CHECK(out[0] == 7); // group 0 used its own

  // Once more with a buffer the kernel writes: the error is reported, and the buffer's contents
  // reach the host (nothing lost).
  async_invalid = 0;
  {
    int values[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    {
      sycl::buffer<int> buf(values, sycl::range<1>(8));
      q.submit([&](sycl::handler& h) {
        sycl::accessor acc(buf, h, sycl::write_only);
        h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(4), [=](sycl::group<1> g) {
          sycl::private_memory<int> pm(g);
          g.parallel_for_work_item([&](sycl::h_item<1> it) {
            pm(it) = static_cast<int>(it.get_global_id(0)) * 10;
            if (g.get_group_id(0) == 1 && it.get_local_id(0) == 2) (void)pm(*saved);
          });
          g.parallel_for_work_item([&](sycl::h_item<1> it) { acc[it.get_global_id()] = pm(it); });
        });
      });
      q.wait_and_throw();
    }
    CHECK(async_invalid == 1);
    bool written = true;
    // Group 0 is complete; in group 1 the work-items before the misuse wrote their values (the
    // host stops the work-group at the throw, a GPU finishes it).
    for (int i = 0; i < 4; ++i) written &= values[i] == i * 10;
    CHECK(written);
  }

  // The queue is still usable.
  q.submit([&](sycl::handler& h) {
     h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(4), [=](sycl::group<1> g) {
       sycl::private_memory<int> pm(g);
       g.parallel_for_work_item([&](sycl::h_item<1> it) { pm(it) = 1; });
       g.parallel_for_work_item([&](sycl::h_item<1> it) {
         if (it.get_local_id(0) == 0) out[g.get_group_id(0)] = pm(it) + 1;
       });
     });
   }).wait_and_throw();
  CHECK(out[0] == 2 && out[1] == 2);
  std::printf("expected: %s\n", message.c_str());

  sycl::free(saved, q);
  sycl::free(out, q);
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("hierarchical_errors: all passed\n");
  return 0;
}
