// Device-code checks of the NVPTX JIT (STYLE.md 9): compile the bitcode of kernels.cpp the way
// the CUDA backend will, and inspect the PTX text. No GPU is needed.
//
// Run as `jit_test --compile <bitcode> <kernel> <arch> <out.ptx> [<spec name>=<int>]...` the
// executable compiles once and prints from_cache and the time: the disk cache tests start it as
// a second process, and it measures the JIT's timings.
#include "jit/jit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
namespace jit = syclone::jit;

// The test bitcode, built with the tests; SYCLONE_JIT_TEST_BITCODE_DIR moves it (the tests
// copied to a GPU machine).
const fs::path k_bitcode_dir = std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")
                                   ? std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")
                                   : SYCLONE_JIT_TEST_BITCODE_DIR;

// The unique stable names of kernels.cpp's kernel names and specialization_id tags.
const std::string k_spec_loop = "_ZTS8SpecLoop";
const std::string k_runtime_loop = "_ZTS11RuntimeLoop";
const std::string k_spec_branch = "_ZTS10SpecBranch";
const std::string k_spec_struct = "_ZTS10SpecStruct";
const std::string k_spec_double = "_ZTS10SpecDouble";
const std::string k_calls_nv_expf = "_ZTS11CallsNvExpf";
const std::string k_calls_expf = "_ZTS9CallsExpf";
const std::string k_calls_sincos = "_ZTS11CallsSinCos";
const std::string k_arch_specific = "_ZTS12ArchSpecific";
const std::string k_sm90_only = "_ZTS8Sm90Only";
const std::string k_trip_count = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL10trip_countEEE";
const std::string k_use_multiply = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL12use_multiplyEEE";
const std::string k_affine = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL6affineEEE";
const std::string k_factor = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL6factorEEE";

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::vector<std::byte>& image(const std::string& name) {
  static std::map<std::string, std::vector<std::byte>> images;
  auto& bytes = images[name];
  if (bytes.empty()) bytes = read_bytes(k_bitcode_dir / name);
  EXPECT_FALSE(bytes.empty()) << "missing " << k_bitcode_dir / name;
  return bytes;
}

template <typename T>
jit::spec_constant value_of(const std::string& name, T value) {
  jit::spec_constant result{name, std::vector<std::byte>(sizeof(T))};
  std::memcpy(result.value.data(), &value, sizeof(T));
  return result;
}

