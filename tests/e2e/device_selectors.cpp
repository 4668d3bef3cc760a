// SYCLONE_E2E_HOST_ONLY: checks the host CPU device itself (cpu selectors, cpu descriptors).
// SYCL 2020 4.6.1.1 device selectors: the standard selectors, aspect_selector in its three forms,
// user-written selectors, and the error when no device qualifies (errc::runtime).
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Runs f, which must throw sycl::exception with `code` and a message containing `needle`.
template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code) {
      std::printf("FAILED line %d: errc %d, expected %d (%s)\n", line, e.code().value(),
                  static_cast<int>(code), e.what());
      ++g_failures;
    } else if (needle && !std::strstr(e.what(), needle)) {
      std::printf("FAILED line %d: message \"%s\" lacks \"%s\"\n", line, e.what(), needle);
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

int prefers_cpu(const sycl::device& d) {
  return d.is_cpu() ? 10 : -1;
}
} // namespace

int main() {
  using sycl::aspect;
  const bool have_gpu = !sycl::device::get_devices(sycl::info::device_type::gpu).empty();

  // default_selector_v: a GPU where there is one, else the host CPU.
  sycl::device def{sycl::default_selector_v};
  CHECK(have_gpu ? def.is_gpu() : def.is_cpu());
  CHECK(sycl::device() == def);
  CHECK(sycl::queue().get_device() == def);
  CHECK(sycl::queue(sycl::default_selector_v).get_device() == def);

  sycl::device cpu{sycl::cpu_selector_v};
  CHECK(cpu.is_cpu());
  CHECK(sycl::queue(sycl::cpu_selector_v).get_device() == cpu);
  CHECK(sycl::platform(sycl::cpu_selector_v) == cpu.get_platform());

  if (have_gpu) {
    CHECK(sycl::device(sycl::gpu_selector_v).is_gpu());
  } else {
    // No GPU here: the selector rejects every device and the error lists what exists.
    EXPECT_ERRC(sycl::errc::runtime, "no device satisfies", sycl::device{sycl::gpu_selector_v});
    EXPECT_ERRC(sycl::errc::runtime, cpu.get_info<sycl::info::device::name>().c_str(),
                sycl::device{sycl::gpu_selector_v});
    EXPECT_ERRC(sycl::errc::runtime, nullptr, sycl::queue{sycl::gpu_selector_v});
    EXPECT_ERRC(sycl::errc::runtime, nullptr, sycl::platform{sycl::gpu_selector_v});
  }
  EXPECT_ERRC(sycl::errc::runtime, nullptr, sycl::device{sycl::accelerator_selector_v});

  // aspect_selector, form 1: vectors of required and denied aspects.
  CHECK(sycl::device(sycl::aspect_selector(std::vector<aspect>{aspect::cpu})).is_cpu());
  CHECK(sycl::device(sycl::aspect_selector(std::vector<aspect>{aspect::usm_shared_allocations},
                                           std::vector<aspect>{aspect::gpu}))
            .is_cpu());
  EXPECT_ERRC(sycl::errc::runtime, nullptr,
              sycl::device(sycl::aspect_selector(std::vector<aspect>{aspect::cpu},
                                                 std::vector<aspect>{aspect::cpu})));
  // Form 2: a variadic list of aspects.
  CHECK(sycl::device(sycl::aspect_selector(aspect::cpu, aspect::fp64)).is_cpu());
  CHECK(sycl::device(sycl::aspect_selector(aspect::usm_device_allocations))
            .has(aspect::usm_device_allocations));
  EXPECT_ERRC(sycl::errc::runtime, nullptr,
              sycl::device(sycl::aspect_selector(aspect::cpu, aspect::gpu)));
  // Form 3: aspects as template arguments.
  CHECK(sycl::device(sycl::aspect_selector<aspect::cpu>()).is_cpu());
  CHECK(sycl::device(sycl::aspect_selector<aspect::cpu, aspect::queue_profiling>()).is_cpu());
  EXPECT_ERRC(sycl::errc::runtime, nullptr,
              sycl::device(sycl::aspect_selector<aspect::accelerator>()));
  // No required aspect: every device qualifies, ranked as default_selector_v ranks them.
  CHECK(sycl::device(sycl::aspect_selector(std::vector<aspect>{})) == def);

  // User selectors: functions, lambdas and function objects.
  CHECK(sycl::device(prefers_cpu).is_cpu());
  CHECK(sycl::device([](const sycl::device& d) { return d.is_cpu() ? 1 : 0; }).is_cpu());
  struct by_name {
    int operator()(const sycl::device& d) const {
      return d.get_info<sycl::info::device::name>().empty() ? -1 : 1;
    }
  };
  CHECK(sycl::device(by_name{}) == sycl::device(by_name{}));
  EXPECT_ERRC(sycl::errc::runtime, nullptr, sycl::device([](const sycl::device&) { return -1; }));

  // A queue built from a selector and an explicit context picks among the context's devices.
  sycl::context ctx{cpu};
  sycl::queue q{ctx, sycl::cpu_selector_v};
  CHECK(q.get_device() == cpu && q.get_context() == ctx);
  EXPECT_ERRC(sycl::errc::runtime, "rejected every device",
              sycl::queue(ctx, [](const sycl::device&) { return -1; }));

  // The selected queue works.
  int* v = sycl::malloc_shared<int>(1, q);
  q.single_task([=] { *v = 42; }).wait();
  CHECK(*v == 42);
  sycl::free(v, q);

  if (g_failures) {
    std::printf("device_selectors: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("device_selectors: PASSED\n");
  return 0;
}
