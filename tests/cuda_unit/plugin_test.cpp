// Tests of the CUDA backend plugin (libsyclone-cuda.so) without a GPU: the plugin is loaded as the
// runtime loads it, against no driver or the fake libcuda.so.1 of fake_cuda.cpp (selected by
// LD_LIBRARY_PATH and FAKE_CUDA_MODE, one ctest entry per suite; see CMakeLists.txt).
#include "runtime/backend.hpp"

#include <sycl/detail/image.hpp>
#include <sycl/exception.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace rt = syclone::runtime;
using namespace std::chrono_literals;

void* plugin() {
  static void* lib = dlopen(SYCLONE_CUDA_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  return lib;
}

rt::platform* create(std::string& error, int abi = rt::backend_abi_version) {
  void* lib = plugin();
  if (!lib) {
    ADD_FAILURE() << "cannot load " << SYCLONE_CUDA_PLUGIN << ": " << dlerror();
    return nullptr;
  }
  auto fn = reinterpret_cast<rt::backend_create_fn>(dlsym(lib, "syclone_backend_create"));
  if (!fn) {
    ADD_FAILURE() << "no syclone_backend_create";
    return nullptr;
  }
  return fn(abi, &error);
}

// A hook of the fake driver (loaded by the plugin).
template <typename F>
F* fake(const char* name) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  F* f = lib ? reinterpret_cast<F*>(dlsym(lib, name)) : nullptr;
  if (!f) ADD_FAILURE() << "fake driver hook " << name << " missing";
  return f;
}

template <typename F>
std::string error_of(sycl::errc code, F f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

sycl::detail::mem_region flat(void* p, std::size_t bytes) {
  return sycl::detail::contiguous(p, 1, bytes);
}

// An image the kernel registry accepts; unregistered when the test ends.
struct registered_image {
  const char* names[1];
  syclone_image_descriptor descriptor{};
  registered_image(const char* target, const char* kernel, const unsigned char* data,
                   std::size_t size) {
    names[0] = kernel;
    descriptor.version = SYCLONE_IMAGE_DESCRIPTOR_VERSION;
    descriptor.kernel_count = 1;
    descriptor.target = target;
    descriptor.format = "llvm-bc";
    descriptor.data = data;
    descriptor.size = size;
    descriptor.kernel_names = names;
    __syclone_register_image(&descriptor);
  }
  ~registered_image() { __syclone_unregister_image(&descriptor); }
};

// --- Without a usable driver -------------------------------------------------------------------

TEST(no_driver, reports_missing_libcuda) {
  if (void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(h);
    GTEST_SKIP() << "this machine has a libcuda.so.1";
  }
  std::string error;
  EXPECT_EQ(create(error), nullptr);
  EXPECT_TRUE(contains(error, "libcuda.so.1 not found")) << error;
}

TEST(init_error, reports_cuinit) {
  std::string error;
  EXPECT_EQ(create(error), nullptr);
  EXPECT_EQ(error, "cuInit failed: no CUDA-capable device is detected (CUDA_ERROR_NO_DEVICE)");
}

TEST(no_device, reports_no_device) {
  std::string error;
  EXPECT_EQ(create(error), nullptr);
  EXPECT_EQ(error, "no CUDA device");
}

TEST(missing_symbol, names_the_function) {
  std::string error;
  EXPECT_EQ(create(error), nullptr);
  EXPECT_TRUE(contains(error, "libcuda.so.1 has no cuLaunchKernel")) << error;
}

// --- The fake H100 -----------------------------------------------------------------------------

class fake_gpu : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    std::string error;
    s_platform = create(error);
    ASSERT_NE(s_platform, nullptr) << error;
    ASSERT_EQ(s_platform->devices().size(), 1u);
    s_device = s_platform->devices()[0];
  }
  void TearDown() override {
    EXPECT_EQ(fake<int()>("fake_cuda_violations")(), 0)
        << "the backend called the driver without a current context";
  }
  static rt::platform* s_platform;
  static rt::device* s_device;
};
rt::platform* fake_gpu::s_platform = nullptr;
rt::device* fake_gpu::s_device = nullptr;

