// Prints the device images registered in this process (linked into the test programs):
//   image <target> <format> <bytes> <kernel count>
//   kernel <target> <name>
//   spec <target> <kernel> <specialization constant the kernel reads>
// then every kernel of the application, images' and host program's:
//   app_kernel <name>
// and, given a directory, writes each image there as <target>.<n>.img for inspection.
#include "runtime/kernel_registry.hpp"

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  auto images = syclone::runtime::kernel_registry::get().images();
  int n = 0;
  for (const auto& image : images) {
    std::printf("image %.*s %.*s %zu %zu\n", static_cast<int>(image->target.size()),
                image->target.data(), static_cast<int>(image->format.size()), image->format.data(),
                image->data.size(), image->kernel_names.size());
    for (auto name : image->kernel_names)
      std::printf("kernel %.*s %.*s\n", static_cast<int>(image->target.size()),
                  image->target.data(), static_cast<int>(name.size()), name.data());
    for (auto name : image->kernel_names)
      if (const auto* reads = image->spec_constants_of(name))
        for (auto spec : *reads)
          std::printf("spec %.*s %.*s %.*s\n", static_cast<int>(image->target.size()),
                      image->target.data(), static_cast<int>(name.size()), name.data(),
                      static_cast<int>(spec.size()), spec.data());
    if (argc > 1) {
      std::string file = std::string(argv[1]) + "/" + std::string(image->target) + "." +
                         std::to_string(n) + ".img";
      std::ofstream out(file, std::ios::binary);
      out.write(reinterpret_cast<const char*>(image->data.data()),
                static_cast<std::streamsize>(image->data.size()));
      if (!out) {
        std::fprintf(stderr, "cannot write %s\n", file.c_str());
        return 1;
      }
    }
    ++n;
  }
  std::printf("images %d\n", n);
  for (const auto& name : syclone::runtime::kernel_registry::get().kernel_names())
    std::printf("app_kernel %s\n", name.c_str());
  return 0;
}
