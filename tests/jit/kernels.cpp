// Device code for the JIT tests, shaped the way the SYCL headers shape it
// (include/sycl/kernel_handler.hpp, include/sycl/detail/kernel_launch.hpp,
// include/sycl/detail/device/nvptx.hpp) but without them, so that these checks depend on the JIT
// only: a kernel object (functor plus kernel_handler) passed by value to a
// [[clang::sycl_kernel_entry_point]] function, and specialization constants read through
// __syclone_spec_constant(name, &local_holding_the_default, sizeof(T)), the name being the unique
// stable name of the specialization_id's tag.
#include "kernel_args.hpp"

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace sycl {
inline namespace _V1 {
namespace detail {
template <auto& SpecName>
struct spec_constant_tag {};

template <auto& SpecName>
const char* spec_constant_name() {
  return __builtin_sycl_unique_stable_name(spec_constant_tag<SpecName>);
}

namespace dev {
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace dev
} // namespace detail

template <typename T>
class specialization_id {
public:
  using value_type = T;
  template <typename... Args>
  explicit constexpr specialization_id(Args&&... args) : m_default(static_cast<Args&&>(args)...) {}
  constexpr const T& default_value() const { return m_default; }

private:
  T m_default;
};

class kernel_handler {
public:
  template <auto& SpecName>
  typename std::remove_reference_t<decltype(SpecName)>::value_type
  get_specialization_constant() const {
    using T = typename std::remove_reference_t<decltype(SpecName)>::value_type;
    T result = SpecName.default_value();
    detail::dev::__syclone_spec_constant(detail::spec_constant_name<SpecName>(), &result,
                                         sizeof(T));
    return result;
  }

private:
  const void* m_values = nullptr;
};
} // namespace _V1
} // namespace sycl

template <typename KernelName, typename KernelObject>
[[clang::sycl_kernel_entry_point(KernelName)]] void kernel_entry(KernelObject object) {
  object();
}

template <typename F>
struct single_task_kernel {
  F m_f;
  sycl::kernel_handler m_kh;
  void operator()() const { m_f(m_kh); }
};

template <typename Name, typename F>
void single_task(F f) {
  kernel_entry<Name>(single_task_kernel<F>{f, {}});
}

struct scale_bias {
  float scale;
  int count;
  float bias;
};

constexpr sycl::specialization_id<int> trip_count{3};
constexpr sycl::specialization_id<bool> use_multiply{false};
constexpr sycl::specialization_id<scale_bias> affine{scale_bias{1.0f, 1, 0.0f}};
constexpr sycl::specialization_id<double> factor{1.5};

// Kernel names (their unique stable names are the kernel symbols: _ZTS9SpecLoop, ...).
class SpecLoop;
class RuntimeLoop;
class SpecBranch;
class SpecStruct;
class SpecDouble;
class CallsNvExpf;
class CallsExpf;
class CallsSinCos;

extern "C" float __nv_expf(float);

// LLVM's NVPTX backend selects the nvvm prefetch intrinsics on sm_90 (PTX 8.0) only.
using global_pointer = __attribute__((address_space(1))) const void*;
extern "C" void
    prefetch_l2_evict_last(global_pointer) __asm__("llvm.nvvm.prefetch.global.L2.evict.last");
class ArchSpecific;
class SpecByOffset;
// A name that reaches the marker as a pointer into the middle of a string.
constexpr char k_prefixed_name[] = "unused-prefix/name_at_offset";
class Sm90Only;

void submit(kernel_args a) {
  // The trip count is a specialization constant: with 10 set, O3 unrolls the loop fully.
  single_task<SpecLoop>([=](sycl::kernel_handler kh) {
    int trips = kh.get_specialization_constant<trip_count>();
    float sum = 0;
    for (int i = 0; i < trips; ++i) sum = sum * a.in[i] + a.in[i + 1];
    a.out[0] = sum;
  });
  // The same loop with a trip count known only at run time keeps its loop.
  single_task<RuntimeLoop>([=](sycl::kernel_handler) {
    float sum = 0;
    for (int i = 0; i < a.runtime_trips; ++i) sum = sum * a.in[i] + a.in[i + 1];
    a.out[0] = sum;
  });
  // A branch on a bool specialization constant folds away.
  single_task<SpecBranch>([=](sycl::kernel_handler kh) {
    int* result = reinterpret_cast<int*>(a.out);
    if (kh.get_specialization_constant<use_multiply>())
      result[0] = a.x * 7;
    else
      result[0] = a.x / 13;
  });
  // A 12-byte struct: the value is copied in as bytes.
  single_task<SpecStruct>([=](sycl::kernel_handler kh) {
    scale_bias v = kh.get_specialization_constant<affine>();
    float sum = 0;
    for (int i = 0; i < v.count; ++i) sum += a.in[i] * v.scale + v.bias;
    a.out[0] = sum;
  });
  single_task<SpecDouble>([=](sycl::kernel_handler kh) {
    a.out[0] = float(a.in[0] * kh.get_specialization_constant<factor>());
  });
  // CUDA math functions: called by name, as device headers do, and through the C library name,
  // which clang turns into the llvm.exp intrinsic the NVPTX backend cannot select.
  single_task<CallsNvExpf>([=](sycl::kernel_handler) { a.out[0] = __nv_expf(a.in[0]); });
  single_task<CallsExpf>([=](sycl::kernel_handler) { a.out[0] = std::exp(a.in[0]); });
  single_task<CallsSinCos>([=](sycl::kernel_handler) {
    a.out[0] =
        std::sin(a.in[0]) + std::cos(a.in[1]) + float(std::pow(double(a.in[2]), double(a.in[3])));
  });
  single_task<SpecByOffset>([=](sycl::kernel_handler) {
    int value = 5;
    sycl::detail::dev::__syclone_spec_constant(k_prefixed_name + 14, &value, sizeof value);
    a.out[0] = float(value);
  });
  // Device code choosing by architecture, as device headers must: __nvvm_reflect("__CUDA_ARCH")
  // is the JIT's target, and the branch not taken is gone before instruction selection.
  single_task<ArchSpecific>([=](sycl::kernel_handler) {
    if (__nvvm_reflect("__CUDA_ARCH") >= 900)
      prefetch_l2_evict_last((global_pointer)a.in);
    else
      asm volatile("prefetch.global.L2 [%0];" ::"l"(a.in));
    a.out[0] = a.in[0] + float(__nvvm_reflect("__CUDA_ARCH"));
  });
  // The same without the choice: LLVM cannot compile it for sm_80.
  single_task<Sm90Only>([=](sycl::kernel_handler) {
    prefetch_l2_evict_last((global_pointer)a.in);
    a.out[0] = a.in[0];
  });
}
