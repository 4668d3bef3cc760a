// SYCL 2020 4.11. Kernel bundles: kernel_id, device_image, kernel_bundle, kernel, and the free
// functions that obtain, join, compile, link and build bundles.
//
// A syclone device image holds one kernel for one kind of device: `host` (the kernel as compiled
// into the host program) or `nvptx64` (the kernel's LLVM bitcode, JIT-compiled for NVIDIA GPUs).
// The JIT compiles kernel by kernel, so one kernel is the indivisible unit of online compilation
// that SYCL 2020 4.11.1 calls a device image. Online compiling an nvptx64 image runs the JIT with
// the bundle's specialization constant values folded in (native specialization constants) and
// loads the module; a host image has nothing to compile, its values reach the kernel at launch.
#pragma once

#include <sycl/context.hpp>
#include <sycl/detail/impl_fwd.hpp>
#include <sycl/detail/kernel_launch.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/device.hpp>
#include <sycl/info.hpp>
#include <sycl/kernel_handler.hpp>
#include <sycl/property_list.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.11.3. Bundle states.
enum class bundle_state { input, object, executable };

class kernel;
template <bundle_state State>
class kernel_bundle;

namespace detail {
class kernel_bundle_impl;
class device_image_impl;
class kernel_impl;
struct kernel_id_access;
} // namespace detail

// SYCL 2020 4.11.4. Kernel identifiers: two compare equal when they name the same kernel.
class SYCLONE_EXPORT kernel_id : public detail::owner_ordered<kernel_id> {
public:
  kernel_id() = delete;

  // The kernel's unique stable name (the symbol of its device code); valid for the whole run.
  const char* get_name() const noexcept { return m_name; }

  friend bool operator==(const kernel_id& a, const kernel_id& b) { return a.m_name == b.m_name; }
  friend bool operator!=(const kernel_id& a, const kernel_id& b) { return !(a == b); }

private:
  friend struct detail::kernel_id_access;
  friend struct detail::weak_access;
  friend struct std::hash<kernel_id>;
  explicit kernel_id(const char* interned_name) : m_name(interned_name) {}
  const char* m_name; // interned: one address per kernel name
};

namespace detail {
// The identifier of the kernel named `name` (its unique stable name). Throws errc::runtime when
// the application defines no kernel of that name.
SYCLONE_EXPORT kernel_id make_kernel_id(const char* name);
} // namespace detail

// SYCL 2020 4.11.5. Obtaining a kernel identifier. A kernel exists once a translation unit of the
// program submits it (single_task / parallel_for with that name); asking for any other name
// throws errc::runtime, as syclone cannot diagnose it at compile time.
template <typename KernelName>
kernel_id get_kernel_id() {
  return detail::make_kernel_id(detail::kernel_name<KernelName>());
}
SYCLONE_EXPORT std::vector<kernel_id> get_kernel_ids();

namespace detail {
// Device images and bundles compare by what they hold (SYCL 2020 4.11.11: bundles of the same
// context and devices holding the same device images are equal), and hash accordingly.
SYCLONE_EXPORT bool same_image(const std::shared_ptr<device_image_impl>& a,
                               const std::shared_ptr<device_image_impl>& b) noexcept;
SYCLONE_EXPORT std::size_t image_hash(const std::shared_ptr<device_image_impl>& image) noexcept;
SYCLONE_EXPORT std::size_t bundle_hash(const std::shared_ptr<kernel_bundle_impl>& bundle) noexcept;
// Kernels are equal when they are the same kernel of the same bundle.
SYCLONE_EXPORT bool same_kernel(const std::shared_ptr<kernel_impl>& a,
                                const std::shared_ptr<kernel_impl>& b) noexcept;
SYCLONE_EXPORT std::size_t kernel_hash(const std::shared_ptr<kernel_impl>& kernel) noexcept;

class SYCLONE_EXPORT device_image_plain {
public:
  bool has_kernel(const kernel_id& kernel_id) const noexcept;
  bool has_kernel(const kernel_id& kernel_id, const device& dev) const noexcept;

protected:
  explicit device_image_plain(std::shared_ptr<device_image_impl> impl) : m_impl(std::move(impl)) {}
  friend struct impl_access;
  std::shared_ptr<device_image_impl> m_impl;
};
} // namespace detail