TEST_F(fake_gpu, plugin_exports_only_its_entry_point) {
  EXPECT_NE(dlsym(plugin(), "syclone_backend_create"), nullptr);
  EXPECT_EQ(dlsym(plugin(), "LLVMInitializeNVPTXTarget"), nullptr);
  EXPECT_EQ(dlsym(plugin(), "_ZN7syclone4cuda6driverEv"), nullptr);
}

TEST_F(fake_gpu, abi_mismatch) {
  std::string error;
  EXPECT_EQ(create(error, rt::backend_abi_version + 1), nullptr);
  EXPECT_TRUE(contains(error, "ABI")) << error;
}

TEST_F(fake_gpu, platform_and_device_properties) {
  EXPECT_EQ(s_platform->backend(), sycl::backend::ext_oneapi_cuda);
  EXPECT_EQ(s_platform->name(), "NVIDIA CUDA");
  EXPECT_EQ(s_platform->vendor(), "NVIDIA Corporation");
  EXPECT_EQ(s_platform->version(), "CUDA 13.0");
  const rt::device_properties& p = s_device->properties();
  EXPECT_EQ(s_device->backend(), sycl::backend::ext_oneapi_cuda);
  EXPECT_EQ(p.name, "Fake NVIDIA H100");
  EXPECT_EQ(p.vendor, "NVIDIA Corporation");
  EXPECT_EQ(p.vendor_id, 0x10deu);
  EXPECT_EQ(p.driver_version, "13.0");
  EXPECT_EQ(p.version, "sm_90");
  EXPECT_EQ(p.type, sycl::info::device_type::gpu);
  EXPECT_EQ(p.compute_units, 132u);
  EXPECT_EQ(p.clock_mhz, 1980u);
  EXPECT_EQ(p.max_work_group_size, 1024u);
  EXPECT_EQ(p.max_work_item_sizes[0], 64u);
  EXPECT_EQ(p.max_work_item_sizes[1], 1024u);
  EXPECT_EQ(p.max_work_item_sizes[2], 1024u);
  EXPECT_EQ(p.local_mem_size, 232448u);
  EXPECT_EQ(p.local_mem_type, sycl::info::local_mem_type::local);
  EXPECT_EQ(p.global_mem_size, 80ull << 30);
  EXPECT_EQ(p.global_mem_cache_size, 52428800u);
  EXPECT_EQ(p.sub_group_sizes, std::vector<std::size_t>{32});
  EXPECT_EQ(p.max_num_sub_groups, 32u);
  EXPECT_TRUE(p.sub_group_independent_forward_progress);
  for (auto a : {sycl::aspect::gpu, sycl::aspect::fp64, sycl::aspect::fp16, sycl::aspect::atomic64,
                 sycl::aspect::queue_profiling, sycl::aspect::usm_device_allocations,
                 sycl::aspect::usm_host_allocations, sycl::aspect::usm_shared_allocations,
                 sycl::aspect::usm_atomic_shared_allocations, sycl::aspect::image})
    EXPECT_NE(std::find(p.aspects.begin(), p.aspects.end(), a), p.aspects.end())
        << "aspect " << int(a);
  // The fake is a PCIe card without native host atomics (attribute 86 is 0): a kernel's atomics
  // on pinned host memory would not combine with the host's.
  EXPECT_EQ(
      std::find(p.aspects.begin(), p.aspects.end(), sycl::aspect::usm_atomic_host_allocations),
      p.aspects.end());
  EXPECT_EQ(std::find(p.aspects.begin(), p.aspects.end(), sycl::aspect::cpu), p.aspects.end());
  // sycl_ext_intel_device_info: what the fake driver tells (PCI bus 0xc1, an H100's HBM3).
  auto has = [&](sycl::aspect a) {
    return std::find(p.aspects.begin(), p.aspects.end(), a) != p.aspects.end();
  };
  EXPECT_TRUE(has(sycl::aspect::ext_intel_free_memory));
  EXPECT_TRUE(has(sycl::aspect::ext_intel_pci_address));
  EXPECT_EQ(p.pci_address, "0000:c1:00.0");
  EXPECT_TRUE(has(sycl::aspect::ext_intel_device_info_uuid));
  const std::array<unsigned char, 16> uuid = {0x5f, 0xa3, 0xc1, 0xd2, 0x0b, 0x4e, 0x4c, 0x6f,
                                              0x9a, 0x21, 0x7e, 0x8d, 0x3b, 0x2c, 0x1f, 0x00};
  EXPECT_EQ(p.uuid, uuid);
  EXPECT_TRUE(has(sycl::aspect::ext_intel_memory_clock_rate));
  EXPECT_EQ(p.memory_clock_mhz, 2619u);
  EXPECT_TRUE(has(sycl::aspect::ext_intel_memory_bus_width));
  EXPECT_EQ(p.memory_bus_width, 5120u);
  EXPECT_TRUE(has(sycl::aspect::ext_intel_max_mem_bandwidth));
  EXPECT_EQ(p.max_mem_bandwidth, 2ull * 2619000000ull * 5120 / 8); // 3.35 TB/s
  // No NVIDIA device at that address on this machine (the fake's GPU does not exist): no PCI
  // device id to report.
  EXPECT_FALSE(has(sycl::aspect::ext_intel_device_id));
  EXPECT_EQ(p.printf_buffer_size, 1u << 20); // cuCtxGetLimit(CU_LIMIT_PRINTF_FIFO_SIZE)
  for (auto a : {sycl::aspect::ext_intel_gpu_eu_count, sycl::aspect::ext_intel_gpu_slices,
                 sycl::aspect::ext_intel_fan_speed, sycl::aspect::ext_intel_power_limits})
    EXPECT_FALSE(has(a));
  EXPECT_EQ(std::find(p.aspects.begin(), p.aspects.end(), sycl::aspect::usm_system_allocations),
            p.aspects.end());
}

