// The kernel registry (src/runtime/kernel_registry.hpp) on its own: registration through the C
// entry points the generated registration objects call, lookups, and concurrent use.
#include "runtime/kernel_registry.hpp"

#include <sycl/exception.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using syclone::runtime::kernel_registry;

const unsigned char bytes[] = {'B', 'C', 0xc0, 0xde};
const char* const nvptx_kernels[] = {"_ZTS5Zeta", "_ZTS5Alpha"}; // unsorted on purpose
const char* const other_kernels[] = {"_ZTS5Alpha"};

syclone_image_descriptor make(const char* target, const char* const* names, std::uint32_t count) {
  return {SYCLONE_IMAGE_DESCRIPTOR_VERSION, count, target, "llvm-bc", bytes, sizeof bytes, names};
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

} // namespace