// SYCL 2020 4.11.14. The device_image class.
template <bundle_state State>
class device_image : public detail::device_image_plain,
                     public detail::owner_ordered<device_image<State>> {
public:
  device_image() = delete;

  friend bool operator==(const device_image& a, const device_image& b) {
    return detail::same_image(a.m_impl, b.m_impl);
  }
  friend bool operator!=(const device_image& a, const device_image& b) { return !(a == b); }

private:
  friend struct detail::impl_access;
  explicit device_image(std::shared_ptr<detail::device_image_impl> impl)
      : device_image_plain(std::move(impl)) {}
};

// SYCL 2020 4.11.13. The kernel class: a kernel of an executable bundle.
class SYCLONE_EXPORT kernel : public detail::owner_ordered<kernel> {
public:
  kernel() = delete;

  backend get_backend() const noexcept;
  context get_context() const;
  kernel_bundle<bundle_state::executable> get_kernel_bundle() const;

  // info::kernel descriptors (SYCL 2020 table 4.11.13.2).
  template <typename Param>
  typename Param::return_type get_info() const;
  // info::kernel_device_specific descriptors. Throws errc::invalid when the kernel is not
  // compatible with `dev` (is_compatible).
  template <typename Param>
  typename Param::return_type get_info(const device& dev) const;
  // Seed 004 "Kernel Descriptors": descriptors with an input value; max_sub_group_size takes the
  // work-group range of a launch.
  template <typename Param, int Dimensions>
  typename Param::return_type get_info(const device& dev, range<Dimensions> work_group) const {
    static_assert(std::is_same_v<Param, info::kernel_device_specific::max_sub_group_size>,
                  "kernel::get_info(device, range): only "
                  "info::kernel_device_specific::max_sub_group_size takes an input (seed 004)");
    return max_sub_group_size_for(dev, work_group.size());
  }

  // sycl_ext_oneapi_launch_queries (ext/oneapi/experimental/launch_queries.hpp): what a launch
  // of this kernel on a queue may be, Param one of that extension's descriptors.
  template <typename Param, typename... T>
  auto ext_oneapi_get_info(T... args) const
      -> decltype(Param::query(std::declval<const kernel&>(), args...)) {
    return Param::query(*this, args...);
  }

  friend bool operator==(const kernel& a, const kernel& b) {
    return detail::same_kernel(a.m_impl, b.m_impl);
  }
  friend bool operator!=(const kernel& a, const kernel& b) { return !(a == b); }

private:
  std::uint32_t max_sub_group_size_for(const device& dev, std::size_t work_group_size) const;

  friend struct detail::impl_access;
  friend struct std::hash<kernel>;
  explicit kernel(std::shared_ptr<detail::kernel_impl> impl) : m_impl(std::move(impl)) {}
  std::shared_ptr<detail::kernel_bundle_impl> bundle() const;
  std::shared_ptr<detail::kernel_impl> m_impl;
};

namespace detail {
// What kernel_bundle<State> does independently of State, implemented in the runtime.
class SYCLONE_EXPORT kernel_bundle_plain {
public:
  bool empty() const noexcept;
  backend get_backend() const noexcept;
  context get_context() const noexcept;
  std::vector<device> get_devices() const noexcept;
  bool has_kernel(const kernel_id& kernel_id) const noexcept;
  bool has_kernel(const kernel_id& kernel_id, const device& dev) const noexcept;
  std::vector<kernel_id> get_kernel_ids() const;
  bool contains_specialization_constants() const noexcept;
  bool native_specialization_constant() const noexcept;

protected:
  explicit kernel_bundle_plain(std::shared_ptr<kernel_bundle_impl> impl)
      : m_impl(std::move(impl)) {}
  bool has_kernel_named(const char* name, const device* dev) const noexcept;
  kernel get_kernel_named(const char* name) const;
  bool has_spec_constant(const char* name) const noexcept;
  void set_spec_constant(const void* id, const char* name, const void* value, std::size_t size);
  // Copies the value of the constant at `id` into `value`; false when it was never set.
  bool get_spec_constant(const void* id, void* value, std::size_t size) const;
  std::size_t image_count() const noexcept;
  std::shared_ptr<device_image_impl> image(std::size_t index) const;
  bool equals(const kernel_bundle_plain& other) const noexcept;

