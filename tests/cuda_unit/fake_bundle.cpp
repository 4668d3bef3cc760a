// Kernel bundles on the CUDA backend without a GPU: this program, built by syclone++ with nvptx64
// device code, runs against the fake libcuda.so.1 (tests/cuda_unit/fake_cuda.cpp), which loads
// modules and records launches but runs nothing. It checks what a GPU run cannot show:
// sycl::build JIT-compiles and loads the bundle's kernels with its specialization constant
// values folded into the PTX; a submission through handler::use_kernel_bundle loads nothing more;
// the same values set on the handler find the same compiled kernel; the info a kernel reports on
// the GPU; devices outside a context.
// Built a second time with -fsycl-targets=host (FAKE_BUNDLE_HOST_ONLY): then no kernel is
// compatible with the GPU.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
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
sycl::errc error_of(F f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    return static_cast<sycl::errc>(e.code().value());
  }
  return sycl::errc::success;
}

template <typename F>
F* hook(const char* name) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  F* f = lib ? reinterpret_cast<F*>(dlsym(lib, name)) : nullptr;
  if (!f) {
    std::printf("FAILED: fake driver hook %s missing (LD_LIBRARY_PATH?)\n", name);
    ++g_failures;
  }
  return f;
}
[[maybe_unused]] int module_loads() {
  auto* f = hook<int()>("fake_cuda_module_loads");
  return f ? f() : -1;
}
[[maybe_unused]] int launches() {
  auto* f = hook<int()>("fake_cuda_launches");
  return f ? f() : -1;
}
[[maybe_unused]] std::string last_ptx() {
  static char text[1 << 20];
  auto* f = hook<void(char*, std::size_t)>("fake_cuda_last_ptx");
  if (!f) return {};
  f(text, sizeof text);
  return text;
}
[[maybe_unused]] std::string last_launch_name() {
  struct {
    unsigned grid[3], block[3], shared;
    unsigned char params[512];
    char name[256];
  } l{};
  auto* f = hook<void(unsigned*, unsigned*, unsigned*, void*, char*)>("fake_cuda_last_launch");
  if (f) f(l.grid, l.block, &l.shared, l.params, l.name);
  return l.name;
}
} // namespace

class fill_kernel;
class other_kernel;

constexpr sycl::specialization_id<int> fill_value(1);
constexpr sycl::specialization_id<float> never_read(0.5f);

namespace {
void fill(sycl::queue& q, int* out, const sycl::kernel_bundle<sycl::bundle_state::executable>* kb,
          int handler_value = 0) {
  q.submit([&](sycl::handler& h) {
     if (kb) h.use_kernel_bundle(*kb);
     if (handler_value) {
       h.set_specialization_constant<fill_value>(handler_value);
       h.set_specialization_constant<never_read>(2.0f); // not read: must not matter
     }
     h.parallel_for<fill_kernel>(sycl::range<1>(256), [=](sycl::id<1> i, sycl::kernel_handler kh) {
       out[i] = kh.get_specialization_constant<fill_value>();
     });
   }).wait();
}
[[maybe_unused]] void other(sycl::queue& q, int* out) {
  q.single_task<other_kernel>([=] { out[0] = 5; }).wait();
}
} // namespace

int main() {
  sycl::device gpu;
  try {
    gpu = sycl::device(sycl::gpu_selector_v);
  } catch (const sycl::exception& e) {
    std::printf("FAILED: no fake GPU: %s\n", e.what());
    return 1;
  }
  sycl::device host(sycl::cpu_selector_v);
  sycl::context ctx(gpu);
  sycl::queue q(ctx, gpu);
  int* out = sycl::malloc_device<int>(256, q);
  sycl::kernel_id fill_id = sycl::get_kernel_id<fill_kernel>();

#ifdef FAKE_BUNDLE_HOST_ONLY
  // No nvptx64 code: nothing is compatible with the GPU (SYCL 2020 4.11.6, 4.11.8); the host
  // device still runs the kernels.
  CHECK(!sycl::is_compatible({fill_id}, gpu));
  CHECK(sycl::is_compatible({fill_id}, host));
  CHECK(error_of([&] { sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {fill_id}); }) ==
        sycl::errc::invalid);
  CHECK(!sycl::has_kernel_bundle<sycl::bundle_state::input>(ctx, {fill_id}));
  CHECK(sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx).empty());
  CHECK(error_of([&] { fill(q, out, nullptr); }) == sycl::errc::kernel_not_supported);
  sycl::context host_ctx(host);
  auto on_host = sycl::get_kernel_bundle<sycl::bundle_state::input>(host_ctx, {fill_id});
  CHECK(on_host.has_kernel(fill_id, host) && !on_host.has_kernel(fill_id, gpu));
  // The plugin recorded in the host compile which specialization constants fill reads.
  CHECK(on_host.contains_specialization_constants() &&
        on_host.has_specialization_constant<fill_value>() &&
        !on_host.has_specialization_constant<never_read>());
  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("fake_bundle (host-only build): OK\n");
  return 0;
