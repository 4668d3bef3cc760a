// The JIT's PTX on a real GPU: loads it with the CUDA driver (dlopen'ed, as the CUDA backend
// will) and checks what the kernels of kernels.cpp compute. Skipped where there is no CUDA driver
// or device; labelled cuda.
#include "jit/jit.hpp"
#include "kernel_args.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace jit = syclone::jit;

// The test bitcode, built with the tests; SYCLONE_JIT_TEST_BITCODE_DIR moves it (the tests
// copied to a GPU machine).
const fs::path k_bitcode_dir = std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")
                                   ? std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")
                                   : SYCLONE_JIT_TEST_BITCODE_DIR;
const std::string k_trip_count = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL10trip_countEEE";
const std::string k_use_multiply = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL12use_multiplyEEE";
const std::string k_affine = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL6affineEEE";

// The few CUDA driver API entry points used, declared here: no CUDA headers at build time.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
constexpr int k_compute_capability_major = 75;
constexpr int k_compute_capability_minor = 76;
constexpr int k_jit_error_log_buffer = 5;
constexpr int k_jit_error_log_buffer_size = 6;

struct cuda_driver {
  void* library = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, std::size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, std::size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, void*, void**, void**);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorString)(CUresult, const char**);

  template <typename F>
  bool bind(F& function, const char* name) {
    function = reinterpret_cast<F>(::dlsym(library, name));
    return function != nullptr;
  }
  bool load() {
    library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return library && bind(cuInit, "cuInit") && bind(cuDriverGetVersion, "cuDriverGetVersion") &&
           bind(cuDeviceGetCount, "cuDeviceGetCount") && bind(cuDeviceGet, "cuDeviceGet") &&
           bind(cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
           bind(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
           bind(cuCtxSetCurrent, "cuCtxSetCurrent") &&
           bind(cuModuleLoadDataEx, "cuModuleLoadDataEx") &&
           bind(cuModuleUnload, "cuModuleUnload") &&
           bind(cuModuleGetFunction, "cuModuleGetFunction") && bind(cuMemAlloc, "cuMemAlloc_v2") &&
           bind(cuMemFree, "cuMemFree_v2") && bind(cuMemcpyHtoD, "cuMemcpyHtoD_v2") &&
           bind(cuMemcpyDtoH, "cuMemcpyDtoH_v2") && bind(cuLaunchKernel, "cuLaunchKernel") &&
           bind(cuCtxSynchronize, "cuCtxSynchronize") && bind(cuGetErrorString, "cuGetErrorString");
  }
};

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

template <typename T>
jit::spec_constant value_of(const std::string& name, T value) {
  jit::spec_constant result{name, std::vector<std::byte>(sizeof(T))};
  std::memcpy(result.value.data(), &value, sizeof(T));
  return result;
}

class JitGpuTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ::setenv("SYCLONE_JIT_CACHE", "0", 1);
    if (!s_cuda.load()) return;
    int count = 0;
    if (s_cuda.cuInit(0) != 0 || s_cuda.cuDeviceGetCount(&count) != 0 || count == 0) return;
    CUdevice device = 0;
    CUcontext context = nullptr;
    int major = 0, minor = 0;
    s_cuda.cuDeviceGet(&device, 0);
    s_cuda.cuDeviceGetAttribute(&major, k_compute_capability_major, device);
    s_cuda.cuDeviceGetAttribute(&minor, k_compute_capability_minor, device);
    s_cuda.cuDriverGetVersion(&s_driver_version);
    if (s_cuda.cuDevicePrimaryCtxRetain(&context, device) != 0) return;
    s_cuda.cuCtxSetCurrent(context);
    s_arch = "sm_" + std::to_string(major * 10 + minor);
    s_ready = true;
  }

  void SetUp() override {
    if (!s_ready) GTEST_SKIP() << "no CUDA driver or device";
    m_bitcode = read_bytes(k_bitcode_dir / "kernels.bc");
    check(s_cuda.cuMemAlloc(&m_in, 64 * sizeof(float)), "cuMemAlloc");
    check(s_cuda.cuMemAlloc(&m_out, 4 * sizeof(float)), "cuMemAlloc");
  }
  void TearDown() override {
    if (m_in) s_cuda.cuMemFree(m_in);
    if (m_out) s_cuda.cuMemFree(m_out);
  }

  static void check(CUresult result, const char* what) {
    if (result == 0) return;
    const char* text = "unknown error";
    s_cuda.cuGetErrorString(result, &text);
    FAIL() << what << ": " << text;
  }

  // JITs `kernel`, runs it once (one thread) on `input` and returns out[0..3].
  std::vector<float> run(const std::string& kernel, std::vector<jit::spec_constant> values,
                         const std::vector<float>& input, int runtime_trips = 0, int x = 0,
                         const std::string& ptx_feature = "") {
    jit::request req;
    req.bitcode = m_bitcode;
    req.kernel = kernel;
    req.arch = s_arch;
    req.ptx_version_feature = ptx_feature;
    req.spec_constants = std::move(values);
    std::string ptx = jit::compile(req).ptx;

    char log[8192] = {};
    int options[] = {k_jit_error_log_buffer, k_jit_error_log_buffer_size};
    void* option_values[] = {log, reinterpret_cast<void*>(sizeof log)};
    CUmodule module = nullptr;
    CUresult loaded = s_cuda.cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, option_values);
    EXPECT_EQ(loaded, 0) << "cuModuleLoadDataEx: " << log << "\n" << ptx;
    if (loaded != 0) return {};
    CUfunction function = nullptr;
    check(s_cuda.cuModuleGetFunction(&function, module, kernel.c_str()), "cuModuleGetFunction");

    std::vector<float> in = input;
    in.resize(64);
    check(s_cuda.cuMemcpyHtoD(m_in, in.data(), in.size() * sizeof(float)), "cuMemcpyHtoD");
    kernel_object object{};
    object.args.in = reinterpret_cast<const float*>(m_in);
    object.args.out = reinterpret_cast<float*>(m_out);
    object.args.runtime_trips = runtime_trips;
    object.args.x = x;
    void* parameters[] = {&object};
    check(s_cuda.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, parameters, nullptr),
          "cuLaunchKernel");
    check(s_cuda.cuCtxSynchronize(), "cuCtxSynchronize");
    std::vector<float> out(4);
    check(s_cuda.cuMemcpyDtoH(out.data(), m_out, out.size() * sizeof(float)), "cuMemcpyDtoH");
    s_cuda.cuModuleUnload(module);
    return out;
  }

  static inline cuda_driver s_cuda{};
  static inline bool s_ready = false;
  static inline std::string s_arch;
  static inline int s_driver_version = 0;
  std::vector<std::byte> m_bitcode;
  CUdeviceptr m_in = 0, m_out = 0;
};