  friend struct impl_access;
  std::shared_ptr<kernel_bundle_impl> m_impl;
};
} // namespace detail

// SYCL 2020 4.11.11. The kernel_bundle class.
template <bundle_state State>
class kernel_bundle : public detail::kernel_bundle_plain,
                      public detail::owner_ordered<kernel_bundle<State>> {
public:
  using device_image_iterator = typename std::vector<device_image<State>>::const_iterator;

  kernel_bundle() = delete;

  using kernel_bundle_plain::has_kernel;
  template <typename KernelName>
  bool has_kernel() const noexcept {
    return has_kernel_named(detail::kernel_name<KernelName>(), nullptr);
  }
  template <typename KernelName>
  bool has_kernel(const device& dev) const noexcept {
    return has_kernel_named(detail::kernel_name<KernelName>(), &dev);
  }

  // Only executable bundles hold kernels ready to run. Throws errc::invalid when the bundle does
  // not contain the kernel.
  template <bundle_state S = State, typename = std::enable_if_t<S == bundle_state::executable>>
  kernel get_kernel(const kernel_id& kernel_id) const {
    return get_kernel_named(kernel_id.get_name());
  }
  template <typename KernelName, bundle_state S = State,
            typename = std::enable_if_t<S == bundle_state::executable>>
  kernel get_kernel() const {
    return get_kernel_named(detail::kernel_name<KernelName>());
  }

  // True when a kernel of the bundle reads the constant (recorded by syclone++ per kernel).
  template <auto& SpecName>
  bool has_specialization_constant() const noexcept {
    return has_spec_constant(detail::spec_constant_name<SpecName>());
  }

  // Only input bundles take values; compile and build fix them.
  template <auto& SpecName, bundle_state S = State,
            typename = std::enable_if_t<S == bundle_state::input>>
  void set_specialization_constant(
      typename std::remove_reference_t<decltype(SpecName)>::value_type value) {
    set_spec_constant(&SpecName, detail::spec_constant_name<SpecName>(), &value, sizeof(value));
  }

  // The value set in this bundle or in the input bundle it was compiled from, else the default.
  template <auto& SpecName>
  typename std::remove_reference_t<decltype(SpecName)>::value_type
  get_specialization_constant() const {
    typename std::remove_reference_t<decltype(SpecName)>::value_type result =
        SpecName.default_value();
    get_spec_constant(&SpecName, &result, sizeof(result));
    return result;
  }

  device_image_iterator begin() const { return m_images->begin(); }
  device_image_iterator end() const { return m_images->end(); }

  // Equal when of the same context and devices, holding the same device images (and, for input
  // bundles, the same values).
  friend bool operator==(const kernel_bundle& a, const kernel_bundle& b) { return a.equals(b); }
  friend bool operator!=(const kernel_bundle& a, const kernel_bundle& b) { return !a.equals(b); }

private:
  friend struct detail::impl_access;
  explicit kernel_bundle(std::shared_ptr<detail::kernel_bundle_impl> impl)
      : kernel_bundle_plain(std::move(impl)) {
    auto images = std::make_shared<std::vector<device_image<State>>>();
    for (std::size_t i = 0, n = image_count(); i < n; ++i)
      images->push_back(detail::impl_access::make<device_image<State>>(image(i)));
    m_images = std::move(images);
  }
  std::shared_ptr<const std::vector<device_image<State>>> m_images;
};

