// The kernel registry (src/runtime/kernel_registry.hpp) on its own: registration through the C
// entry points the generated registration objects call, lookups, and concurrent use.
#include "runtime/kernel_registry.hpp"

#include <sycl/exception.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using syclone::runtime::kernel_registry;

const unsigned char bytes[] = {'B', 'C', 0xc0, 0xde};
const char* const nvptx_kernels[] = {"_ZTS5Zeta", "_ZTS5Alpha"}; // unsorted on purpose
const char* const other_kernels[] = {"_ZTS5Alpha"};

syclone_image_descriptor make(const char* target, const char* const* names, std::uint32_t count,
                              const char* const* const* spec_constants = nullptr) {
  return {SYCLONE_IMAGE_DESCRIPTOR_VERSION,
          count,
          target,
          "llvm-bc",
          bytes,
          sizeof bytes,
          names,
          spec_constants};
}

TEST(kernel_registry, registers_and_unregisters_through_the_c_entry_points) {
  auto& registry = kernel_registry::get();
  const auto before = registry.images().size();
  syclone_image_descriptor image = make("nvptx64", nvptx_kernels, 2);

  __syclone_register_image(&image);
  ASSERT_EQ(registry.images().size(), before + 1);
  auto found = registry.find("_ZTS5Alpha", "nvptx64");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->descriptor, &image);
  EXPECT_EQ(found->target, "nvptx64");
  EXPECT_EQ(found->format, "llvm-bc");
  EXPECT_EQ(found->data.size(), sizeof bytes);
  EXPECT_EQ(found->data.data(), bytes);
  ASSERT_EQ(found->kernel_names.size(), 2u);
  EXPECT_EQ(found->kernel_names[0], "_ZTS5Alpha"); // sorted
  EXPECT_TRUE(found->has_kernel("_ZTS5Zeta"));
  EXPECT_FALSE(found->has_kernel("_ZTS4Beta"));
  EXPECT_TRUE(registry.has_kernel("_ZTS5Zeta"));
  EXPECT_EQ(registry.find("_ZTS5Alpha", "spirv64"), nullptr);
  EXPECT_EQ(registry.find("_ZTS4Beta", "nvptx64"), nullptr);

  // Registering the same descriptor twice keeps one image.
  __syclone_register_image(&image);
  EXPECT_EQ(registry.images().size(), before + 1);

  __syclone_unregister_image(&image);
  EXPECT_EQ(registry.images().size(), before);
  EXPECT_FALSE(registry.has_kernel("_ZTS5Zeta"));
  // The image a caller still holds stays readable.
  EXPECT_EQ(found->kernel_names.size(), 2u);
  // Unknown descriptors are ignored.
  __syclone_unregister_image(&image);
}

TEST(kernel_registry, ids_are_never_reused_and_first_registration_wins) {
  auto& registry = kernel_registry::get();
  syclone_image_descriptor first = make("nvptx64", other_kernels, 1);
  syclone_image_descriptor second = make("nvptx64", nvptx_kernels, 2);
  syclone_image_descriptor spirv = make("spirv64", other_kernels, 1);
  registry.register_image(&first);
  registry.register_image(&second);
  registry.register_image(&spirv);
  auto found = registry.find("_ZTS5Alpha", "nvptx64");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->descriptor, &first);
  const auto first_id = found->id;
  EXPECT_EQ(registry.targets_of("_ZTS5Alpha"), (std::vector<std::string>{"nvptx64", "spirv64"}));
  EXPECT_EQ(registry.targets_of("_ZTS5Zeta"), (std::vector<std::string>{"nvptx64"}));

  registry.unregister_image(&first);
  EXPECT_EQ(registry.find("_ZTS5Alpha", "nvptx64")->descriptor, &second);
  registry.register_image(&first);
  EXPECT_GT(registry.find("_ZTS5Zeta", "nvptx64")->id, 0u);
  for (const auto& image : registry.images())
    if (image->descriptor == &first) EXPECT_NE(image->id, first_id);
  registry.unregister_image(&first);
  registry.unregister_image(&second);
  registry.unregister_image(&spirv);
}

TEST(kernel_registry, rejects_unreadable_descriptors) {
  auto& registry = kernel_registry::get();
  syclone_image_descriptor no_target = make(nullptr, nvptx_kernels, 2);
  EXPECT_THROW(registry.register_image(&no_target), sycl::exception);
  syclone_image_descriptor no_names = make("nvptx64", nullptr, 2);
  EXPECT_THROW(registry.register_image(&no_names), sycl::exception);
  syclone_image_descriptor version_zero = make("nvptx64", nvptx_kernels, 2);
  version_zero.version = 0;
  try {
    registry.register_image(&version_zero);
    FAIL() << "version 0 accepted";
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), sycl::errc::runtime);
    EXPECT_NE(std::string(e.what()).find("rebuild"), std::string::npos) << e.what();
  }
  EXPECT_THROW(registry.register_image(nullptr), sycl::exception);
  // The C entry point reports instead of throwing into a constructor.
  testing::internal::CaptureStderr();
  __syclone_register_image(&no_target);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("syclone: error: invalid device image"),
            std::string::npos);
  EXPECT_FALSE(registry.has_kernel("_ZTS5Zeta"));
}

