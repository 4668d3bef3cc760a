// SYCL 2020 4.7.3 images, 4.7.6.13/4.7.6.14 image accessors, 4.7.8 image samplers: syclone has
// no images (no device has aspect::image), so every image and image accessor constructor throws
// errc::feature_not_supported naming images, while the types, the image properties and the
// is_property/is_property_of traits are real. The kernels below read and write image accessors,
// so the device compiles (nvptx64, spirv64) see the accessors' device code.
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

// f() must throw feature_not_supported, and the message must name the object and images.
template <typename F>
void expect_unsupported(const char* object, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: %s: no exception thrown\n", line, object);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != sycl::errc::feature_not_supported || !std::strstr(e.what(), object) ||
        !std::strstr(e.what(), "images") || !std::strstr(e.what(), "aspect::image")) {
      std::printf("FAILED line %d: %s: errc %d \"%s\"\n", line, object, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_UNSUPPORTED(object, body) expect_unsupported(object, [&] { body; }, __LINE__)

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

void check_image_constructors() {
  const auto f = image_format::r32g32b32a32_sfloat;
  sycl::image_allocator alloc;
  std::mutex m;
  sycl::property_list props{prop::use_mutex{m}};
  float host[4 * 4 * 4 * 4] = {};
  std::shared_ptr<void> shared(new float[4 * 4 * 4 * 4],
                               [](void* p) { delete[] static_cast<float*>(p); });
  std::shared_ptr<const void> shared_const = shared;
  const char* u = "sycl::unsampled_image";
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<1>(f, sycl::range<1>(4))));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<1>(f, sycl::range<1>(4), alloc, props)));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<2>(f, sycl::range<2>(4, 4), sycl::range<1>(64))));
  EXPECT_UNSUPPORTED(
      u, (sycl::unsampled_image<3>(f, sycl::range<3>(4, 4, 4), sycl::range<2>(64, 256), alloc)));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<2>(host, f, sycl::range<2>(4, 4))));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<2>(host, f, sycl::range<2>(4, 4), alloc)));
  EXPECT_UNSUPPORTED(
      u, (sycl::unsampled_image<2>(host, f, sycl::range<2>(4, 4), sycl::range<1>(64), props)));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<3>(host, f, sycl::range<3>(4, 4, 4),
                                                  sycl::range<2>(64, 256), alloc)));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<1>(shared, f, sycl::range<1>(4))));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<1>(shared, f, sycl::range<1>(4), alloc)));
  EXPECT_UNSUPPORTED(
      u, (sycl::unsampled_image<2>(shared, f, sycl::range<2>(4, 4), sycl::range<1>(64))));
  EXPECT_UNSUPPORTED(u, (sycl::unsampled_image<2>(shared, f, sycl::range<2>(4, 4),
                                                  sycl::range<1>(64), alloc, props)));

  const char* s = "sycl::sampled_image";
  sycl::image_sampler sampler{sycl::addressing_mode::repeat,
                              sycl::coordinate_normalization_mode::normalized,
                              sycl::filtering_mode::nearest};
  EXPECT_UNSUPPORTED(s, (sycl::sampled_image<1>(host, f, sampler, sycl::range<1>(4))));
  EXPECT_UNSUPPORTED(s, (sycl::sampled_image<2>(host, f, sampler, sycl::range<2>(4, 4),
                                                sycl::range<1>(64), props)));
  EXPECT_UNSUPPORTED(s,
                     (sycl::sampled_image<3>(shared_const, f, sampler, sycl::range<3>(4, 4, 4))));
  EXPECT_UNSUPPORTED(s, (sycl::sampled_image<3>(shared_const, f, sampler, sycl::range<3>(4, 4, 4),
                                                sycl::range<2>(64, 256))));
}