TEST_F(fake_gpu, usm_allocations) {
  auto live = fake<long()>("fake_cuda_live_allocations");
  long before = live();
  using sycl::usm::alloc;
  for (alloc kind : {alloc::device, alloc::host, alloc::shared})
    for (std::size_t align : {0, 1, 64, 256, 4096, 65536}) {
      void* p = s_device->allocate(1000, align, kind);
      ASSERT_NE(p, nullptr) << int(kind) << " " << align;
      if (align) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u);
      std::memset(p, 1, 1000); // the fake's memory is host memory
      s_device->deallocate(p, kind);
    }
  EXPECT_EQ(live(), before);
  EXPECT_EQ(s_device->allocate(1000, 3, alloc::device), nullptr); // not a power of two
  EXPECT_EQ(s_device->allocate(0, 0, alloc::device), nullptr);
  EXPECT_EQ(s_device->allocate(2ull << 30, 0, alloc::device), nullptr);   // driver: out of memory
  EXPECT_EQ(s_device->allocate(100ull << 30, 0, alloc::shared), nullptr); // more than is free
  EXPECT_EQ(live(), before);
  EXPECT_FALSE(s_device->host_accessible(alloc::device));
  EXPECT_TRUE(s_device->host_accessible(alloc::host));
  EXPECT_TRUE(s_device->host_accessible(alloc::shared));
}

// sycl_ext_intel_device_info free_memory: cuMemGetInfo in the device's context, on any thread;
// device and shared allocations take from it.
TEST_F(fake_gpu, free_memory) {
  std::uint64_t before = s_device->free_memory();
  EXPECT_LE(before, 79ull << 30); // the fake card: 80 GiB, 79 free before allocations
  EXPECT_GT(before, 78ull << 30);
  void* p = s_device->allocate(64 << 20, 0, sycl::usm::alloc::device);
  void* q = s_device->allocate(16 << 20, 0, sycl::usm::alloc::shared);
  ASSERT_NE(p, nullptr);
  ASSERT_NE(q, nullptr);
  std::uint64_t during = 0;
  std::thread([&] { during = s_device->free_memory(); }).join();
  EXPECT_EQ(during, before - (80u << 20));
  s_device->deallocate(p, sycl::usm::alloc::device);
  s_device->deallocate(q, sycl::usm::alloc::shared);
  EXPECT_EQ(s_device->free_memory(), before);
  // A failing driver call is an error naming it (the next call fails once).
  fake<int(const char*, long, int, int)>("fake_cuda_fail_call")("cuMemGetInfo_v2", 1, 1, 0);
  std::string message = error_of(sycl::errc::runtime, [] { s_device->free_memory(); });
  EXPECT_TRUE(contains(message, "cuMemGetInfo")) << message;
  EXPECT_EQ(s_device->free_memory(), before); // the next call works
}

