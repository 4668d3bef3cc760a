// The CUDA backend's kernel path without a GPU: this program, built by syclone++ with nvptx64
// device code, runs against the fake libcuda.so.1 (tests/cuda_unit/fake_cuda.cpp). Kernels do not
// run, but everything up to the launch does: the kernel registry, the JIT (with libdevice and
// specialization constants), the module, the launch shape, dynamic shared memory beyond 48 KiB
// and the parameter bytes; then USM copies and fills through the runtime, a buffer reduction's
// result read back on the kernel's stream, a hierarchical kernel's error slot, and a launch
// error delivered asynchronously.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

struct launch {
  unsigned grid[3], block[3], shared;
  unsigned char params[512];
  char name[256];
};

launch last_launch() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  using fn = void(unsigned*, unsigned*, unsigned*, void*, char*);
  auto* get = lib ? reinterpret_cast<fn*>(dlsym(lib, "fake_cuda_last_launch")) : nullptr;
  launch l{};
  if (!get) {
    std::printf("FAILED: the fake driver is not loaded (LD_LIBRARY_PATH?)\n");
    ++g_failures;
    return l;
  }
  get(l.grid, l.block, &l.shared, l.params, l.name);
  return l;
}

void param_bytes(std::size_t n) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (auto* set =
          lib ? reinterpret_cast<void (*)(std::size_t)>(dlsym(lib, "fake_cuda_set_param_size"))
              : nullptr)
    set(n);
}

int module_loads() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto* get = lib ? reinterpret_cast<int (*)()>(dlsym(lib, "fake_cuda_module_loads")) : nullptr;
  return get ? get() : -1;
}

template <typename Fn>
Fn* hook(const char* name) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto* fn = lib ? reinterpret_cast<Fn*>(dlsym(lib, name)) : nullptr;
  if (!fn) {
    std::printf("FAILED: the fake driver has no %s\n", name);
    ++g_failures;
  }
  return fn;
}

// A hierarchical kernel using its private_memory (the fake runs no kernel: the test plays the
// device's part and records a misuse in the kernel's error slot).
struct private_memory_kernel {
  int* out;
  void operator()(sycl::group<1> g) const {
    sycl::private_memory<int> pm(g);
    g.parallel_for_work_item([&](sycl::h_item<1> it) { pm(it) = 1; });
    g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = pm(it); });
  }
};

bool same(const unsigned* v, unsigned x, unsigned y, unsigned z) {
  return v[0] == x && v[1] == y && v[2] == z;
}
} // namespace

class range_kernel_name;
class nd_kernel_name;
class single_kernel_name;
class math_kernel_name;
class spec_kernel_name;
class too_big_name;
class readback_name;
class hierarchical_name;
class native_event_name;
class checked_again_name;
class root_sync_name;
class device_global_name;

sycl::ext::oneapi::experimental::device_global<int[2]> fake_dg;

constexpr sycl::specialization_id<int> trips(4);