inline kernel_bundle<bundle_state::executable> kernel::get_kernel_bundle() const {
  return detail::impl_access::make<kernel_bundle<bundle_state::executable>>(bundle());
}

namespace detail {
using image_selector = std::function<bool(const std::shared_ptr<device_image_impl>&)>;
// The bundle get_kernel_bundle returns; kernel_ids and selector may be null.
SYCLONE_EXPORT std::shared_ptr<kernel_bundle_impl>
get_kernel_bundle_impl(const context& ctxt, const std::vector<device>& devs,
                       const std::vector<kernel_id>* kernel_ids, const image_selector* selector,
                       bundle_state state);
SYCLONE_EXPORT bool has_kernel_bundle_impl(const context& ctxt, const std::vector<device>& devs,
                                           const std::vector<kernel_id>* kernel_ids,
                                           bundle_state state);
SYCLONE_EXPORT std::shared_ptr<kernel_bundle_impl>
join_impl(const std::vector<std::shared_ptr<kernel_bundle_impl>>& bundles, bundle_state state);

template <bundle_state State>
kernel_bundle<State> make_bundle(std::shared_ptr<kernel_bundle_impl> impl) {
  return impl_access::make<kernel_bundle<State>>(std::move(impl));
}
template <bundle_state State, typename Selector>
inline constexpr bool is_image_selector_v =
    std::is_invocable_r_v<bool, Selector&, const device_image<State>&>;
template <bundle_state State, typename Selector>
image_selector wrap_selector(Selector& selector) {
  return [&selector](const std::shared_ptr<device_image_impl>& image) {
    return static_cast<bool>(selector(impl_access::make<device_image<State>>(image)));
  };
}
} // namespace detail

// SYCL 2020 4.11.6. Obtaining a kernel bundle. Object and executable bundles of the kernel-id
// and device forms are compiled here (the JIT on NVIDIA GPUs, with default values).
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt, const std::vector<device>& devs) {
  return detail::make_bundle<State>(
      detail::get_kernel_bundle_impl(ctxt, devs, nullptr, nullptr, State));
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt, const std::vector<device>& devs,
                                       const std::vector<kernel_id>& kernel_ids) {
  return detail::make_bundle<State>(
      detail::get_kernel_bundle_impl(ctxt, devs, &kernel_ids, nullptr, State));
}
// The selector picks among the application's device images; nothing is compiled here.
template <bundle_state State, typename Selector,
          typename = std::enable_if_t<detail::is_image_selector_v<State, Selector>>>
kernel_bundle<State> get_kernel_bundle(const context& ctxt, const std::vector<device>& devs,
                                       Selector selector) {
  detail::image_selector select = detail::wrap_selector<State>(selector);
  return detail::make_bundle<State>(
      detail::get_kernel_bundle_impl(ctxt, devs, nullptr, &select, State));
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices());
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt,
                                       const std::vector<kernel_id>& kernel_ids) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), kernel_ids);
}
template <bundle_state State, typename Selector,
          typename = std::enable_if_t<detail::is_image_selector_v<State, Selector>>>
kernel_bundle<State> get_kernel_bundle(const context& ctxt, Selector selector) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), selector);
}
template <typename KernelName, bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), {get_kernel_id<KernelName>()});
}
template <typename KernelName, bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& ctxt, const std::vector<device>& devs) {
  return get_kernel_bundle<State>(ctxt, devs, {get_kernel_id<KernelName>()});
}

