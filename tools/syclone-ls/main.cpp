// syclone-ls: the platforms and devices this machine offers, with what a user picks a device by.
#include "runtime/plugins.hpp"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace {
const char* type_name(sycl::info::device_type t) {
  switch (t) {
  case sycl::info::device_type::cpu:
    return "cpu";
  case sycl::info::device_type::gpu:
    return "gpu";
  case sycl::info::device_type::accelerator:
    return "accelerator";
  default:
    return "other";
  }
}
const char* backend_name(sycl::backend b) {
  switch (b) {
  case sycl::backend::syclone_host:
    return "host";
  case sycl::backend::ext_oneapi_cuda:
    return "cuda";
  default:
    return "?";
  }
}
std::string aspects(const sycl::device& d) {
  static const std::pair<sycl::aspect, const char*> names[] = {
      {sycl::aspect::cpu, "cpu"},
      {sycl::aspect::gpu, "gpu"},
      {sycl::aspect::fp16, "fp16"},
      {sycl::aspect::fp64, "fp64"},
      {sycl::aspect::atomic64, "atomic64"},
      {sycl::aspect::queue_profiling, "queue_profiling"},
      {sycl::aspect::usm_device_allocations, "usm_device_allocations"},
      {sycl::aspect::usm_host_allocations, "usm_host_allocations"},
      {sycl::aspect::usm_shared_allocations, "usm_shared_allocations"},
      {sycl::aspect::usm_system_allocations, "usm_system_allocations"},
      {sycl::aspect::ext_oneapi_is_composite, "ext_oneapi_is_composite"},
      {sycl::aspect::ext_oneapi_is_component, "ext_oneapi_is_component"},
      {sycl::aspect::ext_oneapi_bfloat16_math_functions, "ext_oneapi_bfloat16_math_functions"},
      {sycl::aspect::ext_intel_pci_address, "ext_intel_pci_address"},
      {sycl::aspect::ext_intel_device_id, "ext_intel_device_id"},
      {sycl::aspect::ext_intel_device_info_uuid, "ext_intel_device_info_uuid"},
      {sycl::aspect::ext_intel_free_memory, "ext_intel_free_memory"},
      {sycl::aspect::ext_intel_memory_clock_rate, "ext_intel_memory_clock_rate"},
      {sycl::aspect::ext_intel_memory_bus_width, "ext_intel_memory_bus_width"},
      {sycl::aspect::ext_intel_max_mem_bandwidth, "ext_intel_max_mem_bandwidth"},
      {sycl::aspect::ext_oneapi_ballot_group, "ext_oneapi_ballot_group"},
      {sycl::aspect::ext_oneapi_fixed_size_group, "ext_oneapi_fixed_size_group"},
      {sycl::aspect::ext_oneapi_opportunistic_group, "ext_oneapi_opportunistic_group"},
      {sycl::aspect::ext_oneapi_tangle_group, "ext_oneapi_tangle_group"},
  };
  std::string out;
  for (auto& [a, n] : names)
    if (d.has(a)) out += (out.empty() ? "" : " ") + std::string(n);
  return out;
}
// sycl_ext_intel_device_info's answers, where the device has them.
void intel_device_info(const sycl::device& d) {
  namespace ii = sycl::ext::intel::info::device;
  if (d.has(sycl::aspect::ext_intel_pci_address))
    std::printf("    PCI address:          %s\n", d.get_info<ii::pci_address>().c_str());
  if (d.has(sycl::aspect::ext_intel_device_id))
    std::printf("    PCI device id:        0x%04x\n", d.get_info<ii::device_id>());
  if (d.has(sycl::aspect::ext_intel_device_info_uuid)) {
    auto u = d.get_info<ii::uuid>();
    std::printf("    UUID:                 ");
    for (int i = 0; i < 16; ++i)
      std::printf("%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
    std::printf("\n");
  }
  if (d.has(sycl::aspect::ext_intel_free_memory))
    std::printf("    free memory:          %.1f GiB\n",
                double(d.get_info<ii::free_memory>()) / (1 << 30));
  if (d.has(sycl::aspect::ext_intel_memory_clock_rate) &&
      d.has(sycl::aspect::ext_intel_memory_bus_width))
    std::printf("    memory:               %u MHz, %u-bit bus\n",
                d.get_info<ii::memory_clock_rate>(), d.get_info<ii::memory_bus_width>());
  if (d.has(sycl::aspect::ext_intel_max_mem_bandwidth))
    std::printf("    peak bandwidth:       %.1f GB/s\n",
                double(d.get_info<ii::max_mem_bandwidth>()) / 1e9);
}
} // namespace

int main(int argc, char** argv) {
  bool verbose = argc > 1 && (!std::strcmp(argv[1], "-v") || !std::strcmp(argv[1], "--verbose"));
  if (argc > 1 && !verbose) {
    std::printf("usage: syclone-ls [-v]\n  lists SYCL platforms and devices; -v adds details\n");
    return argc > 1 && !std::strcmp(argv[1], "--help") ? 0 : 2;
  }
  try {
    sycl::device chosen{sycl::default_selector_v};
    int pi = 0;
    for (const auto& p : sycl::platform::get_platforms()) {
      int di = 0;
      for (const auto& d : p.get_devices()) {
        std::printf("[%s:%s:%d] %s, %s%s\n", backend_name(d.get_backend()),
                    type_name(d.get_info<sycl::info::device::device_type>()), di,
                    p.get_info<sycl::info::platform::name>().c_str(),
                    d.get_info<sycl::info::device::name>().c_str(),
                    d == chosen ? "  (default)" : "");
        if (verbose) {
          auto wis = d.get_info<sycl::info::device::max_work_item_sizes<3>>();
          std::printf("    vendor:               %s\n",
                      d.get_info<sycl::info::device::vendor>().c_str());
          std::printf("    driver:               %s\n",
                      d.get_info<sycl::info::device::driver_version>().c_str());
          std::printf("    compute units:        %u\n",
                      d.get_info<sycl::info::device::max_compute_units>());
          std::printf("    max work-group size:  %zu\n",
                      d.get_info<sycl::info::device::max_work_group_size>());
          std::printf("    max work-item sizes:  %zu x %zu x %zu\n", wis[0], wis[1], wis[2]);
          std::printf("    global memory:        %.1f GiB\n",
                      double(d.get_info<sycl::info::device::global_mem_size>()) / (1 << 30));
          std::printf("    local memory:         %llu KiB\n",
                      (unsigned long long)d.get_info<sycl::info::device::local_mem_size>() / 1024);
          std::string sg;
          for (auto s : d.get_info<sycl::info::device::sub_group_sizes>())
            sg += (sg.empty() ? "" : " ") + std::to_string(s);
          std::printf("    sub-group sizes:      %s\n", sg.c_str());
          intel_device_info(d);
          std::printf("    aspects:              %s\n", aspects(d).c_str());
        }
        ++di;
      }
      ++pi;
    }
    if (pi == 0) std::printf("no SYCL platforms found\n");
    if (verbose)
      for (const auto& st : syclone::runtime::plugin_statuses())
        std::printf("backend %s: %s\n", st.name.c_str(),
                    st.loaded ? "loaded" : ("not available: " + st.reason).c_str());
  } catch (const sycl::exception& e) {
    std::fprintf(stderr, "syclone-ls: %s\n", e.what());
    return 1;
  }
  return 0;
}