// Version 2: per kernel, the specialization constants it reads (kept with the kernel when the
// names are sorted).
TEST(kernel_registry, records_the_specialization_constants_of_each_kernel) {
  auto& registry = kernel_registry::get();
  const char* const zeta_reads[] = {"spec_b", "spec_a", nullptr};
  const char* const* const reads[] = {zeta_reads, nullptr}; // Zeta, Alpha (unsorted, as names)
  syclone_image_descriptor image = make("nvptx64", nvptx_kernels, 2, reads);
  registry.register_image(&image);
  auto found = registry.find("_ZTS5Zeta", "nvptx64");
  ASSERT_NE(found, nullptr);
  EXPECT_TRUE(found->spec_constants_known);
  ASSERT_NE(found->spec_constants_of("_ZTS5Zeta"), nullptr);
  EXPECT_EQ(*found->spec_constants_of("_ZTS5Zeta"),
            (std::vector<std::string_view>{"spec_a", "spec_b"}));
  ASSERT_NE(found->spec_constants_of("_ZTS5Alpha"), nullptr);
  EXPECT_TRUE(found->spec_constants_of("_ZTS5Alpha")->empty());
  EXPECT_EQ(found->spec_constants_of("_ZTS4Beta"), nullptr);
  EXPECT_EQ(registry.spec_constants_of("_ZTS5Zeta"),
            (std::vector<std::string>{"spec_a", "spec_b"}));
  EXPECT_EQ(registry.spec_constants_of("_ZTS4Beta"), std::nullopt);
  registry.unregister_image(&image);
}

// Version 1 descriptors end before kernel_spec_constants: never read it, record nothing.
TEST(kernel_registry, version_1_descriptors_record_no_specialization_constants) {
  auto& registry = kernel_registry::get();
  syclone_image_descriptor image = make("nvptx64", nvptx_kernels, 2);
  image.version = 1;
  image.kernel_spec_constants = reinterpret_cast<const char* const* const*>(std::uintptr_t(8));
  registry.register_image(&image);
  auto found = registry.find("_ZTS5Zeta", "nvptx64");
  ASSERT_NE(found, nullptr);
  EXPECT_FALSE(found->spec_constants_known);
  EXPECT_EQ(found->spec_constants_of("_ZTS5Zeta"), nullptr);
  EXPECT_EQ(registry.spec_constants_of("_ZTS5Zeta"), std::nullopt);
  registry.unregister_image(&image);
}

// The kernels of the host program, counted, and every kernel of the application.
TEST(kernel_registry, host_kernels_and_application_kernels) {
  auto& registry = kernel_registry::get();
  registry.register_host_kernel("_ZTS4Host");
  registry.register_host_kernel("_ZTS4Host"); // a second module with the same kernel
  syclone_image_descriptor image = make("nvptx64", nvptx_kernels, 2);
  registry.register_image(&image);
  EXPECT_TRUE(registry.host_has_kernel("_ZTS4Host"));
  EXPECT_TRUE(registry.host_has_kernel("_ZTS5Zeta")); // its host code came with its image
  EXPECT_FALSE(registry.host_has_kernel("_ZTS4Beta"));
  auto names = registry.kernel_names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* name : {"_ZTS4Host", "_ZTS5Alpha", "_ZTS5Zeta"})
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  registry.unregister_host_kernel("_ZTS4Host");
  EXPECT_TRUE(registry.host_has_kernel("_ZTS4Host"));
  registry.unregister_host_kernel("_ZTS4Host");
  EXPECT_FALSE(registry.host_has_kernel("_ZTS4Host"));
  registry.unregister_image(&image);
  EXPECT_FALSE(registry.host_has_kernel("_ZTS5Zeta"));
}

TEST(kernel_registry, concurrent_registration_and_lookup) {
  auto& registry = kernel_registry::get();
  constexpr int threads = 4, rounds = 2000;
  std::vector<syclone_image_descriptor> images;
  for (int t = 0; t < threads; ++t) images.push_back(make("nvptx64", nvptx_kernels, 2));
  syclone_image_descriptor stable = make("nvptx64", other_kernels, 1);
  registry.register_image(&stable);
  std::atomic<int> misses{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int i = 0; i < rounds; ++i) {
        registry.register_image(&images[t]);
        if (!registry.find("_ZTS5Alpha", "nvptx64")) ++misses;
        registry.images();
        registry.unregister_image(&images[t]);
      }
    });
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(misses, 0);
  EXPECT_FALSE(registry.has_kernel("_ZTS5Zeta"));
  registry.unregister_image(&stable);
}

// Launches cache what they looked up under a generation (src/runtime/kernel_bundle.cpp,
// src/backends/cuda/cuda_kernels.cpp): every change a lookup could see must change it, and
// nothing else may (a lookup that found nothing new keeps its cache).
TEST(kernel_registry, generation_changes_with_every_registration_change) {
  auto& registry = kernel_registry::get();
  syclone_image_descriptor image = make("nvptx64", nvptx_kernels, 2);
  const auto g0 = registry.generation();
  EXPECT_NE(g0, 0u); // 0 marks an empty cache entry
  (void)registry.find("_ZTS5Alpha", "nvptx64");
  EXPECT_EQ(registry.generation(), g0);

  __syclone_register_image(&image);
  const auto g1 = registry.generation();
  EXPECT_NE(g1, g0);
  __syclone_register_image(&image); // already registered: nothing changes
  EXPECT_EQ(registry.generation(), g1);

  __syclone_unregister_image(&image);
  const auto g2 = registry.generation();
  EXPECT_NE(g2, g1);
  __syclone_unregister_image(&image); // unknown: nothing changes
  EXPECT_EQ(registry.generation(), g2);

  registry.register_host_kernel("_ZTS11GenerationK");
  const auto g3 = registry.generation();
  EXPECT_NE(g3, g2);
  registry.register_host_kernel("_ZTS11GenerationK"); // counted: still there
  registry.unregister_host_kernel("_ZTS11GenerationK");
  EXPECT_EQ(registry.generation(), g3);
  registry.unregister_host_kernel("_ZTS11GenerationK");
  EXPECT_NE(registry.generation(), g3);
}

} // namespace
