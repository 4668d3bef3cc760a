// sycl_ext_intel_device_info on the CUDA backend without a GPU: this program runs against the
// fake libcuda.so.1 (tests/cuda_unit/fake_cuda.cpp), whose device answers cuDeviceGetAttribute
// (PCI domain 0, bus 0xc1, device 0; a 2619 MHz, 5120-bit memory), cuDeviceGetUuid and
// cuMemGetInfo (80 GiB less what is allocated, 1 GiB kept back). Every query goes through the
// public API (device::get_info, device::has), so the runtime's and the plugin's parts are both
// checked: the values, the aspects, the error without an aspect, free memory following USM
// allocations and, with SYCLONE_DEVICE_MEMORY_LIMIT (the second ctest entry), the cap.
#include <sycl/sycl.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

namespace ii = sycl::ext::intel::info::device;
using sycl::aspect;

template <typename Desc>
std::string refusal(const sycl::device& d) {
  try {
    (void)d.get_info<Desc>();
  } catch (const sycl::exception& e) {
    if (e.code() == sycl::errc::feature_not_supported) return e.what();
  }
  return {};
}
} // namespace

int main() {
  sycl::device d{sycl::gpu_selector_v};
  CHECK(d.get_backend() == sycl::backend::ext_oneapi_cuda);
  const char* limit_text = std::getenv("SYCLONE_DEVICE_MEMORY_LIMIT");
  const std::uint64_t limit = limit_text ? std::strtoull(limit_text, nullptr, 10) << 20 : 0;

  // The driver's answers, as the extension asks for them.
  CHECK(d.has(aspect::ext_intel_pci_address));
  CHECK(d.get_info<ii::pci_address>() == "0000:c1:00.0");
  CHECK(d.has(aspect::ext_intel_device_info_uuid));
  const std::array<unsigned char, 16> uuid = {0x5f, 0xa3, 0xc1, 0xd2, 0x0b, 0x4e, 0x4c, 0x6f,
                                              0x9a, 0x21, 0x7e, 0x8d, 0x3b, 0x2c, 0x1f, 0x00};
  CHECK(d.get_info<ii::uuid>() == uuid);
  CHECK(d.has(aspect::ext_intel_memory_clock_rate) && d.get_info<ii::memory_clock_rate>() == 2619);
  CHECK(d.has(aspect::ext_intel_memory_bus_width) && d.get_info<ii::memory_bus_width>() == 5120);
  CHECK(d.has(aspect::ext_intel_max_mem_bandwidth) &&
        d.get_info<ii::max_mem_bandwidth>() == 3352320000000ull);
  // Its PCI device id would come from the operating system's listing of that address, where no
  // NVIDIA device is on a machine without the fake's GPU: no aspect, and the query says so.
  const bool listed = [] {
    std::ifstream in("/sys/bus/pci/devices/0000:c1:00.0/vendor");
    unsigned long vendor = 0;
    in >> std::hex >> vendor;
    return in && vendor == 0x10de;
  }();
  CHECK(d.has(aspect::ext_intel_device_id) == listed);
  if (!listed) {
    std::string why = refusal<ii::device_id>(d);
    CHECK(why.find("ext_intel_device_id") != std::string::npos);
    CHECK(why.find("Fake NVIDIA H100") != std::string::npos);
  }
  // What only Intel GPUs or a management library answer.
  CHECK(!d.has(aspect::ext_intel_gpu_eu_count) && !refusal<ii::gpu_eu_count>(d).empty());
  CHECK(!d.has(aspect::ext_intel_gpu_slices) && !refusal<ii::gpu_slices>(d).empty());
  CHECK(!d.has(aspect::ext_intel_fan_speed) && !refusal<ii::fan_speed>(d).empty());
  CHECK(!d.has(aspect::ext_intel_power_limits) && !refusal<ii::max_power_limit>(d).empty());
  CHECK(!refusal<ii::current_clock_throttle_reasons>(d).empty());

  // Free memory follows device and shared allocations, within the limit where one is set.
  CHECK(d.has(aspect::ext_intel_free_memory));
  sycl::queue q(d);
  const std::uint64_t before = d.get_info<ii::free_memory>();
  CHECK(before == (limit ? limit : 79ull << 30));
  CHECK(before <= d.get_info<sycl::info::device::global_mem_size>());
  const std::size_t bytes = 16 << 20;
  void* p = sycl::malloc_device(bytes, q);
  void* s = sycl::malloc_shared(bytes, q);
  CHECK(p && s);
  CHECK(d.get_info<ii::free_memory>() == before - 2 * bytes);
  sycl::free(p, q);
  CHECK(d.get_info<ii::free_memory>() == before - bytes);
  sycl::free(s, q);
  CHECK(d.get_info<ii::free_memory>() == before);
  // Host allocations are not the device's memory.
  void* h = sycl::malloc_host(bytes, q);
  CHECK(h && d.get_info<ii::free_memory>() == before);
  sycl::free(h, q);

  if (g_failures == 0) std::printf("ok\n");
  return g_failures;
}
