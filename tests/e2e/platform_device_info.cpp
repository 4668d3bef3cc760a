// SYCLONE_E2E_HOST_ONLY: checks the host CPU device itself (cpu selectors, cpu descriptors).
// SYCL 2020 4.6.2 platform, 4.6.4 device and their information descriptors (A.1, A.3) on the
// host device: enumeration, device types, every descriptor the host device must answer, and
// aspects.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_set>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

bool contains(const std::vector<sycl::aspect>& v, sycl::aspect a) {
  return std::find(v.begin(), v.end(), a) != v.end();
}

void test_platforms() {
  std::vector<sycl::platform> platforms = sycl::platform::get_platforms();
  CHECK(!platforms.empty());
  std::size_t devices_of_all_platforms = 0;
  for (const sycl::platform& p : platforms) {
    CHECK(!p.get_info<sycl::info::platform::name>().empty());
    CHECK(!p.get_info<sycl::info::platform::vendor>().empty());
    CHECK(!p.get_info<sycl::info::platform::version>().empty());
    CHECK(p.get_info<sycl::info::platform::profile>() == "FULL_PROFILE");
    (void)p.get_info<sycl::info::platform::extensions>();
    std::vector<sycl::device> devs = p.get_devices();
    CHECK(!devs.empty());
    devices_of_all_platforms += devs.size();
    for (const sycl::device& d : devs) {
      CHECK(d.get_platform() == p);
      CHECK(d.get_info<sycl::info::device::platform>() == p);
      CHECK(d.get_backend() == p.get_backend());
    }
    for (const sycl::device& d : p.get_devices(sycl::info::device_type::cpu)) CHECK(d.is_cpu());
    for (const sycl::device& d : p.get_devices(sycl::info::device_type::gpu)) CHECK(d.is_gpu());
    CHECK(p.get_devices(sycl::info::device_type::all).size() == devs.size());
  }
  CHECK(sycl::device::get_devices().size() == devices_of_all_platforms);
  CHECK(sycl::device::get_devices(sycl::info::device_type::all).size() == devices_of_all_platforms);

  // The host CPU is always present (DESIGN.md).
  std::vector<sycl::device> cpus = sycl::device::get_devices(sycl::info::device_type::cpu);
  CHECK(!cpus.empty());
  for (const sycl::device& d : cpus) CHECK(d.is_cpu() && !d.is_gpu() && !d.is_accelerator());
  for (const sycl::device& d : sycl::device::get_devices(sycl::info::device_type::gpu))
    CHECK(d.is_gpu() && !d.is_cpu());
  CHECK(sycl::device::get_devices(sycl::info::device_type::accelerator).empty());
  CHECK(sycl::device::get_devices(sycl::info::device_type::custom).empty());

  // The default platform is the platform of the default device.
  CHECK(sycl::platform() == sycl::device().get_platform());
  CHECK(sycl::platform(sycl::cpu_selector_v) == cpus.front().get_platform());
  CHECK(cpus.front().get_platform().has(sycl::aspect::cpu));
}