jit::request make_request(const std::string& kernel, std::vector<jit::spec_constant> values = {},
                          const std::string& bitcode = "kernels.bc") {
  jit::request req;
  req.bitcode = image(bitcode);
  req.kernel = kernel;
  req.arch = "sm_90";
  req.spec_constants = std::move(values);
  // Where no CUDA is installed nothing is found anyway; a fixed wrong path keeps the tests from
  // picking up a real libdevice on GPU machines.
  req.libdevice_path = "/nonexistent/libdevice.10.bc";
  return req;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::size_t count_regex(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

// The text of one kernel: from its .entry to the closing brace at the start of a line.
std::string kernel_body(const std::string& ptx, const std::string& kernel) {
  auto begin = ptx.find(".entry " + kernel + "(");
  if (begin == std::string::npos) return "";
  auto end = ptx.find("\n}", begin);
  return ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// A loop: a branch to a label defined before it.
bool has_back_edge(const std::string& body) {
  std::regex branch(R"(bra(?:\.uni)?\s+(\$L__\w+);)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), branch);
       it != std::sregex_iterator(); ++it) {
    auto label = body.find((*it)[1].str() + ":");
    if (label != std::string::npos && label < std::size_t(it->position())) return true;
  }
  return false;
}

std::string error_of(const jit::request& req) {
  try {
    jit::compile(req);
  } catch (const jit::error& e) {
    return e.what();
  }
  return "(no error)";
}

// CUDA's libdevice where a CUDA toolkit is installed (GPU machines, some CI images).
std::string real_libdevice() {
  std::vector<fs::path> roots;
  if (const char* home = std::getenv("CUDA_HOME")) roots.emplace_back(home);
  roots.emplace_back("/usr/local/cuda");
  for (const auto& root : roots)
    if (fs::exists(root / "nvvm/libdevice/libdevice.10.bc"))
      return (root / "nvvm/libdevice/libdevice.10.bc").string();
  return "";
}

// Each test gets its own cache directory and no dump directory.
class JitTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/syclone-jit-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    m_dir = pattern;
    ::setenv("SYCLONE_CACHE_DIR", (m_dir / "cache").c_str(), 1);
    ::unsetenv("SYCLONE_JIT_DUMP");
    ::unsetenv("SYCLONE_JIT_CACHE");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }

  // A specialization constant no kernel reads: it changes the cache key, not the PTX, so a
  // request carrying it is compiled afresh.
  static jit::spec_constant fresh() {
    static int n = 0;
    return value_of("test-only-" + std::to_string(::getpid()) + "-" + std::to_string(n++), 0);
  }

  // Runs a program, its stdout and stderr going to `output`; returns its exit status.
  static int run(std::vector<std::string> args, const fs::path& output) {
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // Runs this executable in --compile mode; returns its output, or fails the test.
  std::string run_child(const std::vector<std::string>& args) {
    fs::path output = m_dir / "child.out";
    std::vector<std::string> all = {"/proc/self/exe", "--compile"};
    all.insert(all.end(), args.begin(), args.end());
    EXPECT_EQ(run(all, output), 0) << read_text(output);
    return read_text(output);
  }

  fs::path m_dir;
};

TEST_F(JitTest, KeepsOnlyTheRequestedKernel) {
  auto result = jit::compile(make_request(k_spec_loop));
  EXPECT_FALSE(result.from_cache);
  EXPECT_NE(result.ptx.find(".entry " + k_spec_loop + "("), std::string::npos) << result.ptx;
  EXPECT_NE(result.ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(result.ptx.find(".version 8.0"), std::string::npos); // sm_90's default
  EXPECT_EQ(result.ptx.find(".entry " + k_runtime_loop), std::string::npos);
  EXPECT_EQ(result.ptx.find("__syclone_spec_constant"), std::string::npos);
  EXPECT_GT(result.milliseconds, 0.0);
}

TEST_F(JitTest, EmptyKernelNameCompilesEveryKernel) {
  auto req = make_request("");
  req.libdevice_path = k_bitcode_dir / "fake_libdevice.bc";
  auto ptx = jit::compile(req).ptx;
  for (const auto& kernel :
       {k_spec_loop, k_runtime_loop, k_spec_branch, k_spec_struct, k_spec_double, k_calls_nv_expf,
        k_calls_expf, k_calls_sincos, k_arch_specific, k_sm90_only})
    EXPECT_NE(ptx.find(".entry " + kernel + "("), std::string::npos) << kernel;
}

TEST_F(JitTest, SpecializedTripCountUnrollsTheLoop) {
  auto ptx = jit::compile(make_request(k_spec_loop, {value_of(k_trip_count, 10)})).ptx;
  std::string body = kernel_body(ptx, k_spec_loop);
  ASSERT_FALSE(body.empty()) << ptx;
  EXPECT_FALSE(has_back_edge(body)) << body;
  EXPECT_EQ(count(body, "bra"), 0u) << body;
  EXPECT_EQ(count(body, "fma.rn.f32"), 10u) << body;
}

TEST_F(JitTest, DefaultTripCountIsFoldedToo) {
  auto body = kernel_body(jit::compile(make_request(k_spec_loop)).ptx, k_spec_loop);
  EXPECT_EQ(count(body, "bra"), 0u) << body;
  EXPECT_EQ(count(body, "fma.rn.f32"), 3u) << body; // trip_count's default
}

TEST_F(JitTest, RuntimeTripCountKeepsTheLoop) {
  auto body = kernel_body(jit::compile(make_request(k_runtime_loop)).ptx, k_runtime_loop);
  ASSERT_FALSE(body.empty());
  EXPECT_TRUE(has_back_edge(body)) << body;
}

// real_headers.cpp: the same checks for device code written with the SYCL headers and compiled
// by syclone++ (seed 002's STREAM triad trio and trip count example).
const std::string k_triad_variable = "_ZTS13TriadVariable";
const std::string k_triad_spec = "_ZTS9TriadSpec";
const std::string k_triad_literal = "_ZTS12TriadLiteral";
const std::string k_trip_count_kernel = "_ZTS9TripCount";
const std::string k_trip_sc = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL7trip_scEEE";
const std::string k_nx_sc = "_ZTSN4sycl3_V16detail17spec_constant_tagIL_ZL5nx_scEEE";

std::string real_headers_body(const std::string& kernel, std::vector<jit::spec_constant> values) {
  std::string ptx = jit::compile(make_request(kernel, std::move(values), "real_headers.bc")).ptx;
  EXPECT_EQ(ptx.find("__syclone_spec_constant"), std::string::npos) << ptx;
  std::string body = kernel_body(ptx, kernel);
  EXPECT_FALSE(body.empty()) << ptx;
  return body;
}

// The kernel's text with its name replaced, to compare kernels.
std::string anonymous(std::string body, const std::string& kernel) {
  for (auto at = body.find(kernel); at != std::string::npos; at = body.find(kernel, at))
    body.replace(at, kernel.size(), "KERNEL");
  return body;
}

TEST_F(JitTest, RealHeadersSpecializationConstantEqualsTheLiteral) {
  // Trip count 10 as a specialization constant: the very PTX of the literal-constant kernel.
  std::string spec = real_headers_body(k_triad_spec, {value_of(k_trip_sc, 10)});
  std::string literal = real_headers_body(k_triad_literal, {});
  EXPECT_FALSE(has_back_edge(spec)) << spec;
  EXPECT_EQ(count(spec, "fma.rn.f32"), 10u) << spec;
  EXPECT_EQ(anonymous(spec, k_triad_spec), anonymous(literal, k_triad_literal));
  // The runtime variable keeps its loop.
  EXPECT_TRUE(has_back_edge(real_headers_body(k_triad_variable, {})));
}

TEST_F(JitTest, RealHeadersLargeTripCountIsUnrolledAgainstALiteralBound) {
  std::string spec = real_headers_body(k_triad_spec, {value_of(k_trip_sc, 1000)});
  EXPECT_TRUE(has_back_edge(spec)) << spec;
  EXPECT_EQ(count_regex(spec, R"(setp\.\w+\.[bsu]32\s+%p\d+, %r\d+, 1000;)"), 1u) << spec;
  EXPECT_GE(count(spec, "fma.rn.f32"), 4u) << spec; // several iterations per trip of the loop
}

TEST_F(JitTest, RealHeadersDefaultValue) {
  // trip_sc's default (1): one iteration, no loop.
  std::string spec = real_headers_body(k_triad_spec, {});
  EXPECT_FALSE(has_back_edge(spec)) << spec;
  EXPECT_EQ(count(spec, "fma.rn.f32"), 1u) << spec;
}

TEST_F(JitTest, RealHeadersTripCountFoldsToTheSum) {
  // sum(0..1023) = 523776 = 0x48FFC000 as a float: the whole loop becomes one constant store.
  std::string body = real_headers_body(k_trip_count_kernel, {value_of(k_nx_sc, 1024)});
  EXPECT_FALSE(has_back_edge(body)) << body;
  EXPECT_EQ(count(body, "bra"), 0u) << body;
  EXPECT_TRUE(body.find("1224720384") != std::string::npos ||
              body.find("0f48FFC000") != std::string::npos)
      << body;
}

TEST_F(JitTest, BoolSpecializationFoldsTheBranch) {
  auto multiply =
      kernel_body(jit::compile(make_request(k_spec_branch, {value_of(k_use_multiply, true)})).ptx,
                  k_spec_branch);
  auto divide = kernel_body(jit::compile(make_request(k_spec_branch)).ptx, k_spec_branch);
  for (const auto* body : {&multiply, &divide}) {
    EXPECT_EQ(count(*body, "setp"), 0u) << *body;
    EXPECT_EQ(count(*body, "bra"), 0u) << *body;
  }
  EXPECT_EQ(count_regex(multiply, R"(mul\.lo\.s32\s+%r\d+, %r\d+, 7;)"), 1u) << multiply;
  EXPECT_EQ(count_regex(divide, R"(, 7;)"), 0u) << divide;
  EXPECT_GT(count(divide, "mul.hi.s32"), 0u) << divide; // x / 13 by multiplication
}

TEST_F(JitTest, StructSpecializationIsCopiedAndFolded) {
  struct scale_bias {
    float scale;
    int count;
    float bias;
  };
  auto body = kernel_body(
      jit::compile(make_request(k_spec_struct, {value_of(k_affine, scale_bias{2.5f, 4, 0.25f})}))
          .ptx,
      k_spec_struct);
  EXPECT_EQ(count(body, "bra"), 0u) << body;
  EXPECT_EQ(count(body, "0f40200000"), 4u) << body; // 2.5, once per unrolled iteration
  EXPECT_GT(count(body, "0f3E800000"), 0u) << body; // 0.25
  EXPECT_EQ(count(body, "ld.const"), 0u) << body;
}

TEST_F(JitTest, DoubleSpecialization) {
  auto body = kernel_body(
      jit::compile(make_request(k_spec_double, {value_of(k_factor, 0.125)})).ptx, k_spec_double);
  // float(in * 0.125) is exactly in * 0.125f: the value folded all the way into a float multiply.
  EXPECT_NE(body.find("mul.rn.f32"), std::string::npos) << body;
  EXPECT_NE(body.find("0f3E000000"), std::string::npos) << body; // 0.125f
  EXPECT_EQ(body.find("f64"), std::string::npos) << body;
}

TEST_F(JitTest, NameThroughAnOffset) {
  auto body = kernel_body(
      jit::compile(make_request("_ZTS12SpecByOffset", {value_of("name_at_offset", 42)})).ptx,
      "_ZTS12SpecByOffset");
  EXPECT_NE(body.find("1109917696"), std::string::npos) << body; // the bits of 42.0f
}

TEST_F(JitTest, SpecializationSizeMismatchIsAnError) {
  auto message = error_of(make_request(k_spec_loop, {value_of(k_trip_count, short(10))}));
  EXPECT_NE(message.find(k_trip_count), std::string::npos) << message;
  EXPECT_NE(message.find("has 4 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("but 2 bytes were given"), std::string::npos) << message;
}

TEST_F(JitTest, SpecializationGivenTwiceIsAnError) {
  auto message =
      error_of(make_request(k_spec_loop, {value_of(k_trip_count, 1), value_of(k_trip_count, 2)}));
  EXPECT_NE(message.find("given twice"), std::string::npos) << message;
}

TEST_F(JitTest, UnknownSpecializationNamesAreIgnored) {
  auto plain = jit::compile(make_request(k_spec_loop)).ptx;
  auto extra = jit::compile(make_request(k_spec_loop, {fresh()}));
  EXPECT_FALSE(extra.from_cache);
  EXPECT_EQ(plain, extra.ptx);
}

TEST_F(JitTest, UnknownKernelListsTheKernels) {
  auto message = error_of(make_request("_ZTS4Nope"));
  EXPECT_NE(message.find("kernel `_ZTS4Nope` is not in the device image"), std::string::npos)
      << message;
  for (const auto& kernel : {k_spec_loop, k_runtime_loop, k_calls_sincos})
    EXPECT_NE(message.find(kernel), std::string::npos) << message;
}

TEST_F(JitTest, BrokenBitcodeIsAnError) {
  std::vector<std::byte> junk(64, std::byte{0x42});
  auto req = make_request(k_spec_loop);
  req.bitcode = junk;
  EXPECT_NE(error_of(req).find("cannot read the device image"), std::string::npos) << error_of(req);
  auto truncated = image("kernels.bc");
  truncated.resize(truncated.size() / 2);
  req.bitcode = truncated;
  EXPECT_NE(error_of(req).find("cannot read the device image"), std::string::npos) << error_of(req);
}

TEST_F(JitTest, ArchitecturesAndPtxVersions) {
  auto req = make_request(k_spec_loop);
  req.arch = "sm_80";
  auto ptx = jit::compile(req).ptx;
  EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
  EXPECT_NE(ptx.find(".version 7.8"), std::string::npos);
  req.ptx_version_feature = "+ptx84";
  ptx = jit::compile(req).ptx;
  EXPECT_NE(ptx.find(".version 8.4"), std::string::npos);

  req.arch = "sm_95";
  EXPECT_NE(error_of(req).find("unknown GPU architecture `sm_95`"), std::string::npos);
  req.arch = "sm_90";
  req.ptx_version_feature = "+ptx70";
  EXPECT_NE(error_of(req).find("needs PTX 7.8 or newer"), std::string::npos) << error_of(req);
  req.ptx_version_feature = "ptx80";
  EXPECT_NE(error_of(req).find("unknown PTX version feature"), std::string::npos);
  req.arch = "";
  EXPECT_NE(error_of(req).find("names no GPU architecture"), std::string::npos);

  EXPECT_EQ(jit::default_ptx_feature("sm_90"), "+ptx80");
  EXPECT_EQ(jit::default_ptx_feature("sm_80"), "+ptx78");
  EXPECT_EQ(jit::default_ptx_feature("sm_100"), "+ptx86");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(11080), "+ptx78");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(12040), "+ptx84");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(12060), "+ptx85");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(12080), "+ptx87");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(13000), "+ptx90");
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(14020), "+ptx90"); // newest this LLVM writes
  EXPECT_EQ(jit::ptx_feature_for_cuda_version(9020), "");
}