TEST_F(fake_gpu, allocation_from_a_new_thread) {
  // The primary context must become current on threads the backend never saw.
  std::thread([&] {
    void* p = s_device->allocate(64, 0, sycl::usm::alloc::device);
    EXPECT_NE(p, nullptr);
    s_device->deallocate(p, sycl::usm::alloc::device);
  }).join();
}

TEST_F(fake_gpu, copies_and_fills) {
  auto stream = s_device->create_stream(true);
  std::vector<int> src(4096), dst(4096, -1);
  for (int i = 0; i < 4096; ++i) src[i] = i;
  auto* dev =
      static_cast<int*>(s_device->allocate(sizeof(int) * 4096, 0, sycl::usm::alloc::device));
  ASSERT_NE(dev, nullptr);
  auto e1 = stream->copy(flat(src.data(), 16384), flat(dev, 16384));
  ASSERT_NE(e1, nullptr);
  // A 2-D sub-range back: rows 2..5, columns 8..39 of a 64 x 64 array.
  sycl::detail::mem_region sub;
  sub.ptr = dev;
  sub.element_size = 4;
  sub.dimensions = 2;
  sub.mem[0] = sub.mem[1] = 64;
  sub.offset[0] = 2;
  sub.offset[1] = 8;
  sub.range[0] = 4;
  sub.range[1] = 32;
  auto e2 = stream->copy(sub, sycl::detail::contiguous(dst.data(), 4, 128));
  e2->wait();
  EXPECT_TRUE(e1->query());
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 32; ++c) ASSERT_EQ(dst[r * 32 + c], (2 + r) * 64 + 8 + c);

  // Fills of several pattern sizes, checked on the host.
  for (std::size_t size : {1, 2, 4, 8, 3, 12, 200}) {
    std::vector<unsigned char> pattern(size);
    for (std::size_t i = 0; i < size; ++i) pattern[i] = static_cast<unsigned char>(17 * i + 5);
    std::size_t count = 16384 / size;
    auto e = stream->fill(sycl::detail::contiguous(dev, size, count), pattern.data(), size);
    e->wait();
    const auto* bytes = reinterpret_cast<const unsigned char*>(dev);
    for (std::size_t i = 0; i < count * size; ++i)
      ASSERT_EQ(bytes[i], pattern[i % size]) << "pattern size " << size << " byte " << i;
  }
  stream.reset(); // frees staging buffers of the long pattern
  s_device->deallocate(dev, sycl::usm::alloc::device);
}

TEST_F(fake_gpu, events_complete_on_the_device_timeline) {
  auto stream = s_device->create_stream(true);
  std::vector<char> a(256), b(256);
  auto start = std::chrono::steady_clock::now();
  auto e = stream->copy(flat(a.data(), 256), flat(b.data(), 256));
  EXPECT_FALSE(e->query()); // FAKE_CUDA_LATENCY_US keeps it running for a while
  e->wait();
  EXPECT_TRUE(e->query());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 15ms);

  std::uint64_t t0 = 0, t1 = 0;
  ASSERT_TRUE(e->profile(t0, t1));
  auto start_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count());
  EXPECT_GE(t0, start_ns);
  EXPECT_GE(t1, t0);
  // The fake's operation lasts the latency (20 ms), give or take the calibration.
  EXPECT_NEAR(static_cast<double>(t1 - t0), 20e6, 5e6);
}

