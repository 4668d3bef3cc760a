// What syclone refuses about images (SYCL 2020 4.7.3 images, 4.7.6.13/4.7.6.14 image accessors,
// 4.7.8 image samplers), with the error each refusal gives: an integer image_format sampled with
// filtering_mode::linear (errc::feature_not_supported naming the format: OpenCL, whose sampling
// rules SYCL uses, leaves it undefined), no_init on a read-only accessor, pitches that do not hold
// a row or slice, and an image bound to another context (errc::invalid). A refused command group
// enqueues nothing and leaves the queue and the image usable. Also the image types' traits and
// properties. (tests/e2e/images.cpp checks what images do.)
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// f() must throw `code`, and the message must name `object` and `also`.
template <typename F>
void expect_error(sycl::errc code, const char* object, const char* also, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: %s: no exception thrown\n", line, object);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || !std::strstr(e.what(), object) || !std::strstr(e.what(), also)) {
      std::printf("FAILED line %d: %s: errc %d \"%s\"\n", line, object, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERROR(code, object, also, body)                                                     \
  expect_error(sycl::errc::code, object, also, [&] { body; }, __LINE__)

using sycl::image_format;
namespace prop = sycl::property::image;

void check_traits() {
  CHECK(sycl::is_property_v<prop::use_host_ptr>);
  CHECK(sycl::is_property_v<prop::use_mutex>);
  CHECK(sycl::is_property_v<prop::context_bound>);
  CHECK((sycl::is_property_of_v<prop::use_host_ptr, sycl::unsampled_image<>>));
  CHECK((sycl::is_property_of_v<prop::use_mutex, sycl::unsampled_image<2>>));
  CHECK((sycl::is_property_of_v<prop::context_bound, sycl::unsampled_image<3>>));
  CHECK((sycl::is_property_of_v<prop::use_host_ptr, sycl::sampled_image<>>));
  CHECK((sycl::is_property_of_v<prop::use_mutex, sycl::sampled_image<2>>));
  CHECK((sycl::is_property_of_v<prop::context_bound, sycl::sampled_image<3>>));
  CHECK((std::is_base_of_v<std::true_type,
                           sycl::is_property_of<prop::use_mutex, sycl::sampled_image<>>>));
  // Properties of other objects are not image properties, and the other way round.
  CHECK(!(sycl::is_property_of_v<sycl::property::buffer::use_host_ptr, sycl::unsampled_image<>>));
  CHECK(!(sycl::is_property_of_v<prop::use_host_ptr, sycl::buffer<int>>));
  CHECK(!(sycl::is_property_of_v<sycl::property::no_init, sycl::unsampled_image<>>));

  // no_init belongs to the unsampled image accessors, not to the read-only sampled ones.
  CHECK((sycl::is_property_of_v<
         sycl::property::no_init,
         sycl::unsampled_image_accessor<sycl::int4, 1, sycl::access_mode::read>>));
  CHECK((sycl::is_property_of_v<
         sycl::property::no_init,
         sycl::unsampled_image_accessor<sycl::float4, 3, sycl::access_mode::write,
                                        sycl::image_target::host_task>>));
  CHECK((sycl::is_property_of_v<sycl::property::no_init,
                                sycl::host_unsampled_image_accessor<sycl::int4, 1>>));
  CHECK(!(sycl::is_property_of_v<sycl::property::no_init,
                                 sycl::sampled_image_accessor<sycl::float4, 2>>));
  CHECK(!(sycl::is_property_of_v<sycl::property::no_init,
                                 sycl::host_sampled_image_accessor<sycl::float4, 2>>));

  // The accessors' member types and constants (SYCL 2020 4.7.6.13, 4.7.6.14).
  using read_acc = sycl::unsampled_image_accessor<sycl::int4, 2, sycl::access_mode::read>;
  using write_acc = sycl::unsampled_image_accessor<sycl::int4, 2, sycl::access_mode::write>;
  CHECK((std::is_same_v<read_acc::value_type, const sycl::int4>));
  CHECK((std::is_same_v<write_acc::value_type, sycl::int4>));
  CHECK(read_acc::dimensions == 2);
  CHECK(read_acc::access_mode == sycl::access_mode::read);
  CHECK(read_acc::access_target == sycl::image_target::device);
  CHECK((sycl::host_unsampled_image_accessor<sycl::float4>::access_mode ==
         sycl::access_mode::read_write));
  CHECK((std::is_same_v<sycl::sampled_image_accessor<sycl::float4, 1>::value_type,
                        const sycl::float4>));
  CHECK((std::is_same_v<sycl::unsampled_image<>, sycl::unsampled_image<1, sycl::image_allocator>>));
  CHECK((std::is_same_v<sycl::image_allocator::value_type, std::byte>));
  CHECK(!std::is_default_constructible_v<sycl::unsampled_image<>>);
  CHECK(!std::is_default_constructible_v<read_acc>);
}

void check_property_list() {
  std::mutex m;
  sycl::context ctx;
  sycl::property_list props{prop::use_host_ptr{}, prop::use_mutex{m}, prop::context_bound{ctx}};
  CHECK(props.has_property<prop::use_host_ptr>());
  CHECK(props.has_property<prop::use_mutex>());
  CHECK(props.has_property<prop::context_bound>());
  CHECK(!props.has_property<sycl::property::buffer::use_mutex>());
  CHECK(props.get_property<prop::use_mutex>().get_mutex_ptr() == &m);
  CHECK(props.get_property<prop::context_bound>().get_context() == ctx);
  sycl::property_list only_mutex{prop::use_mutex{m}};
  CHECK(only_mutex.get_property<prop::use_mutex>().get_mutex_ptr() == &m);
  CHECK(!only_mutex.has_property<prop::use_host_ptr>());

  sycl::image_sampler s{sycl::addressing_mode::clamp_to_edge,
                        sycl::coordinate_normalization_mode::unnormalized,
                        sycl::filtering_mode::linear};
  CHECK(s.addressing == sycl::addressing_mode::clamp_to_edge);
  CHECK(s.coordinate == sycl::coordinate_normalization_mode::unnormalized);
  CHECK(s.filtering == sycl::filtering_mode::linear);
}

void check_refusals() {
  sycl::queue q;
  using sycl::addressing_mode;
  using sycl::coordinate_normalization_mode;
  using sycl::filtering_mode;
  const sycl::image_sampler linear{addressing_mode::clamp_to_edge,
                                   coordinate_normalization_mode::normalized,
                                   filtering_mode::linear};
  std::int32_t texels[4 * 4 * 4] = {};
  // Every integer format refuses linear filtering, on the host and in command groups.
  const image_format integer_formats[] = {
      image_format::r8g8b8a8_sint,     image_format::r16g16b16a16_sint,
      image_format::r32b32g32a32_sint, image_format::r8g8b8a8_uint,
      image_format::r16g16b16a16_uint, image_format::r32b32g32a32_uint};
  const char* names[] = {"r8g8b8a8_sint", "r16g16b16a16_sint", "r32b32g32a32_sint",
                         "r8g8b8a8_uint", "r16g16b16a16_uint", "r32b32g32a32_uint"};
  sycl::buffer<sycl::int4> out(sycl::range<1>(1));
  for (int i = 0; i < 6; ++i) {
    sycl::sampled_image<2> img(texels, integer_formats[i], linear, sycl::range<2>(2, 2));
    EXPECT_ERROR(feature_not_supported, "sycl::host_sampled_image_accessor", names[i],
                 (sycl::host_sampled_image_accessor<sycl::int4, 2>(img)));
    EXPECT_ERROR(feature_not_supported, "sycl::sampled_image_accessor", names[i],
                 q.submit([&](sycl::handler& cgh) {
                   sycl::sampled_image_accessor<sycl::int4, 2> in(img, cgh);
                   sycl::accessor o(out, cgh, sycl::write_only);
                   cgh.single_task([=] { o[0] = in.read(sycl::float2(0.5f, 0.5f)); });
                 }));
    EXPECT_ERROR(feature_not_supported, "sycl::sampled_image_accessor", "filtering_mode::linear",
                 q.submit([&](sycl::handler& cgh) {
                   (void)img.get_access<sycl::uint4, sycl::image_target::host_task>(cgh);
                 }));
  }
  // The same formats sample with nearest filtering.
  {
    texels[0] = -3;
    sycl::sampled_image<1> img(texels, image_format::r32b32g32a32_sint,
                               {addressing_mode::clamp, coordinate_normalization_mode::unnormalized,
                                filtering_mode::nearest},
                               sycl::range<1>(4));
    q.submit([&](sycl::handler& cgh) {
      sycl::sampled_image_accessor<sycl::int4, 1> in(img, cgh);
      sycl::accessor o(out, cgh, sycl::write_only, sycl::no_init);
      cgh.single_task([=] { o[0] = in.read(0.5f) + in.read(-1.0f); }); // border: 0
    });
    sycl::host_accessor h(out, sycl::read_only);
    CHECK(h[0].x() == -3 && h[0].y() == 0);
  }

  // no_init on a read-only accessor (SYCL 2020 4.7.6.13, as for buffer accessors).
  sycl::unsampled_image<1> u(image_format::r8g8b8a8_unorm, sycl::range<1>(4));
  EXPECT_ERROR(invalid, "sycl::host_unsampled_image_accessor", "no_init",
               (sycl::host_unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::read>(
                   u, {sycl::no_init})));
  EXPECT_ERROR(invalid, "sycl::unsampled_image_accessor", "no_init",
               q.submit([&](sycl::handler& cgh) {
                 sycl::unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::read> a(
                     u, cgh, {sycl::no_init});
                 cgh.single_task([=] { (void)a.read(0); });
               }));
  // no_init on a writing accessor is fine and is a property of it.
  {
    sycl::host_unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::write> w(
        u, {sycl::no_init});
    CHECK(w.has_property<sycl::property::no_init>());
    w.write(1, sycl::float4(1.0f));
  }
  CHECK((u.get_host_access<sycl::float4, sycl::access_mode::read>().read(1)[2] == 1.0f));

  // Pitches must hold a row (slice) and be a multiple of the element size (OpenCL's layout).
  EXPECT_ERROR(invalid, "sycl::unsampled_image", "row pitch",
               (sycl::unsampled_image<2>(image_format::r32g32b32a32_sfloat, sycl::range<2>(4, 4),
                                         sycl::range<1>(48))));
  EXPECT_ERROR(invalid, "sycl::unsampled_image", "row pitch",
               (sycl::unsampled_image<2>(image_format::r32g32b32a32_sfloat, sycl::range<2>(4, 4),
                                         sycl::range<1>(65))));
  EXPECT_ERROR(
      invalid, "sycl::sampled_image", "slice pitch",
      (sycl::sampled_image<3>(texels, image_format::r8g8b8a8_uint,
                              {addressing_mode::none, coordinate_normalization_mode::unnormalized,
                               filtering_mode::nearest},
                              sycl::range<3>(2, 2, 2), sycl::range<2>(8, 12))));

  // An image bound to another context.
  sycl::context other(q.get_device());
  sycl::unsampled_image<1> bound(image_format::r8g8b8a8_unorm, sycl::range<1>(4),
                                 {sycl::property::image::context_bound{other}});
  CHECK(bound.get_property<sycl::property::image::context_bound>().get_context() == other);
  EXPECT_ERROR(invalid, "sycl::unsampled_image_accessor", "context_bound",
               q.submit([&](sycl::handler& cgh) {
                 auto w = bound.get_access<sycl::float4, sycl::access_mode::write>(cgh);
                 cgh.single_task([=] { w.write(0, sycl::float4(0.5f)); });
               }));
  sycl::queue in_other(other, q.get_device());
  in_other.submit([&](sycl::handler& cgh) {
    auto w = bound.get_access<sycl::float4, sycl::access_mode::write>(cgh);
    cgh.single_task([=] { w.write(0, sycl::float4(0.5f)); });
  });
  CHECK((bound.get_host_access<sycl::float4, sycl::access_mode::read>().read(0)[0] ==
         128.0f / 255.0f));
}
} // namespace

int main() {
  check_traits();
  check_property_list();
  check_refusals();
  if (g_failures) {
    std::printf("%d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("images: the refusals give the spec's errors; traits and properties hold\n");
  return 0;
}
