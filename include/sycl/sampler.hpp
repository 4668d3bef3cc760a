// SYCL 2020 4.7.8. Image samplers: how a sampled_image is read (addressing of coordinates
// outside the image, filtering, coordinate normalization). The sampling itself follows the
// OpenCL C image read rules the specification refers to (detail/image_texel.hpp).
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE

enum class addressing_mode : unsigned int { mirrored_repeat, repeat, clamp_to_edge, clamp, none };
enum class filtering_mode : unsigned int { nearest, linear };
enum class coordinate_normalization_mode : unsigned int { normalized, unnormalized };

struct image_sampler {
  addressing_mode addressing;
  coordinate_normalization_mode coordinate;
  filtering_mode filtering;
};

SYCLONE_END_NAMESPACE