// SYCL 2020 4.11.7. Querying if a kernel bundle exists.
template <bundle_state State>
bool has_kernel_bundle(const context& ctxt, const std::vector<device>& devs) {
  return detail::has_kernel_bundle_impl(ctxt, devs, nullptr, State);
}
template <bundle_state State>
bool has_kernel_bundle(const context& ctxt, const std::vector<device>& devs,
                       const std::vector<kernel_id>& kernel_ids) {
  return detail::has_kernel_bundle_impl(ctxt, devs, &kernel_ids, State);
}
template <bundle_state State>
bool has_kernel_bundle(const context& ctxt) {
  return has_kernel_bundle<State>(ctxt, ctxt.get_devices());
}
template <bundle_state State>
bool has_kernel_bundle(const context& ctxt, const std::vector<kernel_id>& kernel_ids) {
  return has_kernel_bundle<State>(ctxt, ctxt.get_devices(), kernel_ids);
}
template <typename KernelName, bundle_state State>
bool has_kernel_bundle(const context& ctxt) {
  return has_kernel_bundle<State>(ctxt, {get_kernel_id<KernelName>()});
}
template <typename KernelName, bundle_state State>
bool has_kernel_bundle(const context& ctxt, const std::vector<device>& devs) {
  return has_kernel_bundle<State>(ctxt, devs, {get_kernel_id<KernelName>()});
}

// SYCL 2020 4.11.8. Querying if a kernel is compatible with a device: the host device runs every
// kernel of the program; an NVIDIA GPU those compiled for nvptx64 (-fsycl-targets).
SYCLONE_EXPORT bool is_compatible(const std::vector<kernel_id>& kernel_ids, const device& dev);
template <typename KernelName>
bool is_compatible(const device& dev) {
  return is_compatible({get_kernel_id<KernelName>()}, dev);
}

// SYCL 2020 4.11.9. Joining kernel bundles.
template <bundle_state State>
kernel_bundle<State> join(const std::vector<kernel_bundle<State>>& bundles) {
  if (bundles.empty()) {
    // Nothing to join: an empty bundle (no device images), of the default device.
    device dev;
    const std::vector<kernel_id> no_kernels;
    return detail::make_bundle<State>(
        detail::get_kernel_bundle_impl(context(dev), {dev}, &no_kernels, nullptr, State));
  }
  std::vector<std::shared_ptr<detail::kernel_bundle_impl>> impls;
  for (const auto& b : bundles) impls.push_back(detail::impl_access::get(b));
  return detail::make_bundle<State>(detail::join_impl(impls, State));
}

// SYCL 2020 4.11.10. Online compiling and linking. compile fixes the input bundle's values and
// JIT-compiles its nvptx64 images (errc::build on failure); link loads them; build does both.
// syclone defines no properties for these.
SYCLONE_EXPORT kernel_bundle<bundle_state::object>
compile(const kernel_bundle<bundle_state::input>& input_bundle, const std::vector<device>& devs,
        const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::object>
compile(const kernel_bundle<bundle_state::input>& input_bundle,
        const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>>& object_bundles,
     const std::vector<device>& devs, const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
link(const kernel_bundle<bundle_state::object>& object_bundle, const std::vector<device>& devs,
     const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>>& object_bundles,
     const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
link(const kernel_bundle<bundle_state::object>& object_bundle, const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
build(const kernel_bundle<bundle_state::input>& input_bundle, const std::vector<device>& devs,
      const property_list& prop_list = {});
SYCLONE_EXPORT kernel_bundle<bundle_state::executable>
build(const kernel_bundle<bundle_state::input>& input_bundle, const property_list& prop_list = {});

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::kernel_id> {
  std::size_t operator()(const sycl::kernel_id& k) const {
    return std::hash<const void*>()(k.m_name);
  }
};
template <>
struct std::hash<sycl::kernel> {
  std::size_t operator()(const sycl::kernel& k) const {
    return sycl::detail::kernel_hash(k.m_impl);
  }
};
template <sycl::bundle_state State>
struct std::hash<sycl::kernel_bundle<State>> {
  std::size_t operator()(const sycl::kernel_bundle<State>& b) const {
    return sycl::detail::bundle_hash(sycl::detail::impl_access::get(b));
  }
};
template <sycl::bundle_state State>
struct std::hash<sycl::device_image<State>> {
  std::size_t operator()(const sycl::device_image<State>& d) const {
    return sycl::detail::image_hash(sycl::detail::impl_access::get(d));
  }
};
