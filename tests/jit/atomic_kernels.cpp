// Device code for atomic_ptx_test: atomic_ref read-modify-writes of the real SYCL headers
// (include/sycl/atomic_ref.hpp, include/sycl/detail/device/nvptx.hpp), in single_task kernel
// objects, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

template <typename Name, typename F>
void task(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::single_task_kernel<F>{f, {}});
}

template <typename T, sycl::memory_scope Scope,
          sycl::access::address_space Space = sycl::access::address_space::generic_space>
using ref = sycl::atomic_ref<T, sycl::memory_order::relaxed, Scope, Space>;

} // namespace

class AtomicDeviceScope;
class AtomicSystemScope;
class AtomicWorkGroupScope;
class AtomicDeviceScopeSeqCst;

void kernels(int* i, unsigned long long* u, long long* l, float* f, double* d, int** p) {
  using sycl::memory_scope;
  task<AtomicDeviceScope>([=] {
    ref<int, memory_scope::device>(*i).fetch_add(1);
    ref<unsigned long long, memory_scope::device>(*u).fetch_max(2);
    ref<long long, memory_scope::device>(*l).fetch_min(-3);
    ref<long long, memory_scope::device>(*l).fetch_sub(4);
    ref<int, memory_scope::device>(*i).fetch_or(8);
    ref<double, memory_scope::device>(*d).fetch_add(0.5);
    ref<float, memory_scope::device>(*f).fetch_max(1.5f);
    ref<int*, memory_scope::device>(*p).fetch_add(2);
    ref<int, memory_scope::device>(*i).exchange(7);
  });
  task<AtomicSystemScope>([=] {
    ref<int, memory_scope::system>(*i).fetch_add(1);
    ref<double, memory_scope::system>(*d).fetch_add(0.5);
  });
  task<AtomicWorkGroupScope>([=] { ref<int, memory_scope::work_group>(*i).fetch_add(1); });
  task<AtomicDeviceScopeSeqCst>(
      [=] { ref<int, memory_scope::device>(*i).fetch_add(1, sycl::memory_order::seq_cst); });
}
