// SYCL 2020 4.5.1 backend interoperability on whatever device the queue has: get_backend() of
// every object, get_native / make_* round trips on the CUDA backend (README "Backend
// interoperability"), errc::backend_mismatch for objects of another backend, errc::invalid for
// handles that are none; interop_handle in host tasks and native commands
// (sycl_ext_oneapi_enqueue_native_command) run in the queue's order; sycl_ext_oneapi_peer_access
// answers for a device and itself. cuda_interop.cpp calls cuBLAS through all this on a GPU.
#include <sycl/sycl.hpp>

#include <cstdio>
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
bool throws(sycl::errc code, F&& f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    if (e.code() == code) return true;
    std::printf("  threw %s: %s\n", e.code().message().c_str(), e.what());
    return false;
  }
  return false;
}

// The names code written for DPC++ and for AdaptiveCpp uses.
static_assert(sycl::backend::cuda == sycl::backend::ext_oneapi_cuda);
static_assert(SYCL_EXT_ONEAPI_BACKEND_CUDA == 1);
static_assert(
    std::is_same_v<sycl::backend_return_t<sycl::backend::ext_oneapi_cuda, sycl::device>, CUdevice>);
// A context: one CUcontext per device out, one in (Khronos's draft CUDA backend specification).
static_assert(std::is_same_v<sycl::backend_return_t<sycl::backend::ext_oneapi_cuda, sycl::context>,
                             std::vector<CUcontext>>);
static_assert(std::is_same_v<sycl::backend_input_t<sycl::backend::ext_oneapi_cuda, sycl::context>,
                             CUcontext>);
static_assert(
    std::is_same_v<sycl::backend_return_t<sycl::backend::ext_oneapi_cuda, sycl::queue>, CUstream>);
static_assert(
    std::is_same_v<sycl::backend_return_t<sycl::backend::ext_oneapi_cuda, sycl::event>, CUevent>);
static_assert(
    std::is_same_v<sycl::backend_return_t<sycl::backend::ext_oneapi_cuda, sycl::buffer<float, 2>>,
                   void*>);
static_assert(std::is_same_v<sycl::backend_input_t<sycl::backend::ext_oneapi_cuda, sycl::platform>,
                             std::vector<CUdevice>>);

void test_backends_agree(sycl::queue& q) {
  sycl::backend b = q.get_backend();
  CHECK(q.get_device().get_backend() == b);
  CHECK(q.get_device().get_platform().get_backend() == b);
  CHECK(q.get_context().get_backend() == b);
  sycl::event e = q.single_task([] {});
  e.wait();
  CHECK(e.get_backend() == b);
  q.submit([&](sycl::handler& h) {
     h.host_task([&](sycl::interop_handle ih) { CHECK(ih.get_backend() == b); });
   }).wait();
}

void test_cuda_handles(sycl::queue& q) {
  constexpr auto cuda = sycl::backend::ext_oneapi_cuda;
  sycl::device dev = q.get_device();
  CUdevice native_dev = sycl::get_native<cuda>(dev);
  CHECK(sycl::make_device<cuda>(native_dev) == dev);
  std::vector<CUdevice> all = sycl::get_native<cuda>(dev.get_platform());
  CHECK(all.size() == dev.get_platform().get_devices().size());
  CHECK(sycl::make_platform<cuda>(all) == dev.get_platform());

  // One CUDA context per device of the SYCL context (the draft CUDA backend specification).
  std::vector<CUcontext> native_ctxs = sycl::get_native<cuda>(q.get_context());
  CHECK(native_ctxs.size() == q.get_context().get_devices().size());
  CUcontext native_ctx = native_ctxs.at(0);
  CHECK(native_ctx != nullptr);
  sycl::context again = sycl::make_context<cuda>(native_ctx);
  CHECK(again.get_devices().size() == 1 && again.get_devices()[0] == dev);

  CUstream stream = sycl::get_native<cuda>(q);
  CHECK(stream != nullptr);
  // A queue over the SYCL queue's own stream runs in its order.
  sycl::queue adopted = sycl::make_queue<cuda>(stream, q.get_context());
  CHECK(adopted.get_device() == dev);
  CHECK(sycl::get_native<cuda>(adopted) == stream);
  int* p = sycl::malloc_device<int>(1, q);
  q.single_task([=] { *p = 41; });
  adopted.single_task([=] { *p += 1; });
  int host = 0;
  adopted.memcpy(&host, p, sizeof(int)).wait();
  CHECK(host == 42);

  sycl::event k = q.single_task([=] { *p += 1; });
  CUevent native_ev = sycl::get_native<cuda>(k);
  CHECK(native_ev != nullptr);
  // An event made from it completes when the kernel does.
  sycl::event made = sycl::make_event<cuda>(native_ev, q.get_context());
  made.wait();
  // The handle stays the event's once the kernel completed.
  k.wait();
  CHECK(sycl::get_native<cuda>(k) == native_ev);
  q.memcpy(&host, p, sizeof(int)).wait();
  CHECK(host == 43);
  sycl::free(p, q);

  // A buffer used on the GPU: get_native gives its device memory, up to date.
  sycl::buffer<int> buf{sycl::range<1>(4)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(buf, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { a[i] = int(i[0]) * 3; });
  });
  void* mem = sycl::get_native<cuda>(buf);
  CHECK(mem != nullptr);
  int back[4] = {};
  q.memcpy(back, mem, sizeof back).wait();
  CHECK(back[0] == 0 && back[3] == 9);

  CHECK(throws(sycl::errc::invalid, [] { sycl::make_device<cuda>(100000); }));
  // (A handle that is no context at all is the driver's to reject: syclone asks it, and CUDA
  // does not promise to survive arbitrary handles; cuda_unit.fake_interop checks the answer.)
  CHECK(throws(sycl::errc::invalid, [] { sycl::make_context<cuda>(nullptr); }));
  CHECK(throws(sycl::errc::invalid, [&] { sycl::make_queue<cuda>(nullptr, q.get_context()); }));
  CHECK(throws(sycl::errc::invalid, [&] { sycl::make_event<cuda>(nullptr, q.get_context()); }));
}