int main() {
  sycl::queue q;
  try {
    q = sycl::queue(sycl::gpu_selector_v, [](sycl::exception_list errors) {
      for (auto& e : errors) std::rethrow_exception(e);
    });
  } catch (const sycl::exception& e) {
    std::printf("FAILED: no fake GPU: %s\n", e.what());
    return 1;
  }
  CHECK(q.get_device().get_info<sycl::info::device::name>() == "Fake NVIDIA H100");
  CHECK(q.get_device().get_backend() == sycl::backend::ext_oneapi_cuda);

  int* data = sycl::malloc_device<int>(4096, q);
  CHECK(data != nullptr);

  // A range kernel: the kernel object starts with the range; the fake's occupancy answer (768)
  // capped to 256 and spread over 132 SMs gives 16 blocks of 64.
  param_bytes(sizeof(sycl::range<1>));
  auto range_launch = [&](std::size_t n) {
    q.parallel_for<range_kernel_name>(sycl::range<1>(n), [=](sycl::id<1> i) {
       data[i] = static_cast<int>(i[0]);
     }).wait();
  };
  range_launch(1000);
  launch l = last_launch();
  CHECK(std::string(l.name) == __builtin_sycl_unique_stable_name(range_kernel_name));
  CHECK(same(l.grid, 16, 1, 1));
  CHECK(same(l.block, 64, 1, 1));
  CHECK(l.shared == 0);
  sycl::range<1> r0;
  std::memcpy(&r0, l.params, sizeof r0);
  CHECK(r0[0] == 1000);

  // The same kernel with another range, then the first again: each launch gets the shape of its
  // own range (a thread remembers the plans of its last launches by shape, issue 16). 4096
  // items: 256-item blocks halved while fewer blocks than SMs, down to 64 blocks of 64.
  for (std::size_t n : {std::size_t(4096), std::size_t(1000)}) {
    range_launch(n);
    l = last_launch();
    CHECK(same(l.grid, n == 4096 ? 64 : 16, 1, 1));
    CHECK(same(l.block, 64, 1, 1));
    std::memcpy(&r0, l.params, sizeof r0);
    CHECK(r0[0] == n);
  }

  // An nd_range kernel with 64 KiB of local memory: opted in beyond 48 KiB.
  auto nd_launch = [&](std::size_t floats) {
    q.submit([&](sycl::handler& h) {
       sycl::local_accessor<float, 1> scratch(sycl::range<1>(floats), h);
       h.parallel_for<nd_kernel_name>(
           sycl::nd_range<2>({64, 128}, {8, 32}), [=](sycl::nd_item<2> it) {
             scratch[it.get_local_linear_id()] = 1.0f;
             sycl::group_barrier(it.get_group());
             data[it.get_global_linear_id()] = static_cast<int>(scratch[0]);
           });
     }).wait();
  };
  nd_launch(16384);
  l = last_launch();
  CHECK(std::string(l.name) == __builtin_sycl_unique_stable_name(nd_kernel_name));
  CHECK(same(l.block, 32, 8, 1));
  CHECK(same(l.grid, 4, 8, 1));
  CHECK(l.shared >= 65536);
  // Again with less local memory: the launch asks for what this one needs.
  nd_launch(1024);
  l = last_launch();
  CHECK(same(l.block, 32, 8, 1) && same(l.grid, 4, 8, 1));
  CHECK(l.shared >= 4096 && l.shared < 65536);

  q.single_task<single_kernel_name>([=] { data[0] = 42; }).wait();
  l = last_launch();
  CHECK(same(l.grid, 1, 1, 1) && same(l.block, 1, 1, 1));

  // Math through libdevice, and a specialization constant folded in by the JIT.
  float* f = sycl::malloc_device<float>(256, q);
  q.parallel_for<math_kernel_name>(sycl::range<1>(256), [=](sycl::id<1> i) {
     f[i] = sycl::sin(static_cast<float>(i[0])) + sycl::exp(0.5f);
   }).wait();
  CHECK(std::string(last_launch().name) == __builtin_sycl_unique_stable_name(math_kernel_name));
  // One kernel, launched with values (the kernel cache's full lookup) and without (its
  // per-thread path).
  auto spec_launch = [&](std::optional<int> value) {
    q.submit([&](sycl::handler& h) {
       if (value) h.set_specialization_constant<trips>(*value);
       h.parallel_for<spec_kernel_name>(
           sycl::range<1>(256), [=](sycl::id<1> i, sycl::kernel_handler kh) {
             float acc = 0;
             for (int t = 0; t < kh.get_specialization_constant<trips>(); ++t) acc += f[i] * t;
             f[i] = acc;
           });
     }).wait();
  };
  for (int value : {3, 5, 3}) {
    spec_launch(value);
    CHECK(std::string(last_launch().name) == __builtin_sycl_unique_stable_name(spec_kernel_name));
  }
  // The defaults get their own function once; switching back and forth between them and the
  // values loads nothing more.
  const int loads = module_loads();
  spec_launch(std::nullopt);
  CHECK(module_loads() == loads + 1);
  for (std::optional<int> value :
       {std::optional<int>(), std::optional<int>(5), std::optional<int>(), std::optional<int>(3)})
    spec_launch(value);
  CHECK(module_loads() == loads + 1);
  spec_launch(7);
  CHECK(module_loads() == loads + 2);
  spec_launch(std::nullopt);
  CHECK(module_loads() == loads + 2);

  // USM copies and fills through the runtime (the fake's device memory is host memory).
  std::vector<int> host(4096);
  for (int i = 0; i < 4096; ++i) host[i] = 3 * i;
  q.memcpy(data, host.data(), 4096 * sizeof(int)).wait();
  std::vector<int> back(4096, 0);
  q.memcpy(back.data(), data, 4096 * sizeof(int)).wait();
  CHECK(back == host);
  q.fill(data, 7, 4096).wait();
  q.memcpy(back.data(), data, 4096 * sizeof(int)).wait();
  bool filled = true;
  for (int v : back) filled = filled && v == 7;
  CHECK(filled);
  double* d = sycl::malloc_device<double>(1000, q);
  q.fill(d, 2.5, 1000).wait();
  std::vector<double> dback(1000);
  q.memcpy(dback.data(), d, 1000 * sizeof(double)).wait();
  bool dfilled = true;
  for (double v : dback) dfilled = dfilled && v == 2.5;
  CHECK(dfilled);

  // A buffer reduction read back by a host accessor (BabelStream's accessor dot): the copy to
  // the host goes on the kernel's stream, right behind it, not on another stream after waiting.
  {
    // The kernel "runs" for 100 ms, so that it still runs when the host accessor comes.
    auto* set_latency = hook<void(long)>("fake_cuda_set_latency_us");
    sycl::buffer<double> sum{sycl::range<1>(1)};
    if (set_latency) set_latency(100000);
    q.submit([&](sycl::handler& h) {
      h.parallel_for<readback_name>(
          sycl::range<1>(1000),
          sycl::reduction(sum, h, sycl::plus<double>(),
                          sycl::property::reduction::initialize_to_identity{}),
          [=](sycl::id<1> i, auto& s) { s += static_cast<double>(i[0]); });
    });
    if (set_latency) set_latency(0);
    auto* small_copies = hook<int()>("fake_cuda_small_copies");
    int before = small_copies ? small_copies() : 0;
    auto* log_ops = hook<void(int)>("fake_cuda_log_ops");
    auto* ops = hook<int(char*, unsigned*, std::size_t*, int)>("fake_cuda_ops");
    if (log_ops) log_ops(1);
    {
      sycl::host_accessor result(sum, sycl::read_only);
    }
    // The kernel wrote the result to the buffer's pinned mirror too: no copy, no copy kernel.
    CHECK(small_copies && small_copies() == before);
    char kinds[8];
    unsigned words[8];
    std::size_t threads[8];
    CHECK(ops && ops(kinds, words, threads, 8) == 0);
    if (log_ops) log_ops(0);
  }
  // The same for values (the fake runs copies, not kernels): a buffer a copy command wrote on the
  // device is read back through pinned staging memory, whole.
  {
    auto* set_latency = hook<void(long)>("fake_cuda_set_latency_us");
    int src[5] = {11, 22, 33, 44, 55};
    sycl::buffer<int> small{sycl::range<1>(5)};
    if (set_latency) set_latency(100000);
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(small, h, sycl::write_only, sycl::no_init);
      h.copy(src, a);
    });
    if (set_latency) set_latency(0);
    auto* small_copies = hook<int()>("fake_cuda_small_copies");
    int before = small_copies ? small_copies() : 0;
    sycl::host_accessor back_small(small, sycl::read_only);
    // By syclone's copy kernel (cuda_device.cpp), not the copy engine, on the stream of the
    // command that wrote the buffer, right behind it.
    CHECK(small_copies && small_copies() == before + 1);
    auto* same_stream = hook<int()>("fake_cuda_copy_kernel_on_memcpy_stream");
    CHECK(same_stream && same_stream());
    bool whole = true;
    for (int i = 0; i < 5; ++i) whole = whole && back_small[i] == src[i];
    CHECK(whole);
  }

  // SYCL 2020 4.10.7.3 on a GPU: a hierarchical kernel carries an error slot; a misuse the device
  // records there is reported when the kernel completed, as the host reports it (errc::invalid,
  // asynchronously), and the queue stays usable.
  {
    using object_t = sycl::detail::hierarchical_kernel<1, private_memory_kernel>;
    object_t layout{sycl::range<1>(), sycl::range<1>(), private_memory_kernel{data}, nullptr, {}};
    std::size_t slot_at = static_cast<std::size_t>(reinterpret_cast<char*>(&layout.m_error_slot) -
                                                   reinterpret_cast<char*>(&layout));
    param_bytes(sizeof(object_t));
    auto* set_latency = hook<void(long)>("fake_cuda_set_latency_us");
    auto* launches = hook<int()>("fake_cuda_launches");
    auto run = [&](bool misuse) {
      if (!set_latency || !launches) return std::string("no hooks");
      // The kernel "runs" for a second: the slot is written long before it completes.
      set_latency(1000000);
      int before = launches();
      q.submit([&](sycl::handler& h) {
        h.parallel_for_work_group<hierarchical_name>(sycl::range<1>(2), sycl::range<1>(4),
                                                     private_memory_kernel{data});
      });
      for (int spins = 0; launches() == before && spins < 10000; ++spins)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      CHECK(launches() != before);
      set_latency(0);
      launch hl = last_launch();
      std::uint64_t* slot = nullptr;
      std::memcpy(&slot, hl.params + slot_at, sizeof slot);
      CHECK(slot != nullptr);
      // What detail::dev::hierarchical_report_misuse stores: work-group 0 used work-group 1's.
      if (slot && misuse) __atomic_store_n(slot, (std::uint64_t(0) << 32) | 1, __ATOMIC_RELEASE);
      try {
        q.wait_and_throw();
      } catch (const sycl::exception& e) {
        return std::string(e.code() == sycl::errc::invalid ? "invalid: " : "other: ") + e.what();
      }
      return std::string();
    };
    std::string error = run(true);
    CHECK(error.find("invalid: private_memory") == 0);
    CHECK(error.find("work-group 0") != std::string::npos &&
          error.find("created in work-group 1") != std::string::npos);
    if (error.find("invalid: private_memory") != 0) std::printf("got: %s\n", error.c_str());
    // Usable afterwards, and a slot taken again starts clean.
    CHECK(run(false).empty());
    CHECK(run(false).empty());
    param_bytes(sizeof(sycl::range<1>));
  }

  // A work-group larger than the kernel allows (the fake says 768): an asynchronous nd_range
  // error naming the limit.
  bool thrown = false;
  try {
    q.parallel_for<too_big_name>(sycl::nd_range<1>(1024, 1024),
                                 [=](sycl::nd_item<1> it) { data[it.get_global_linear_id()] = 1; });
    q.wait_and_throw();
  } catch (const sycl::exception& e) {
    thrown = e.code() == sycl::errc::nd_range && std::strstr(e.what(), "768") != nullptr;
    if (!thrown) std::printf("unexpected: %s\n", e.what());
  }
  CHECK(thrown);

  // A kernel's completion event keeps its native handle once complete (it was dropped at
  // completion before, so get_native raced with the kernel and gave null after a wait).
  {
    sycl::event e = q.single_task<native_event_name>([=] { data[0] = 7; });
    CUevent before = sycl::get_native<sycl::backend::ext_oneapi_cuda>(e);
    e.wait();
    CUevent after = sycl::get_native<sycl::backend::ext_oneapi_cuda>(e);
    CHECK(before != nullptr);
    CHECK(after == before);
  }

  // The checks of a submission are remembered per thread, queue and launch shape (queue.cpp
  // check_command): a shape that failed fails again, one that passed still launches, and the
  // same shape on another queue is checked for that queue.
  {
    auto submit = [&](sycl::queue& on, std::size_t local) {
      try {
        on.parallel_for<checked_again_name>(
            sycl::nd_range<1>(local * 2, local),
            [=](sycl::nd_item<1> it) { data[it.get_global_linear_id()] = 3; });
        on.wait_and_throw();
        return std::string();
      } catch (const sycl::exception& e) {
        return std::string(e.what());
      }
    };
    sycl::queue other{q.get_device(), sycl::property::queue::in_order{}};
    auto* launches = hook<int()>("fake_cuda_launches");
    CHECK(launches != nullptr);
    for (int round = 0; launches && round < 3; ++round) {
      int launched = launches();
      CHECK(submit(q, 64).empty());
      CHECK(launches() == launched + 1);
      CHECK(submit(q, 1024).find("768") != std::string::npos);
      CHECK(launches() == launched + 1);
      CHECK(submit(other, 64).empty());
      CHECK(submit(other, 1024).find("768") != std::string::npos);
      CHECK(launches() == launched + 2);
    }
  }

  // sycl_ext_oneapi_root_group: max_num_work_groups is the occupancy calculator's blocks per
  // multiprocessor times the multiprocessors (the fake: 2048 threads each, 132 of them), a
  // use_root_sync launch within it is a cooperative launch, one beyond it throws errc::nd_range
  // at submission and launches nothing.
  {
    namespace syclex = sycl::ext::oneapi::experimental;
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    sycl::kernel k = bundle.get_kernel<root_sync_name>();
    const std::size_t most =
        k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
            q, sycl::range<1>(256), 0);
    CHECK(most == 8 * 132);
    CHECK((k.ext_oneapi_get_info<syclex::info::kernel_queue_specific::max_num_work_groups>(
              q, sycl::range<1>(256), 100000)) == 2 * 132);
    auto submit_root = [&](std::size_t groups) {
      return q.parallel_for<root_sync_name>(sycl::nd_range<1>(groups * 256, 256),
                                            syclex::properties{syclex::use_root_sync},
                                            [=](sycl::nd_item<1> it) {
                                              sycl::group_barrier(it.ext_oneapi_get_root_group());
                                              data[it.get_global_linear_id() % 4] = 1;
                                            });
    };
    submit_root(most).wait();
    launch l = last_launch();
    CHECK(l.grid[0] == most && l.block[0] == 256);
    auto* cooperative = hook<bool()>("fake_cuda_last_launch_cooperative");
    CHECK(cooperative && cooperative());
    auto* launches = hook<int()>("fake_cuda_launches");
    const int before = launches ? launches() : 0;
    bool too_many = false;
    try {
      submit_root(most + 1);
    } catch (const sycl::exception& e) {
      too_many = e.code() == sycl::errc::nd_range &&
                 std::string(e.what()).find("use_root_sync") != std::string::npos;
    }
    CHECK(too_many);
    CHECK(!launches || launches() == before);
    // An ordinary launch of the same shape is not cooperative.
    q.parallel_for(sycl::nd_range<1>(256, 256), [=](sycl::nd_item<1> it) {
       data[it.get_global_linear_id() % 4] = 2;
     }).wait();
    CHECK(cooperative && !cooperative());
  }

  // sycl_ext_oneapi_device_global: the JIT's module points at the device's instance (the fake's
  // memory is the host's, so the test reads it), which queue::memcpy and copy reach too.
  {
    const int two[2] = {77, 88};
    q.memcpy(fake_dg, two).wait();
    q.single_task<device_global_name>([=] { data[0] = fake_dg[0] + fake_dg[1]; }).wait();
    auto* global = hook<std::uint64_t(const char*)>("fake_cuda_module_global");
    const auto* instance =
        global ? reinterpret_cast<const int*>(global("__syclone_dgp_8_fake_dg")) : nullptr;
    CHECK(instance != nullptr);
    if (instance) CHECK(instance[0] == 77 && instance[1] == 88);
    int back[2] = {};
    q.copy(fake_dg, back, 1, 1).wait();
    CHECK(back[0] == 88);
  }

  sycl::free(d, q);
  sycl::free(f, q);
  sycl::free(data, q);
  if (g_failures) return 1;
  std::printf("fake_launch: OK\n");
  return 0;
}
