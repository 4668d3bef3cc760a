// sycl_ext_intel_device_info on every device the program sees: each descriptor answers exactly
// where its aspect is listed (info::device::aspects and device::has agree) and throws
// errc::feature_not_supported elsewhere; the answers agree with each other and with the operating
// system: free memory against /proc/meminfo (host) and against allocations a kernel fills
// (GPU: it drops by what was allocated, and comes back), the PCI address and device id against
// /sys/bus/pci, the peak bandwidth against clock and bus width, UUIDs distinct. The deprecated
// info::device::ext_intel_* names are the same queries.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#if !defined(SYCL_EXT_INTEL_DEVICE_INFO) || SYCL_EXT_INTEL_DEVICE_INFO < 6
#error "SYCL_EXT_INTEL_DEVICE_INFO is missing or below version 6"
#endif

namespace ii = sycl::ext::intel::info::device;
using sycl::aspect;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static_assert(std::is_same_v<sycl::info::device::ext_intel_pci_address, ii::pci_address>);
static_assert(std::is_same_v<sycl::info::device::ext_intel_device_info_uuid, ii::uuid>);
static_assert(
    std::is_same_v<sycl::info::device::ext_intel_max_mem_bandwidth, ii::max_mem_bandwidth>);
static_assert(std::is_same_v<sycl::info::device::ext_intel_gpu_eu_count, ii::gpu_eu_count>);
#pragma GCC diagnostic pop
static_assert(std::is_same_v<ii::uuid::return_type, std::array<unsigned char, 16>>);
static_assert(std::is_same_v<ii::free_memory::return_type, std::uint64_t>);
static_assert(std::is_same_v<ii::memory_clock_rate::return_type, std::uint32_t>);
static_assert(std::is_same_v<ii::current_clock_throttle_reasons::return_type,
                             std::vector<sycl::ext::intel::throttle_reason>>);
// Every device answers free memory; no device has an Intel GPU's layout.
static_assert(sycl::all_devices_have_v<aspect::ext_intel_free_memory>);
static_assert(sycl::any_device_has_v<aspect::ext_intel_pci_address>);
static_assert(!sycl::any_device_has_v<aspect::ext_intel_gpu_eu_count>);
static_assert(!sycl::any_device_has_v<aspect::ext_intel_gpu_hw_threads_per_eu>);