void test_host_handles(sycl::queue& q) {
  constexpr auto cuda = sycl::backend::ext_oneapi_cuda;
  CHECK(
      throws(sycl::errc::backend_mismatch, [&] { (void)sycl::get_native<cuda>(q.get_device()); }));
  CHECK(throws(sycl::errc::backend_mismatch, [&] { (void)sycl::get_native<cuda>(q); }));
  CHECK(
      throws(sycl::errc::backend_mismatch, [&] { (void)sycl::get_native<cuda>(q.get_context()); }));
  CHECK(throws(sycl::errc::backend_mismatch,
               [&] { (void)sycl::get_native<cuda>(q.get_device().get_platform()); }));
  sycl::event e = q.single_task([] {});
  CHECK(throws(sycl::errc::backend_mismatch, [&] { (void)sycl::get_native<cuda>(e); }));
  bool mismatch_queue = false, mismatch_mem = false, mismatch_dev = false;
  sycl::buffer<int> buf{sycl::range<1>(1)};
  q.submit([&](sycl::handler& h) {
     sycl::accessor a(buf, h, sycl::read_write);
     h.host_task([&, a](sycl::interop_handle ih) {
       mismatch_queue = throws(sycl::errc::backend_mismatch, [&] { ih.get_native_queue<cuda>(); });
       mismatch_mem = throws(sycl::errc::backend_mismatch, [&] { ih.get_native_mem<cuda>(a); });
       mismatch_dev = throws(sycl::errc::backend_mismatch, [&] { ih.get_native_device<cuda>(); });
     });
   }).wait();
  CHECK(mismatch_queue && mismatch_mem && mismatch_dev);
  // Whoever has no CUDA device gets errc::invalid for every handle.
  if (sycl::device::get_devices(sycl::info::device_type::gpu).empty())
    CHECK(throws(sycl::errc::invalid, [] { sycl::make_device<cuda>(0); }));
}

// A native command runs in the queue's order, between the kernels around it; on the host
// device it has no native queue and runs on the host (its accessors are host memory there).
void test_native_command_order(sycl::queue& q) {
  constexpr int n = 256;
  sycl::buffer<int> buf{sycl::range<1>(n)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(buf, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = int(i[0]); });
  });
  bool ran = false;
  bool saw_kernel = true;
  bool host = q.get_backend() == sycl::backend::syclone_host;
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(buf, h, sycl::read_write);
    h.ext_oneapi_enqueue_native_command([=, &ran, &saw_kernel](sycl::interop_handle ih) {
      ran = true;
      if (host) {
        for (int i = 0; i < n; ++i) saw_kernel = saw_kernel && a[i] == i;
        for (int i = 0; i < n; ++i) a[i] *= 2;
      } else {
#ifdef SYCL_EXT_ONEAPI_BACKEND_CUDA
        // The buffer is on the device already; nothing native to do but check the handles.
        CUstream s = ih.get_native_queue<sycl::backend::ext_oneapi_cuda>();
        void* p = ih.get_native_mem<sycl::backend::ext_oneapi_cuda>(a);
        saw_kernel = s != nullptr && p != nullptr;
#endif
      }
    });
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(buf, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1; });
  });
  sycl::host_accessor r(buf);
  CHECK(ran && saw_kernel);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && r[i] == (host ? 2 * i : i) + 1;
  CHECK(ok);

  // The codeplay name is the same command; its event completes.
  bool second = false;
  q.submit([&](sycl::handler& h) {
     h.ext_codeplay_enqueue_native_command(
         [&](sycl::interop_handle ih) { second = !ih.ext_codeplay_has_graph(); });
   }).wait();
  CHECK(second);
}

void test_peer_access(sycl::queue& q) {
  sycl::device dev = q.get_device();
  CHECK(dev.ext_oneapi_can_access_peer(dev));
  CHECK(dev.ext_oneapi_can_access_peer(dev, sycl::ext::oneapi::peer_access::atomics_supported));
  dev.ext_oneapi_enable_peer_access(dev); // itself: nothing to do
  dev.ext_oneapi_disable_peer_access(dev);
  for (const auto& other : sycl::device::get_devices()) {
    if (other.get_backend() == dev.get_backend()) continue;
    CHECK(!dev.ext_oneapi_can_access_peer(other));
    CHECK(throws(sycl::errc::feature_not_supported,
                 [&] { dev.ext_oneapi_enable_peer_access(other); }));
  }
}

} // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  test_backends_agree(q);
  if (q.get_backend() == sycl::backend::ext_oneapi_cuda)
    test_cuda_handles(q);
  else
    test_host_handles(q);
  test_native_command_order(q);
  test_peer_access(q);
  if (g_failures) return 1;
  std::printf("backend_interop: all checks passed\n");
  return 0;
}