TEST_F(fake_gpu, notify_runs_after_completion_on_another_thread) {
  auto stream = s_device->create_stream(true);
  std::vector<char> a(256), b(256);
  auto e = stream->copy(flat(a.data(), 256), flat(b.data(), 256));
  std::promise<std::pair<bool, std::thread::id>> called;
  auto future = called.get_future();
  auto native = e;
  e->notify([native, &called](std::exception_ptr error) {
    called.set_value({native->query() && !error, std::this_thread::get_id()});
  });
  ASSERT_EQ(future.wait_for(2s), std::future_status::ready);
  auto [ok, thread] = future.get();
  EXPECT_TRUE(ok);
  EXPECT_NE(thread, std::this_thread::get_id());
  // Already complete: called at once.
  bool again = false;
  e->notify([&](std::exception_ptr error) { again = !error; });
  EXPECT_TRUE(again);
}

TEST_F(fake_gpu, streams_wait_for_each_other_on_the_device) {
  auto s1 = s_device->create_stream(true);
  auto s2 = s_device->create_stream(true);
  std::vector<char> a(64), b(64);
  auto e1 = s1->copy(flat(a.data(), 64), flat(b.data(), 64));
  EXPECT_TRUE(s2->wait_on_device(*e1));
  auto e2 = s2->copy(flat(b.data(), 64), flat(a.data(), 64));
  e2->wait();
  EXPECT_TRUE(e1->query()); // e2 ran after e1 on the device timeline

  struct other_event : rt::native_event {
    bool query() override { return true; }
    void wait() override {}
    void notify(std::function<void(std::exception_ptr)> fn) override { fn(nullptr); }
  } other;
  EXPECT_FALSE(s2->wait_on_device(other));
}

// Issue 16: a stream that does not profile enqueues without a lock. Threads sharing one stream
// all complete; an operation numbered n (stream_order) completed means every lower number did;
// each thread's own numbers grow; and a CUevent of an operation whose event is still held is
// never handed to a later operation (events and their CUevents are pooled).
TEST_F(fake_gpu, threads_enqueue_on_one_stream_without_a_lock) {
  auto set_latency = fake<void(long)>("fake_cuda_set_latency_us");
  set_latency(500);
  auto stream = s_device->create_stream(false);
  std::vector<char> a(64), b(64);
  auto held = stream->copy(flat(a.data(), 64), flat(b.data(), 64));
  const std::uint64_t held_order = held->stream_order();
  EXPECT_EQ(held_order, 1u); // alone on the stream
  void* held_handle = held->native_handle();
  ASSERT_NE(held_handle, nullptr);

  std::mutex m;
  std::vector<std::shared_ptr<rt::native_event>> all;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      std::vector<char> x(64), y(64);
      std::uint64_t last = 0;
      for (int k = 0; k < 10; ++k) {
        auto e = stream->copy(flat(x.data(), 64), flat(y.data(), 64));
        EXPECT_NE(e->native_handle(), held_handle);
        if (std::uint64_t n = e->stream_order()) {
          EXPECT_GT(n, last);
          last = n;
        }
        std::lock_guard lock(m);
        all.push_back(std::move(e));
      }
    });
  for (auto& th : threads) th.join();
  set_latency(-1);
  ASSERT_EQ(all.size(), 40u);
  // The newest numbered operation: waiting for it answers for every lower number.
  std::shared_ptr<rt::native_event> newest;
  for (auto& e : all)
    if (e->stream_order() && (!newest || e->stream_order() > newest->stream_order())) newest = e;
  if (newest) {
    newest->wait();
    for (auto& e : all)
      if (e->stream_order() && e->stream_order() < newest->stream_order()) EXPECT_TRUE(e->query());
  }
  for (auto& e : all) e->wait();
  all.clear(); // their events and CUevents go back to the pools
  for (int k = 0; k < 8; ++k) {
    auto e = stream->copy(flat(a.data(), 64), flat(b.data(), 64));
    EXPECT_NE(e->native_handle(), held_handle);
    EXPECT_NE(e.get(), held.get());
    e->wait();
  }
  EXPECT_TRUE(held->query());
  EXPECT_EQ(held->stream_order(), held_order);
  EXPECT_EQ(held->native_handle(), held_handle);
}