#else
  // sycl::build compiles and loads: one module for the one kernel of the bundle.
  auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {fill_id});
  CHECK(input.native_specialization_constant());
  CHECK(input.has_specialization_constant<fill_value>());
  CHECK(!input.has_specialization_constant<never_read>());
  input.set_specialization_constant<fill_value>(123456);
  input.set_specialization_constant<never_read>(3.0f);
  int loads = module_loads();
  auto exe = sycl::build(input);
  CHECK(module_loads() == loads + 1);
  // The value is folded into the PTX: a constant store, no parameter read for it.
  std::string ptx = last_ptx();
  CHECK(ptx.find(".entry " + std::string(fill_id.get_name())) != std::string::npos);
  CHECK(ptx.find("123456") != std::string::npos);
  CHECK(ptx.find("__syclone_spec_constant") == std::string::npos);

  // Launching through the bundle compiles and loads nothing.
  int before = launches();
  loads = module_loads();
  fill(q, out, &exe);
  fill(q, out, &exe);
  CHECK(module_loads() == loads);
  CHECK(launches() == before + 2);
  CHECK(last_launch_name() == fill_id.get_name());
  // The same value set on the handler (plus one the kernel never reads) finds the same kernel.
  fill(q, out, nullptr, 123456);
  CHECK(module_loads() == loads);
  // Another value compiles another kernel, once.
  fill(q, out, nullptr, 7);
  CHECK(module_loads() == loads + 1);
  fill(q, out, nullptr, 7);
  CHECK(module_loads() == loads + 1);

  // compile then link: compile does the work, link finds it done.
  input.set_specialization_constant<fill_value>(99);
  loads = module_loads();
  auto obj = sycl::compile(input);
  CHECK(module_loads() == loads + 1);
  auto linked = sycl::link(obj);
  fill(q, out, &linked);
  CHECK(module_loads() == loads + 1);
  CHECK(last_ptx().find("99") != std::string::npos);

  // A kernel's info on the GPU: the fake says 768 threads per block and 24 bytes of local memory.
  sycl::kernel k = exe.get_kernel(fill_id);
  CHECK(k.get_info<sycl::info::kernel_device_specific::work_group_size>(gpu) == 768);
  CHECK(k.get_info<sycl::info::kernel_device_specific::preferred_work_group_size_multiple>(gpu) ==
        32);
  CHECK(k.get_info<sycl::info::kernel_device_specific::private_mem_size>(gpu) == 24);
  CHECK(k.get_info<sycl::info::kernel_device_specific::max_sub_group_size>(gpu) == 32);
  CHECK(k.get_info<sycl::info::kernel_device_specific::max_num_sub_groups>(gpu) == 24);
  // SYCL 2020: 0 for a kernel that requires no sub-group size.
  CHECK(k.get_info<sycl::info::kernel_device_specific::compile_sub_group_size>(gpu) == 0);
  CHECK(k.get_backend() == sycl::backend::ext_oneapi_cuda);

  // Devices outside the context: errc::invalid; incompatible kernel ids too.
  CHECK(error_of([&] { sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {host}); }) ==
        sycl::errc::invalid);
  CHECK(error_of([&] { sycl::has_kernel_bundle<sycl::bundle_state::input>(ctx, {host}); }) ==
        sycl::errc::invalid);
  CHECK(error_of([&] { sycl::build(input, {host}); }) == sycl::errc::invalid);
  other(q, out);
  CHECK(sycl::is_compatible<other_kernel>(gpu));

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("fake_bundle: OK\n");
  return 0;
#endif
}