void check_accessor_constructors() {
  // No image can be constructed, so the accessors get a reference to storage that holds none
  // (binding a reference to storage is allowed before an object's lifetime, [basic.life]);
  // their constructors must refuse before they touch it.
  alignas(sycl::unsampled_image<1>) unsigned char u_storage[sizeof(sycl::unsampled_image<1>)];
  alignas(sycl::sampled_image<2>) unsigned char s_storage[sizeof(sycl::sampled_image<2>)];
  auto& no_unsampled = *reinterpret_cast<sycl::unsampled_image<1>*>(u_storage);
  auto& no_sampled = *reinterpret_cast<sycl::sampled_image<2>*>(s_storage);

  EXPECT_UNSUPPORTED("sycl::host_unsampled_image_accessor",
                     (sycl::host_unsampled_image_accessor<sycl::int4, 1>(no_unsampled)));
  EXPECT_UNSUPPORTED("sycl::host_unsampled_image_accessor",
                     (sycl::host_unsampled_image_accessor<sycl::int4, 1, sycl::access_mode::write>(
                         no_unsampled, {sycl::no_init})));
  EXPECT_UNSUPPORTED("sycl::host_sampled_image_accessor",
                     (sycl::host_sampled_image_accessor<sycl::float4, 2>(no_sampled)));
  EXPECT_UNSUPPORTED("sycl::host_unsampled_image_accessor",
                     (no_unsampled.get_host_access<sycl::uint4, sycl::access_mode::read>()));
  EXPECT_UNSUPPORTED("sycl::host_sampled_image_accessor",
                     (no_sampled.get_host_access<sycl::half4>()));

  sycl::queue q;
  sycl::buffer<sycl::int4> out(sycl::range<1>(1));
  // The accessors' constructors throw inside the command group; submit passes the exception on
  // and nothing is enqueued. The kernels are compiled for every target all the same.
  EXPECT_UNSUPPORTED("sycl::unsampled_image_accessor", q.submit([&](sycl::handler& cgh) {
    sycl::unsampled_image_accessor<sycl::int4, 1, sycl::access_mode::read> in(no_unsampled, cgh);
    sycl::accessor o(out, cgh, sycl::write_only);
    cgh.single_task([=] { o[0] = in.read(0); });
  }));
  EXPECT_UNSUPPORTED("sycl::unsampled_image_accessor", q.submit([&](sycl::handler& cgh) {
    auto w = no_unsampled.get_access<sycl::int4, sycl::access_mode::write>(cgh);
    cgh.single_task([=] { w.write(0, sycl::int4(1, 2, 3, 4)); });
  }));
  EXPECT_UNSUPPORTED("sycl::sampled_image_accessor", q.submit([&](sycl::handler& cgh) {
    sycl::sampled_image_accessor<sycl::float4, 2> in(no_sampled, cgh);
    sycl::accessor o(out, cgh, sycl::write_only);
    cgh.single_task([=] {
      sycl::float4 v = in.read(sycl::float2(0.5f, 0.5f));
      o[0] = sycl::int4(static_cast<int>(v.x()), 0, 0, 0);
    });
  }));
  EXPECT_UNSUPPORTED("sycl::sampled_image_accessor", q.submit([&](sycl::handler& cgh) {
    (void)no_sampled.get_access<sycl::float4, sycl::image_target::host_task>(cgh);
  }));
  // The queue is still usable and the buffer untouched by the refused command groups.
  q.submit([&](sycl::handler& cgh) {
     sycl::accessor o(out, cgh, sycl::write_only, sycl::no_init);
     cgh.single_task([=] { o[0] = sycl::int4(7, 8, 9, 10); });
   }).wait();
  sycl::host_accessor h(out, sycl::read_only);
  CHECK(h[0].x() == 7 && h[0].w() == 10);
}
} // namespace

int main() {
  check_traits();
  check_property_list();
  check_image_constructors();
  check_accessor_constructors();
  if (g_failures) {
    std::printf("%d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("images: every constructor refuses with feature_not_supported; traits and "
              "properties hold\n");
  return 0;
}