TEST_F(JitTest, MissingLibdeviceNamesTheFunctionsAndTheFix) {
  auto message = error_of(make_request(k_calls_nv_expf));
  EXPECT_NE(message.find("kernel `" + k_calls_nv_expf + "` for sm_90 calls __nv_expf"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("/nonexistent/libdevice.10.bc"), std::string::npos) << message;
  EXPECT_NE(message.find("CUDA_HOME"), std::string::npos) << message;
  // The C math functions come from libdevice as well.
  message = error_of(make_request(k_calls_sincos));
  EXPECT_NE(message.find("__nv_sinf"), std::string::npos) << message;
  EXPECT_NE(message.find("__nv_pow"), std::string::npos) << message;
}

TEST_F(JitTest, MissingLibdeviceInTheStandardPlaces) {
  for (const char* root : {"/usr/local/cuda", "/usr/lib/cuda", "/opt/cuda"})
    if (fs::exists(fs::path(root) / "nvvm/libdevice/libdevice.10.bc"))
      GTEST_SKIP() << "CUDA is installed in " << root;
  ::setenv("CUDA_HOME", (m_dir / "no-cuda").c_str(), 1);
  auto req = make_request(k_calls_nv_expf);
  req.libdevice_path.clear();
  auto message = error_of(req);
  ::unsetenv("CUDA_HOME");
  EXPECT_NE(message.find("__nv_expf"), std::string::npos) << message;
  EXPECT_NE(message.find((m_dir / "no-cuda/nvvm/libdevice/libdevice.10.bc").string()),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"), std::string::npos)
      << message;
}

TEST_F(JitTest, LibdeviceFoundThroughCudaHome) {
  fs::path home = m_dir / "cuda";
  fs::create_directories(home / "nvvm/libdevice");
  fs::copy_file(k_bitcode_dir / "fake_libdevice.bc", home / "nvvm/libdevice/libdevice.10.bc");
  ::setenv("CUDA_HOME", home.c_str(), 1);
  auto req = make_request(k_calls_nv_expf, {fresh()});
  req.libdevice_path.clear();
  auto body = kernel_body(jit::compile(req).ptx, k_calls_nv_expf);
  ::unsetenv("CUDA_HOME");
  EXPECT_NE(body.find("0f44610000"), std::string::npos) << body; // the fake one was found first
}

TEST_F(JitTest, LibdeviceIsLinkedInlinedAndReflected) {
  auto req = make_request(k_calls_nv_expf);
  req.libdevice_path = k_bitcode_dir / "fake_libdevice.bc";
  auto ptx = jit::compile(req).ptx;
  auto body = kernel_body(ptx, k_calls_nv_expf);
  EXPECT_EQ(count(ptx, "call"), 0u) << ptx;
  EXPECT_EQ(count(ptx, ".func"), 0u) << ptx; // inlined, nothing left over
  EXPECT_EQ(count(ptx, "__nvvm_reflect"), 0u) << ptx;
  EXPECT_EQ(count(ptx, "__nv_unused_marker"), 0u) << ptx;
  EXPECT_NE(body.find("0f44610000"), std::string::npos) << body; // __CUDA_ARCH = 900
  EXPECT_NE(body.find("0f40000000"), std::string::npos) << body; // __CUDA_FTZ = 0

  req.arch = "sm_80";
  body = kernel_body(jit::compile(req).ptx, k_calls_nv_expf);
  EXPECT_NE(body.find("0f44480000"), std::string::npos) << body; // __CUDA_ARCH = 800
}

TEST_F(JitTest, MathIntrinsicsBecomeLibdeviceCalls) {
  auto req = make_request(k_calls_expf);
  req.libdevice_path = k_bitcode_dir / "fake_libdevice.bc";
  auto body = kernel_body(jit::compile(req).ptx, k_calls_expf);
  EXPECT_EQ(count(body, "call"), 0u) << body;
  EXPECT_NE(body.find("0f44610000"), std::string::npos) << body; // fake __nv_expf

  req.kernel = k_calls_sincos;
  body = kernel_body(jit::compile(req).ptx, k_calls_sincos);
  EXPECT_EQ(count(body, "call"), 0u) << body;
  EXPECT_NE(body.find("0f40400000"), std::string::npos) << body;         // fake __nv_sinf: * 3
  EXPECT_NE(body.find("0f40A00000"), std::string::npos) << body;         // fake __nv_cosf: * 5
  EXPECT_NE(body.find("0d401C000000000000"), std::string::npos) << body; // fake __nv_pow: + 7
}

TEST_F(JitTest, MathIntrinsicLowering) {
  // Without libdevice the error lists what the lowering asked libdevice for.
  auto message = error_of(make_request("math", {}, "math_intrinsics.bc"));
  auto listed = [&](const std::string& name) {
    return std::regex_search(message, std::regex("\\b" + name + "\\b"));
  };
  for (const char* name : {"__nv_expf", "__nv_fast_expf", "__nv_exp2", "__nv_cos", "__nv_powf",
                           "__nv_powif", "__nv_powi", "__nv_logf", "__nv_sincosf", "__nv_modf",
                           "__nv_llrintf", "__nv_llround", "__nv_atan2"})
    EXPECT_TRUE(listed(name)) << name << ": " << message;
  // What the backend selects itself: exp2 of float, and sin of float with afn (sin.approx).
  for (const char* name : {"__nv_exp2f", "__nv_sinf", "__nv_fast_sinf"})
    EXPECT_FALSE(listed(name)) << name << ": " << message;

  std::string libdevice = real_libdevice();
  if (libdevice.empty()) return;
  auto req = make_request("math", {}, "math_intrinsics.bc");
  req.libdevice_path = libdevice;
  auto ptx = jit::compile(req).ptx;
  EXPECT_EQ(count(ptx, ".extern"), 0u) << ptx;
  EXPECT_NE(ptx.find("sin.approx.f32"), std::string::npos) << ptx;
  std::string ptxas = SYCLONE_JIT_TEST_PTXAS;
  if (ptxas.empty()) return;
  fs::path file = m_dir / "math.ptx";
  std::ofstream(file) << ptx;
  EXPECT_EQ(run({ptxas, "-arch=sm_90", file.string(), "-o", (m_dir / "math.cubin").string()},
                m_dir / "ptxas.log"),
            0)
      << read_text(m_dir / "ptxas.log");
}

TEST_F(JitTest, LazyImageLoadsOnlyWhatTheKernelReaches) {
  // The plugin's annotations name both kernels' functors and host-only code needs operator
  // new: neither stops either kernel (the image is read lazily, one kernel's code at a time).
  for (const auto& [kernel, value] : {std::pair{"first", "11"}, std::pair{"second", "22"}}) {
    auto ptx = jit::compile(make_request(kernel, {}, "lazy_image.bc")).ptx;
    EXPECT_NE(ptx.find(".entry " + std::string(kernel)), std::string::npos) << ptx;
    EXPECT_NE(ptx.find(std::string(value) + ";"), std::string::npos) << ptx;
    EXPECT_EQ(ptx.find("_Znwm"), std::string::npos) << ptx;
  }
}

TEST_F(JitTest, CMathFunctionsResolveToLibdevice) {
  // Built with -fmath-errno: std::exp stays a call of the C library's expf.
  auto req = make_request(k_calls_expf, {}, "kernels_errno.bc");
  req.libdevice_path = k_bitcode_dir / "fake_libdevice.bc";
  auto body = kernel_body(jit::compile(req).ptx, k_calls_expf);
  EXPECT_EQ(count(body, "call"), 0u) << body;
  EXPECT_NE(body.find("0f44610000"), std::string::npos) << body;
}

TEST_F(JitTest, KernelsWithoutMathNeedNoLibdevice) {
  // The image holds kernels calling libdevice; they are dropped before anything is linked.
  EXPECT_NO_THROW(jit::compile(make_request(k_spec_branch)));
}

TEST_F(JitTest, ImagesCompiledWithoutOptimization) {
  // -O0: the name reaches the marker through an uninlined spec_constant_name<S>() call.
  auto req = make_request(k_spec_branch, {value_of(k_use_multiply, true)}, "kernels_O0.bc");
  auto ptx = jit::compile(req).ptx;
  EXPECT_NE(ptx.find(".entry " + k_spec_branch + "("), std::string::npos);
  EXPECT_EQ(ptx.find("__syclone_spec_constant"), std::string::npos) << ptx;
  req.spec_constants = {value_of(k_use_multiply, 2)};
  EXPECT_NE(error_of(req).find("has 1 bytes"), std::string::npos) << error_of(req);
}

TEST_F(JitTest, CudaLibdevice) {
  std::string libdevice = real_libdevice();
  if (libdevice.empty()) GTEST_SKIP() << "no CUDA toolkit";
  for (const auto& kernel : {k_calls_nv_expf, k_calls_expf, k_calls_sincos}) {
    auto req = make_request(kernel);
    req.libdevice_path = libdevice;
    auto ptx = jit::compile(req).ptx;
    auto body = kernel_body(ptx, kernel);
    EXPECT_EQ(count(ptx, "__nvvm_reflect"), 0u) << ptx;
    EXPECT_EQ(count(ptx, ".extern"), 0u) << ptx; // everything called is in the PTX
    if (kernel != k_calls_sincos) {
      EXPECT_EQ(count(ptx, "call"), 0u) << ptx; // expf inlines (pow keeps a helper function)
      EXPECT_NE(body.find("ex2.approx"), std::string::npos) << body;
    }
  }
  // Found without being named, in the standard places.
  auto req = make_request(k_calls_expf);
  req.libdevice_path.clear();
  EXPECT_NO_THROW(jit::compile(req));
}

// ptxas, NVIDIA's PTX assembler, where a CUDA toolkit is installed: the PTX must assemble.
TEST_F(JitTest, PtxasAcceptsThePtx) {
  std::string ptxas = SYCLONE_JIT_TEST_PTXAS;
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas";
  std::string libdevice = real_libdevice();
  struct variant {
    std::string arch, ptx_feature;
  };
  for (const auto& [arch, feature] :
       {variant{"sm_90", ""}, variant{"sm_80", ""}, variant{"sm_90", "+ptx85"}}) {
    // Each kernel on its own: the image also holds Sm90Only, which sm_80 cannot run.
    for (const auto& kernel :
         {k_spec_loop, k_runtime_loop, k_spec_branch, k_spec_struct, k_spec_double, k_calls_nv_expf,
          k_calls_expf, k_calls_sincos, k_arch_specific}) {
      auto req = make_request(kernel, {value_of(k_trip_count, 10), value_of(k_use_multiply, true)});
      req.arch = arch;
      req.ptx_version_feature = feature;
      req.libdevice_path =
          libdevice.empty() ? (k_bitcode_dir / "fake_libdevice.bc").string() : libdevice;
      fs::path ptx = m_dir / (kernel + "-" + arch + ".ptx");
      std::ofstream(ptx) << jit::compile(req).ptx;
      fs::path log = m_dir / "ptxas.log";
      EXPECT_EQ(
          run({ptxas, "-arch=" + arch, ptx.string(), "-o", (m_dir / "out.cubin").string()}, log), 0)
          << kernel << " " << arch << feature << ": " << read_text(log);
    }
  }
}

TEST_F(JitTest, DeviceCodeChoosesByArchitecture) {
  auto req = make_request(k_arch_specific);
  auto hopper = kernel_body(jit::compile(req).ptx, k_arch_specific);
  EXPECT_NE(hopper.find("prefetch.global.L2::evict_last"), std::string::npos) << hopper;
  EXPECT_EQ(hopper.find("prefetch.global.L2 "), std::string::npos) << hopper;
  req.arch = "sm_80";
  auto ampere = kernel_body(jit::compile(req).ptx, k_arch_specific);
  EXPECT_EQ(ampere.find("evict_last"), std::string::npos) << ampere;
  EXPECT_NE(ampere.find("prefetch.global.L2 "), std::string::npos) << ampere;
  // Also from an image compiled with -O0, whose functions LLVM would otherwise leave alone.
  req = make_request(k_arch_specific, {}, "kernels_O0.bc");
  req.arch = "sm_80";
  auto unoptimized = jit::compile(req).ptx;
  EXPECT_EQ(unoptimized.find("evict_last"), std::string::npos) << unoptimized;
}

TEST_F(JitTest, LlvmFatalErrorsBecomeErrors) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "a recovered compilation leaks its LLVM objects on purpose";
#endif
#endif
  // LLVM ends the process when it cannot select an instruction; the JIT turns that into an
  // error, and the process compiles on.
  auto req = make_request(k_sm90_only);
  req.arch = "sm_80";
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto message = error_of(req);
    EXPECT_NE(message.find("LLVM failed compiling kernel `" + k_sm90_only + "` for sm_80"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("Cannot select"), std::string::npos) << message;
    EXPECT_NE(message.find("__CUDA_ARCH"), std::string::npos) << message;
  }
  req.arch = "sm_90";
  EXPECT_NE(jit::compile(req).ptx.find("evict_last"), std::string::npos);
  EXPECT_NO_THROW(jit::compile(make_request(k_spec_loop, {fresh()})));
}

TEST_F(JitTest, MemoryCache) {
  auto req = make_request(k_spec_loop, {fresh()});
  auto first = jit::compile(req);
  auto second = jit::compile(req);
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(first.ptx, second.ptx);
}

TEST_F(JitTest, CacheCanBeTurnedOff) {
  ::setenv("SYCLONE_JIT_CACHE", "0", 1);
  auto req = make_request(k_spec_loop, {fresh()});
  EXPECT_FALSE(jit::compile(req).from_cache);
  EXPECT_FALSE(jit::compile(req).from_cache);
  EXPECT_FALSE(fs::exists(m_dir / "cache" / "jit"));
}

TEST_F(JitTest, DiskCacheServesASecondProcess) {
  std::string bitcode = (k_bitcode_dir / "kernels.bc").string();
  std::string first_ptx = (m_dir / "first.ptx").string();
  std::string second_ptx = (m_dir / "second.ptx").string();
  std::string value = k_trip_count + "=10";
  EXPECT_NE(run_child({bitcode, k_spec_loop, "sm_90", first_ptx, value}).find("from_cache=0"),
            std::string::npos);
  EXPECT_NE(run_child({bitcode, k_spec_loop, "sm_90", second_ptx, value}).find("from_cache=1"),
            std::string::npos);
  EXPECT_EQ(read_text(first_ptx), read_text(second_ptx));
  EXPECT_FALSE(read_text(first_ptx).empty());
  // A different value is a different entry.
  EXPECT_NE(run_child({bitcode, k_spec_loop, "sm_90", second_ptx, k_trip_count + "=11"})
                .find("from_cache=0"),
            std::string::npos);
  // No temporary files are left behind.
  for (const auto& entry : fs::directory_iterator(m_dir / "cache" / "jit"))
    EXPECT_EQ(entry.path().extension(), ".ptx") << entry.path();
}

TEST_F(JitTest, DamagedCacheEntriesAreRebuilt) {
  std::string bitcode = (k_bitcode_dir / "kernels.bc").string();
  std::string reference = (m_dir / "reference.ptx").string();
  std::string rebuilt = (m_dir / "rebuilt.ptx").string();
  run_child({bitcode, k_spec_branch, "sm_90", reference});
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(m_dir / "cache" / "jit"))
    entries.push_back(entry.path());
  ASSERT_EQ(entries.size(), 1u);
  const fs::path entry = entries[0];
  std::string good = read_text(entry);

  auto damage_and_check = [&](const std::string& damaged) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << damaged;
    EXPECT_NE(run_child({bitcode, k_spec_branch, "sm_90", rebuilt}).find("from_cache=0"),
              std::string::npos);
    EXPECT_EQ(read_text(reference), read_text(rebuilt));
    EXPECT_EQ(read_text(entry), good); // written again
    EXPECT_NE(run_child({bitcode, k_spec_branch, "sm_90", rebuilt}).find("from_cache=1"),
              std::string::npos);
  };
  std::string flipped = good;
  flipped[flipped.size() - 10] ^= 0x20; // one character of the PTX
  damage_and_check(flipped);
  damage_and_check(good.substr(0, good.size() / 2)); // truncated
  damage_and_check("");
  damage_and_check("garbage\n");
}

