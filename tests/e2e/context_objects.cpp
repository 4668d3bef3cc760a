// SYCLONE_E2E_HOST_ONLY: checks the host CPU device itself (cpu selectors, cpu descriptors).
// SYCL 2020 4.6.3 context: every constructor, get_devices/get_platform/get_info, reference
// semantics (equality and hashing, 4.5.2) of context, queue and event, and queues built on an
// explicit context.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || (needle && !std::strstr(e.what(), needle))) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

bool same_devices(const std::vector<sycl::device>& a, const std::vector<sycl::device>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// A context works: a queue on it runs a kernel on USM of that context.
bool usable(const sycl::context& ctx) {
  sycl::queue q{ctx, ctx.get_devices().front()};
  int* p = sycl::malloc_shared<int>(4, q);
  if (!p) return false;
  q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) {
     p[i] = static_cast<int>(i[0]) * 3;
   }).wait();
  bool ok = p[0] == 0 && p[3] == 9;
  sycl::free(p, ctx);
  return ok;
}
} // namespace

int main() {
  sycl::device dev{sycl::cpu_selector_v};
  sycl::platform plt = dev.get_platform();
  auto handler = [](sycl::exception_list) {};

  sycl::context c_default;
  sycl::context c_handler{handler};
  sycl::context c_dev{dev};
  sycl::context c_dev_handler{dev, handler};
  sycl::context c_plt{plt};
  sycl::context c_plt_handler{plt, handler};
  sycl::context c_list{std::vector<sycl::device>{dev}};
  sycl::context c_list_handler{std::vector<sycl::device>{dev}, handler};

  for (const sycl::context* c : {&c_default, &c_handler, &c_dev, &c_dev_handler, &c_plt,
                                 &c_plt_handler, &c_list, &c_list_handler}) {
    CHECK(!c->get_devices().empty());
    CHECK(c->get_platform() == c->get_devices().front().get_platform());
    CHECK(c->get_info<sycl::info::context::platform>() == c->get_platform());
    CHECK(same_devices(c->get_info<sycl::info::context::devices>(), c->get_devices()));
    CHECK(c->get_backend() == c->get_devices().front().get_backend());
    CHECK(!c->get_info<sycl::info::context::atomic_memory_order_capabilities>().empty());
    CHECK(usable(*c));
  }
  CHECK(same_devices(c_dev.get_devices(), {dev}));
  CHECK(same_devices(c_list.get_devices(), {dev}));
  CHECK(same_devices(c_plt.get_devices(), plt.get_devices()));
  CHECK(c_dev.get_platform() == plt);
  CHECK(c_default.get_devices().front() == sycl::device());

  // A context needs devices.
  EXPECT_ERRC(sycl::errc::invalid, "at least one device",
              sycl::context(std::vector<sycl::device>{}));

  // Reference semantics: copies compare equal and hash alike; distinct contexts differ.
  sycl::context copy = c_dev;
  CHECK(copy == c_dev && !(copy != c_dev));
  CHECK(c_dev != c_list);
  CHECK(std::hash<sycl::context>{}(copy) == std::hash<sycl::context>{}(c_dev));
  std::unordered_set<sycl::context> contexts{c_dev, copy, c_list, c_plt};
  CHECK(contexts.size() == 3);
  sycl::context moved = std::move(copy);
  CHECK(moved == c_dev);

  // Queues: an explicit context is kept; queues on a device share the platform's default one.
  sycl::queue q1{c_dev, dev};
  CHECK(q1.get_context() == c_dev && q1.get_device() == dev);
  CHECK(q1.get_info<sycl::info::queue::context>() == c_dev);
  CHECK(q1.get_info<sycl::info::queue::device>() == dev);
  sycl::queue q2{c_dev, dev, sycl::property_list{sycl::property::queue::in_order{}}};
  CHECK(q2.is_in_order() && q2.get_context() == c_dev);
  sycl::queue q3{c_dev, sycl::cpu_selector_v, handler};
  CHECK(q3.get_context() == c_dev);
  sycl::queue q4{dev};
  sycl::queue q5{dev, handler};
  CHECK(q4.get_context() == q5.get_context());
  CHECK(q4.get_context() != c_dev);
  CHECK(q4.get_backend() == dev.get_backend());

  sycl::queue q1_copy = q1;
  CHECK(q1_copy == q1 && q1 != q2);
  CHECK(std::hash<sycl::queue>{}(q1_copy) == std::hash<sycl::queue>{}(q1));
  std::unordered_map<sycl::queue, int> per_queue;
  per_queue[q1] = 1;
  per_queue[q1_copy] += 1;
  per_queue[q2] = 5;
  CHECK(per_queue.size() == 2 && per_queue[q1] == 2);

  sycl::event e1 = q1.single_task([] {});
  sycl::event e1_copy = e1;
  sycl::event e2 = q1.single_task([] {});
  CHECK(e1 == e1_copy && e1 != e2);
  CHECK(std::hash<sycl::event>{}(e1) == std::hash<sycl::event>{}(e1_copy));
  std::unordered_set<sycl::event> events{e1, e1_copy, e2};
  CHECK(events.size() == 2);
  sycl::event::wait({e1, e2});

  // USM belongs to the context that allocated it.
  int* p = sycl::malloc_shared<int>(8, dev, c_dev);
  CHECK(p != nullptr);
  CHECK(sycl::get_pointer_type(p, c_dev) == sycl::usm::alloc::shared);
  CHECK(sycl::get_pointer_type(p, c_list) == sycl::usm::alloc::unknown);
  EXPECT_ERRC(sycl::errc::invalid, "not allocated", sycl::free(p, c_list));
  sycl::free(p, c_dev);

  if (g_failures) {
    std::printf("context_objects: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("context_objects: PASSED\n");
  return 0;
}