void test_device_descriptors(const sycl::device& d) {
  namespace di = sycl::info::device;
  std::string name = d.get_info<di::name>();
  CHECK(!name.empty());
  CHECK(!d.get_info<di::vendor>().empty());
  CHECK(!d.get_info<di::driver_version>().empty());
  CHECK(!d.get_info<di::version>().empty());
  CHECK(d.get_info<di::device_type>() == sycl::info::device_type::cpu);
  CHECK(d.get_info<di::max_compute_units>() >= 1);
  CHECK(d.get_info<di::is_available>());
  CHECK(d.get_info<di::max_work_item_dimensions>() >= 3);

  std::size_t wg = d.get_info<di::max_work_group_size>();
  CHECK(wg >= 1);
  sycl::range<1> s1 = d.get_info<di::max_work_item_sizes<1>>();
  sycl::range<2> s2 = d.get_info<di::max_work_item_sizes<2>>();
  sycl::range<3> s3 = d.get_info<di::max_work_item_sizes<3>>();
  CHECK(s1[0] >= 1 && s2[0] >= 1 && s2[1] >= 1 && s3[0] >= 1 && s3[1] >= 1 && s3[2] >= 1);
  // The fastest-varying (last) dimension is the same hardware dimension in every form.
  CHECK(s1[0] == s2[1] && s2[1] == s3[2]);
  CHECK(s2[0] == s3[1]);

  CHECK(d.get_info<di::local_mem_size>() > 0);
  CHECK(d.get_info<di::local_mem_type>() != sycl::info::local_mem_type::none);
  CHECK(d.get_info<di::global_mem_size>() > 0);
  CHECK(d.get_info<di::max_mem_alloc_size>() > 0);
  CHECK(d.get_info<di::max_mem_alloc_size>() <= d.get_info<di::global_mem_size>());
  CHECK(d.get_info<di::address_bits>() == 64);
  CHECK(d.get_info<di::global_mem_cache_line_size>() > 0);
  CHECK(d.get_info<di::mem_base_addr_align>() >= 8);
  // The host device splits into at most one sub-device per compute unit (tests/e2e/sub_devices).
  CHECK(d.get_info<di::partition_max_sub_devices>() == d.get_info<di::max_compute_units>());
  CHECK(!d.get_info<di::sub_group_sizes>().empty());
  CHECK(!d.get_info<di::single_fp_config>().empty());
  CHECK(d.get_info<di::profiling_timer_resolution>() >= 1);
  CHECK(d.get_info<di::preferred_vector_width_float>() >= 1);
  std::vector<sycl::memory_order> orders = d.get_info<di::atomic_memory_order_capabilities>();
  CHECK(std::find(orders.begin(), orders.end(), sycl::memory_order::relaxed) != orders.end());
  std::vector<sycl::memory_scope> scopes = d.get_info<di::atomic_memory_scope_capabilities>();
  CHECK(std::find(scopes.begin(), scopes.end(), sycl::memory_scope::work_group) != scopes.end());

  // Aspects: the list and has() agree for every aspect.
  std::vector<sycl::aspect> aspects = d.get_info<di::aspects>();
  CHECK(contains(aspects, sycl::aspect::cpu));
  CHECK(!contains(aspects, sycl::aspect::gpu));
  CHECK(contains(aspects, sycl::aspect::usm_device_allocations));
  CHECK(contains(aspects, sycl::aspect::usm_host_allocations));
  CHECK(contains(aspects, sycl::aspect::usm_shared_allocations));
  CHECK(contains(aspects, sycl::aspect::queue_profiling));
  for (int a = static_cast<int>(sycl::aspect::cpu);
       a <= static_cast<int>(sycl::aspect::ext_oneapi_tangle_group); ++a) {
    auto asp = static_cast<sycl::aspect>(a);
    if (d.has(asp) != contains(aspects, asp)) {
      std::printf("FAILED: device::has(aspect %d) disagrees with info::device::aspects\n", a);
      ++g_failures;
    }
  }
  CHECK(!d.has_extension("cl_khr_does_not_exist"));

  // Sub-devices: by count and equally, not by affinity domain (a clear error, not a crash);
  // the rest is tests/e2e/sub_devices.cpp.
  using pp = sycl::info::partition_property;
  CHECK((d.get_info<di::partition_properties>() ==
         std::vector<pp>{pp::partition_equally, pp::partition_by_counts}));
  CHECK(d.get_info<di::partition_affinity_domains>().empty());
  CHECK(d.get_info<di::partition_type_property>() == pp::no_partition);
  CHECK(d.get_info<di::partition_type_affinity_domain>() ==
        sycl::info::partition_affinity_domain::not_applicable);
  try {
    d.create_sub_devices<pp::partition_by_affinity_domain>(
        sycl::info::partition_affinity_domain::next_partitionable);
    CHECK(!"partition_by_affinity_domain did not throw");
  } catch (const sycl::exception& e) {
    CHECK(e.code() == sycl::errc::feature_not_supported);
  }
  try {
    (void)d.get_info<di::parent_device>();
    CHECK(!"parent_device of a root device did not throw");
  } catch (const sycl::exception& e) {
    CHECK(e.code() == sycl::errc::invalid);
  }

  // Appendix A descriptors: native widths, image limits (at least the minimums SYCL 2020 gives
  // for a device with aspect::image), endianness.
  // On a CPU the lanes of its widest vector registers, whose 32-bit lanes are also the primary
  // sub-group size; scalars on a GPU (2 halves: a half2 register).
  const bool cpu = d.is_cpu();
  const std::uint32_t lanes32 =
      cpu ? static_cast<std::uint32_t>(d.get_info<di::primary_sub_group_size>()) : 1u;
  CHECK(d.get_info<di::native_vector_width_int>() == lanes32);
  CHECK(d.get_info<di::native_vector_width_float>() == lanes32);
  CHECK(d.get_info<di::native_vector_width_char>() == (cpu ? 4 * lanes32 : 1u));
  CHECK(d.get_info<di::native_vector_width_double>() ==
        (d.has(sycl::aspect::fp64) ? (cpu ? lanes32 / 2 : 1u) : 0u));
  CHECK(d.get_info<di::preferred_vector_width_long_long>() >= 1);
  CHECK(d.has(sycl::aspect::image) && d.get_info<di::image_support>());
  CHECK(
      d.get_info<di::max_samplers>() >= 16 && d.get_info<di::image2d_max_width>() >= 8192 &&
      d.get_info<di::image2d_max_height>() >= 8192 && d.get_info<di::image3d_max_width>() >= 2048 &&
      d.get_info<di::image3d_max_height>() >= 2048 && d.get_info<di::image3d_max_depth>() >= 2048 &&
      d.get_info<di::image_max_buffer_size>() >= 65536 &&
      d.get_info<di::max_read_image_args>() >= 128 && d.get_info<di::max_write_image_args>() >= 8);
  CHECK(d.get_info<di::is_endian_little>());
  CHECK(d.get_info<di::host_unified_memory>()); // the host device computes in host memory
  CHECK(d.get_info<di::queue_profiling>() == d.has(sycl::aspect::queue_profiling));
  CHECK(d.get_info<di::max_constant_buffer_size>() > 0);
  std::printf("device: %s (%u compute units, work-group <= %zu)\n", name.c_str(),
              d.get_info<di::max_compute_units>(), wg);
}

void test_identity() {
  sycl::device a = sycl::device::get_devices(sycl::info::device_type::cpu).front();
  sycl::device b = sycl::device::get_devices(sycl::info::device_type::cpu).front();
  CHECK(a == b); // the same underlying device each time
  CHECK(!(a != b));
  CHECK(std::hash<sycl::device>{}(a) == std::hash<sycl::device>{}(b));
  std::unordered_set<sycl::device> devs{a, b};
  CHECK(devs.size() == 1);
  sycl::platform p = a.get_platform();
  CHECK(std::hash<sycl::platform>{}(p) == std::hash<sycl::platform>{}(b.get_platform()));
  std::vector<sycl::platform> all = sycl::platform::get_platforms();
  std::unordered_set<sycl::platform> plats(all.begin(), all.end());
  CHECK(plats.size() == all.size());
  sycl::device copy = a;
  sycl::device moved = std::move(copy);
  CHECK(moved == a);
}
} // namespace

int main() {
  test_platforms();
  test_device_descriptors(sycl::device(sycl::cpu_selector_v));
  test_identity();
  if (g_failures) {
    std::printf("platform_device_info: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("platform_device_info: PASSED\n");
  return 0;
}