TEST_F(fake_gpu, kernel_missing_from_the_images) {
  auto stream = s_device->create_stream(true);
  sycl::detail::kernel_launch launch;
  launch.name = "_ZTS12never_built";
  std::string msg =
      error_of(sycl::errc::kernel_not_supported, [&] { stream->run_kernel(launch, 0); });
  EXPECT_EQ(msg, "kernel `_ZTS12never_built` was not compiled for nvptx64; rebuild with "
                 "-fsycl-targets=nvptx64");

  static const unsigned char spirv[4] = {0x03, 0x02, 0x23, 0x07};
  registered_image image("spirv64", "_ZTS9only_spir", spirv, sizeof spirv);
  launch.name = "_ZTS9only_spir";
  msg = error_of(sycl::errc::kernel_not_supported, [&] { stream->run_kernel(launch, 0); });
  EXPECT_EQ(msg, "kernel `_ZTS9only_spir` was not compiled for nvptx64 (only for spirv64); "
                 "rebuild with -fsycl-targets=nvptx64,spirv64");
}

TEST_F(fake_gpu, jit_failure_is_a_build_error) {
  auto stream = s_device->create_stream(true);
  static const unsigned char junk[16] = {'n', 'o', 't', ' ', 'b', 'i', 't', 'c', 'o', 'd', 'e'};
  registered_image image("nvptx64", "_ZTS6broken", junk, sizeof junk);
  sycl::detail::kernel_launch launch;
  launch.name = "_ZTS6broken";
  std::string msg = error_of(sycl::errc::build, [&] { stream->prepare_kernel_launch(launch, 0); });
  EXPECT_TRUE(contains(msg, "kernel `broken` cannot run on Fake NVIDIA H100 (sm_90): JIT "
                            "compilation of its device code failed"))
      << msg;
  EXPECT_TRUE(contains(msg, "file doesn't start with bitcode header")) << msg;
  // Remembered: launching (or preparing) again answers with the same error.
  EXPECT_EQ(error_of(sycl::errc::build, [&] { stream->run_kernel(launch, 0); }), msg);
}

// --- A failing context (last: the fake's error is sticky, as the driver's) ----------------------

TEST_F(fake_gpu, zz_device_fault_reaches_waiters_and_notifications) {
  auto stream = s_device->create_stream(true);
  std::vector<char> a(64), b(64);
  auto e1 = stream->copy(flat(a.data(), 64), flat(b.data(), 64));
  auto e2 = stream->copy(flat(b.data(), 64), flat(a.data(), 64));
  std::promise<std::exception_ptr> notified;
  e2->notify([&](std::exception_ptr error) { notified.set_value(error); });
  // A kernel fault while they run: the dispatcher's polling reports it.
  fake<void(int)>("fake_cuda_fail_context")(700);
  std::string msg = error_of(sycl::errc::runtime, [&] { e1->wait(); });
  EXPECT_TRUE(contains(msg, "copy of 64 bytes on Fake NVIDIA H100")) << msg;
  EXPECT_TRUE(contains(msg, "an illegal memory access was encountered "
                            "(CUDA_ERROR_ILLEGAL_ADDRESS)"))
      << msg;
  auto future = notified.get_future();
  ASSERT_EQ(future.wait_for(2s), std::future_status::ready);
  std::exception_ptr error = future.get();
  ASSERT_NE(error, nullptr);
  msg = error_of(sycl::errc::runtime, [&] { std::rethrow_exception(error); });
  EXPECT_TRUE(contains(msg, "CUDA_ERROR_ILLEGAL_ADDRESS")) << msg;
  EXPECT_TRUE(e2->query());
  std::uint64_t t0, t1;
  EXPECT_FALSE(e2->profile(t0, t1));
  // Later operations fail at once.
  msg =
      error_of(sycl::errc::runtime, [&] { stream->copy(flat(a.data(), 64), flat(b.data(), 64)); });
  EXPECT_TRUE(contains(msg, "CUDA_ERROR_ILLEGAL_ADDRESS")) << msg;
}

} // namespace