namespace {

std::string name(const sycl::device& d) {
  return d.get_info<sycl::info::device::name>();
}

// Whether get_info<Desc> throws errc::feature_not_supported.
template <typename Desc>
bool refused(const sycl::device& d) {
  try {
    (void)d.get_info<Desc>();
  } catch (const sycl::exception& e) {
    return e.code() == sycl::errc::feature_not_supported;
  }
  return false;
}

// A query answers iff the device has its aspect; without it, it throws as the extension says.
template <typename Desc>
void answers_iff(const sycl::device& d, aspect a, const char* what) {
  std::vector<aspect> listed = d.get_info<sycl::info::device::aspects>();
  bool in_list = false;
  for (aspect x : listed) in_list |= x == a;
  if (in_list != d.has(a)) {
    std::printf("FAIL: %s: aspect for %s: has() and info::device::aspects disagree\n",
                name(d).c_str(), what);
    ++failures;
  }
  if (!d.has(a) && !refused<Desc>(d)) {
    std::printf("FAIL: %s: %s without its aspect did not throw feature_not_supported\n",
                name(d).c_str(), what);
    ++failures;
  }
}

std::uint64_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

// The contents of /sys/bus/pci/devices/<address>/<file> as a number, or 0.
unsigned long sysfs_hex(const std::string& address, const char* file) {
  std::ifstream in("/sys/bus/pci/devices/" + address + "/" + file);
  unsigned long v = 0;
  in >> std::hex >> v;
  return in ? v : 0;
}

bool bdf_format(const std::string& s) {
  // dddd:bb:dd.f, hexadecimal (the domain may have more digits).
  auto colon1 = s.find(':'), colon2 = s.rfind(':'), dot = s.rfind('.');
  if (colon1 == std::string::npos || colon1 == colon2 || dot == std::string::npos) return false;
  if (colon1 < 4 || colon2 - colon1 != 3 || dot - colon2 != 3 || s.size() - dot != 2) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (i != colon1 && i != colon2 && i != dot &&
        !(std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return s[s.size() - 1] <= '7';
}

// Fills `count` bytes of device memory with a kernel and checks them on the host.
bool fill_on_device(sycl::queue& q, unsigned char* p, std::size_t count) {
  q.parallel_for(sycl::range<1>(count / 4), [=](sycl::id<1> i) {
     reinterpret_cast<std::uint32_t*>(p)[i] = static_cast<std::uint32_t>(i[0] * 3u);
   }).wait();
  std::vector<std::uint32_t> back(4096);
  const std::size_t probes[] = {0, count / 4 / 2, count / 4 - back.size()};
  for (std::size_t at : probes) {
    q.memcpy(back.data(), reinterpret_cast<std::uint32_t*>(p) + at, back.size() * 4).wait();
    for (std::size_t k = 0; k < back.size(); ++k)
      if (back[k] != static_cast<std::uint32_t>((at + k) * 3u)) return false;
  }
  return true;
}

void check_device(const sycl::device& d, std::set<std::array<unsigned char, 16>>& uuids) {
  std::printf("%s\n", name(d).c_str());
  answers_iff<ii::device_id>(d, aspect::ext_intel_device_id, "device_id");
  answers_iff<ii::uuid>(d, aspect::ext_intel_device_info_uuid, "uuid");
  answers_iff<ii::pci_address>(d, aspect::ext_intel_pci_address, "pci_address");
  answers_iff<ii::max_mem_bandwidth>(d, aspect::ext_intel_max_mem_bandwidth, "max_mem_bandwidth");
  answers_iff<ii::free_memory>(d, aspect::ext_intel_free_memory, "free_memory");
  answers_iff<ii::memory_clock_rate>(d, aspect::ext_intel_memory_clock_rate, "memory_clock_rate");
  answers_iff<ii::memory_bus_width>(d, aspect::ext_intel_memory_bus_width, "memory_bus_width");
  answers_iff<ii::current_clock_throttle_reasons>(
      d, aspect::ext_intel_current_clock_throttle_reasons, "current_clock_throttle_reasons");
  answers_iff<ii::fan_speed>(d, aspect::ext_intel_fan_speed, "fan_speed");
  answers_iff<ii::min_power_limit>(d, aspect::ext_intel_power_limits, "min_power_limit");
  answers_iff<ii::max_power_limit>(d, aspect::ext_intel_power_limits, "max_power_limit");
  // An Intel GPU's layout: no syclone device has it.
  for (aspect a :
       {aspect::ext_intel_gpu_eu_count, aspect::ext_intel_gpu_eu_simd_width,
        aspect::ext_intel_gpu_slices, aspect::ext_intel_gpu_subslices_per_slice,
        aspect::ext_intel_gpu_eu_count_per_subslice, aspect::ext_intel_gpu_hw_threads_per_eu})
    EXPECT(!d.has(a));
  EXPECT(refused<ii::gpu_eu_count>(d));
  EXPECT(refused<ii::gpu_eu_simd_width>(d));
  EXPECT(refused<ii::gpu_slices>(d));
  EXPECT(refused<ii::gpu_subslices_per_slice>(d));
  EXPECT(refused<ii::gpu_eu_count_per_subslice>(d));
  EXPECT(refused<ii::gpu_hw_threads_per_eu>(d));

  // Free memory: every device; at most the device's memory.
  EXPECT(d.has(aspect::ext_intel_free_memory));
  const std::uint64_t global = d.get_info<sycl::info::device::global_mem_size>();
  std::uint64_t free_now = d.get_info<ii::free_memory>();
  std::printf("  free memory %.2f of %.2f GiB\n", double(free_now) / (1 << 30),
              double(global) / (1 << 30));
  EXPECT(free_now > 0 && free_now <= global);

  sycl::queue q(d);
  if (d.is_cpu()) {
    // The host: what the operating system says is available, read just before and after (other
    // processes allocate meanwhile: a margin of 256 MiB).
    std::uint64_t before = meminfo_available();
    std::uint64_t answer = d.get_info<ii::free_memory>();
    std::uint64_t after = meminfo_available();
    const std::uint64_t margin = 256ull << 20;
    EXPECT(before > 0 && after > 0);
    EXPECT(answer + margin >= std::min(before, after) &&
           answer <= std::max(before, after) + margin);
    // No PCI address, device id, UUID or memory clock for the CPU.
    EXPECT(
        !d.has(aspect::ext_intel_pci_address) && !d.has(aspect::ext_intel_device_id) &&
        !d.has(aspect::ext_intel_device_info_uuid) && !d.has(aspect::ext_intel_memory_clock_rate) &&
        !d.has(aspect::ext_intel_memory_bus_width) && !d.has(aspect::ext_intel_max_mem_bandwidth));
    // A kernel still computes with what the query reported available.
    const std::size_t bytes = 64ull << 20;
    EXPECT(answer > bytes);
    auto* p = sycl::malloc_device<unsigned char>(bytes, q);
    EXPECT(p && fill_on_device(q, p, bytes));
    sycl::free(p, q);
  }

  if (d.is_gpu()) {
    // Device memory a kernel fills is no longer free; once freed it is again (other programs
    // on the GPU could change it meanwhile: the margins are half the allocation).
    const std::size_t bytes = 512ull << 20;
    if (free_now > 2 * bytes) {
      std::uint64_t before = d.get_info<ii::free_memory>();
      auto* p = sycl::malloc_device<unsigned char>(bytes, q);
      EXPECT(p != nullptr);
      if (p) {
        EXPECT(fill_on_device(q, p, bytes));
        std::uint64_t during = d.get_info<ii::free_memory>();
        std::printf("  free memory %llu -> %llu with %zu bytes allocated\n",
                    (unsigned long long)before, (unsigned long long)during, bytes);
        EXPECT(during + bytes / 2 <= before);
        sycl::free(p, q);
        std::uint64_t again = d.get_info<ii::free_memory>();
        EXPECT(again >= during + bytes / 2);
      }
    }
    if (d.has(aspect::ext_intel_pci_address)) {
      std::string bdf = d.get_info<ii::pci_address>();
      std::printf("  PCI address %s\n", bdf.c_str());
      EXPECT(bdf_format(bdf));
      // The operating system lists the device at that address: then the device id is its PCI
      // device id, and NVIDIA's vendor id is the device's.
      const unsigned long vendor = sysfs_hex(bdf, "vendor");
      if (vendor != 0) {
        EXPECT(vendor == d.get_info<sycl::info::device::vendor_id>());
        EXPECT(d.has(aspect::ext_intel_device_id));
        if (d.has(aspect::ext_intel_device_id)) {
          std::printf("  PCI device id 0x%04x\n", d.get_info<ii::device_id>());
          EXPECT(d.get_info<ii::device_id>() == sysfs_hex(bdf, "device"));
        }
      } else {
        std::printf("  (the operating system shows no PCI device at %s)\n", bdf.c_str());
        EXPECT(!d.has(aspect::ext_intel_device_id));
      }
    }
    if (d.has(aspect::ext_intel_device_info_uuid)) {
      auto u = d.get_info<ii::uuid>();
      bool zero = true;
      for (unsigned char b : u) zero = zero && b == 0;
      EXPECT(!zero);
      EXPECT(uuids.insert(u).second); // each GPU its own
    }
    if (d.has(aspect::ext_intel_memory_clock_rate) && d.has(aspect::ext_intel_memory_bus_width)) {
      const std::uint64_t mhz = d.get_info<ii::memory_clock_rate>();
      const std::uint64_t bits = d.get_info<ii::memory_bus_width>();
      std::printf("  memory %llu MHz, %llu bits\n", (unsigned long long)mhz,
                  (unsigned long long)bits);
      EXPECT(mhz > 0 && bits > 0 && bits % 32 == 0);
      if (d.has(aspect::ext_intel_max_mem_bandwidth)) {
        // Two transfers per clock over the whole bus; the clock was rounded down to MHz.
        const std::uint64_t bw = d.get_info<ii::max_mem_bandwidth>();
        const std::uint64_t low = 2 * mhz * 1000000 * bits / 8;
        const std::uint64_t high = 2 * (mhz + 1) * 1000000 * bits / 8;
        std::printf("  peak bandwidth %.1f GB/s\n", double(bw) / 1e9);
        EXPECT(bw >= low && bw < high);
      }
    }
  }
}

} // namespace

int main() {
  std::set<std::array<unsigned char, 16>> uuids;
  for (const sycl::device& d : sycl::device::get_devices()) check_device(d, uuids);
  // Sub-devices answer as their parent does (the same memory).
  for (const sycl::device& d : sycl::device::get_devices(sycl::info::device_type::cpu)) {
    auto subs = d.create_sub_devices<sycl::info::partition_property::partition_equally>(1);
    EXPECT(!subs.empty() && subs[0].has(aspect::ext_intel_free_memory));
    if (!subs.empty()) EXPECT(subs[0].get_info<ii::free_memory>() > 0);
  }
  if (failures == 0) std::printf("ok\n");
  return failures;
}