// sum = sum * in[i] + in[i + 1], as the kernel computes it (contracted to fma).
float loop_reference(const std::vector<float>& in, int trips) {
  float sum = 0;
  for (int i = 0; i < trips; ++i) sum = std::fma(sum, in[i], in[i + 1]);
  return sum;
}

std::vector<float> ramp() {
  std::vector<float> in;
  for (int i = 0; i < 32; ++i) in.push_back(0.5f + 0.03125f * float(i));
  return in;
}

TEST_F(JitGpuTest, SpecializedTripCount) {
  auto in = ramp();
  for (int trips : {10, 1, 17}) {
    auto out = run("_ZTS8SpecLoop", {value_of(k_trip_count, trips)}, in);
    ASSERT_FALSE(out.empty());
    EXPECT_FLOAT_EQ(out[0], loop_reference(in, trips)) << trips;
  }
  EXPECT_FLOAT_EQ(run("_ZTS8SpecLoop", {}, in)[0], loop_reference(in, 3)); // the default
  EXPECT_FLOAT_EQ(run("_ZTS11RuntimeLoop", {}, in, 10)[0], loop_reference(in, 10));
}

TEST_F(JitGpuTest, SpecializedBranchAndStruct) {
  auto as_int = [](float f) {
    int i;
    std::memcpy(&i, &f, sizeof i);
    return i;
  };
  EXPECT_EQ(as_int(run("_ZTS10SpecBranch", {value_of(k_use_multiply, true)}, {}, 0, 1000)[0]),
            7000);
  EXPECT_EQ(as_int(run("_ZTS10SpecBranch", {}, {}, 0, 1000)[0]), 1000 / 13);

  struct scale_bias {
    float scale;
    int count;
    float bias;
  };
  auto in = ramp();
  float expected = 0;
  for (int i = 0; i < 5; ++i) expected += in[i] * 2.5f + 0.25f;
  EXPECT_NEAR(run("_ZTS10SpecStruct", {value_of(k_affine, scale_bias{2.5f, 5, 0.25f})}, in)[0],
              expected, 1e-5f);
}

TEST_F(JitGpuTest, LibdeviceMath) {
  std::vector<float> in = {1.25f, 0.75f, 1.5f, 2.5f};
  EXPECT_NEAR(run("_ZTS11CallsNvExpf", {}, in)[0], std::exp(1.25f), 1e-6f * std::exp(1.25f));
  EXPECT_NEAR(run("_ZTS9CallsExpf", {}, in)[0], std::exp(1.25f), 1e-6f * std::exp(1.25f));
  float expected = std::sin(1.25f) + std::cos(0.75f) + float(std::pow(1.5, 2.5));
  EXPECT_NEAR(run("_ZTS11CallsSinCos", {}, in)[0], expected, 1e-5f);
}

TEST_F(JitGpuTest, ArchitectureAndNewestPtx) {
  std::vector<float> in = {1.0f};
  int arch = std::stoi(s_arch.substr(3));
  EXPECT_EQ(run("_ZTS12ArchSpecific", {}, in)[0], 1.0f + float(arch * 10));
  // The newest PTX this driver accepts.
  std::string newest = jit::ptx_feature_for_cuda_version(s_driver_version);
  ASSERT_FALSE(newest.empty()) << s_driver_version;
  auto out = run("_ZTS8SpecLoop", {value_of(k_trip_count, 10)}, ramp(), 0, 0, newest);
  EXPECT_FLOAT_EQ(out[0], loop_reference(ramp(), 10)) << newest;
}

} // namespace
