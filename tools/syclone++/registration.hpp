// The registration object of a program or shared library: its device images, their kernel
// names, and a constructor/destructor pair that hands them to the runtime
// (include/sycl/detail/image.hpp).
#pragma once

#include "device_link.hpp"
#include "toolchain.hpp"

#include <string>
#include <vector>

namespace syclone::driver {

// The source of the registration object; images are included from `image_files` (same order)
// with the assembler's .incbin, so the image bytes never pass through the C++ parser.
std::string registration_source(const std::vector<device_image>& images,
                                const std::vector<std::string>& image_files,
                                const std::string& output_name);

// Writes the images and the source into `temp` and compiles them; returns the object.
std::string build_registration(const std::vector<device_image>& images,
                               const std::string& output_name, const toolchain& tools,
                               const runner& run, temp_dir& temp);

} // namespace syclone::driver