TEST_F(JitTest, DumpWritesThePtx) {
  ::setenv("SYCLONE_JIT_DUMP", (m_dir / "dump").c_str(), 1);
  auto result = jit::compile(make_request(k_spec_loop, {fresh()}));
  ::unsetenv("SYCLONE_JIT_DUMP");
  std::vector<fs::path> ptx_files, ir_files;
  for (const auto& entry : fs::directory_iterator(m_dir / "dump"))
    (entry.path().extension() == ".ptx" ? ptx_files : ir_files).push_back(entry.path());
  ASSERT_EQ(ptx_files.size(), 1u);
  EXPECT_TRUE(std::regex_match(ptx_files[0].filename().string(),
                               std::regex(k_spec_loop + "-sm_90-[0-9a-f]{32}\\.ptx")))
      << ptx_files[0];
  EXPECT_EQ(read_text(ptx_files[0]), result.ptx);
  ASSERT_EQ(ir_files.size(), 1u);
  EXPECT_EQ(ir_files[0].extension(), ".ll");
  EXPECT_TRUE(std::regex_search(read_text(ir_files[0]),
                                std::regex("define .*ptx_kernel void @" + k_spec_loop)));
}

TEST_F(JitTest, ConcurrentCompilations) {
  std::vector<std::thread> threads;
  std::vector<std::string> ptx(4);
  std::vector<std::string> errors(4);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      try {
        ptx[i] =
            jit::compile(make_request(k_spec_loop, {value_of(k_trip_count, 4 + i), fresh()})).ptx;
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(errors[i], "");
    EXPECT_EQ(count(kernel_body(ptx[i], k_spec_loop), "fma.rn.f32"), std::size_t(4 + i));
  }
}

// --compile mode: one compilation, as a separate process would do it.
int compile_once(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr,
                 "usage: %s --compile <bitcode> <kernel> <arch> <out.ptx> [<name>=<int>]...\n",
                 argv[0]);
    return 2;
  }
  auto bitcode = read_bytes(argv[2]);
  jit::request req;
  req.bitcode = bitcode;
  req.kernel = argv[3];
  req.arch = argv[4];
  for (int i = 6; i < argc; ++i) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    req.spec_constants.push_back(value_of(arg.substr(0, eq), std::stoi(arg.substr(eq + 1))));
  }
  try {
    auto result = jit::compile(req);
    std::ofstream(argv[5], std::ios::binary) << result.ptx;
    std::printf("from_cache=%d ms=%.3f\n", result.from_cache ? 1 : 0, result.milliseconds);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--compile") == 0) return compile_once(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
