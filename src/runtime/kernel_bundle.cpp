// SYCL 2020 4.11 kernel bundles and 4.9.4.4 handler::use_kernel_bundle.
//
// The application's kernels come from the kernel registry: the images syclone++ linked (with
// the specialization constants each kernel reads) and the kernels the host program registered
// itself (include/sycl/detail/host_kernels.hpp). Online compilation is backend work
// (runtime::device::prepare_kernel): the CUDA backend JITs and loads an nvptx64 kernel with the
// values fixed by compile/build, into the same cache launches use.
#include "kernel_attributes.hpp"
#include "kernel_bundle_impl.hpp"

#include "kernel_registry.hpp"
#include "sub_group.hpp"

#include <sycl/exception.hpp>
#include <sycl/ext/oneapi/experimental/launch_queries.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <functional>
#include <optional>
#include <set>
#include <thread>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

struct kernel_id_access {
  static kernel_id make(const char* interned) { return kernel_id(interned); }
};

namespace {

syclone::runtime::kernel_registry& registry() {
  return syclone::runtime::kernel_registry::get();
}

// One address per kernel name for the whole run: kernel_id compares and hashes it, and
// kernel_id::get_name hands it out.
const char* intern(std::string_view name) {
  static std::mutex* mutex = new std::mutex;
  static auto* names = new std::set<std::string, std::less<>>;
  std::lock_guard lock(*mutex);
  auto it = names->find(name);
  if (it == names->end()) it = names->emplace(name).first;
  return it->c_str();
}

// "specialized_kernel" for _ZTS18specialized_kernel, for messages.
std::string readable(std::string_view name) {
  std::string mangled(name);
  int status = 0;
  char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !text) return mangled;
  std::string result = text;
  std::free(text);
  constexpr std::string_view prefix = "typeinfo name for ";
  if (result.starts_with(prefix)) result.erase(0, prefix.size());
  return result;
}
std::string kernel_text(std::string_view name) {
  return "kernel `" + readable(name) + "`";
}

bool available(std::string_view kernel, image_target target) {
  switch (target) {
  case image_target::host:
    return registry().host_has_kernel(kernel);
  case image_target::nvptx64:
    return registry().find(kernel, "nvptx64") != nullptr;
  }
  return false;
}

std::string device_name(const device_impl& dev) {
  return dev.props().name;
}

bool values_equal(const spec_constant_values* a, const spec_constant_values* b) {
  static const spec_constant_values none;
  const auto& x = (a ? *a : none).values();
  const auto& y = (b ? *b : none).values();
  if (x.size() != y.size()) return false;
  for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
    if (i->first != j->first || i->second.bytes != j->second.bytes) return false;
  return true;
}

std::vector<std::shared_ptr<device_impl>> impls_of(const std::vector<device>& devs) {
  std::vector<std::shared_ptr<device_impl>> result;
  for (const auto& d : devs) {
    auto impl = impl_access::get(d);
    if (std::find(result.begin(), result.end(), impl) == result.end()) result.push_back(impl);
  }
  return result;
}

// The checks every get_kernel_bundle / has_kernel_bundle overload makes (SYCL 2020 4.11.6).
std::vector<std::shared_ptr<device_impl>>
checked_devices(const context& ctxt, const std::vector<device>& devs, const char* what) {
  if (devs.empty())
    throw_error(errc::invalid, std::string(what) +
                                   ": the device list is empty; pass devices of the context "
                                   "(context::get_devices())");
  const auto& ctx = impl_access::get(ctxt);
  for (const auto& d : devs)
    if (!ctx->contains(impl_access::get(d).get()))
      throw_error(errc::invalid, std::string(what) + ": device `" +
                                     device_name(*impl_access::get(d)) +
                                     "` is not a device of the context; create the context "
                                     "with it or pass only the context's devices");
  return impls_of(devs);
}

// Whether every device supports what a bundle of `state` needs (SYCL 2020 4.11.6).
const device_impl* lacking_aspect(const std::vector<std::shared_ptr<device_impl>>& devs,
                                  bundle_state state) {
  for (const auto& d : devs) {
    if (state == bundle_state::input && !d->has(aspect::online_compiler)) return d.get();
    if (state == bundle_state::object && !d->has(aspect::online_linker)) return d.get();
  }
  return nullptr;
}

const char* state_name(bundle_state state) {
  switch (state) {
  case bundle_state::input:
    return "bundle_state::input";
  case bundle_state::object:
    return "bundle_state::object";
  case bundle_state::executable:
    return "bundle_state::executable";
  }
  return "?";
}

// SYCL 2020 4.11.7 (is_compatible): the program has device code of `kernel` for the device, and
// its attributes ask nothing the device lacks (5.7, 5.8.1: device_has, reqd_work_group_size).
bool compatible(std::string_view kernel, const device_impl& dev) {
  return available(kernel, target_of(dev)) &&
         !syclone::runtime::attribute_conflict(kernel, dev).has_value() &&
         !syclone::runtime::sub_group_conflict(kernel, dev).has_value();
}

bool compatible_with_any(std::string_view kernel,
                         const std::vector<std::shared_ptr<device_impl>>& devs) {
  for (const auto& d : devs)
    if (compatible(kernel, *d)) return true;
  return false;
}

// Why `kernel` cannot run on `devs`, with the remedy.
std::string incompatible_message(std::string_view kernel,
                                 const std::vector<std::shared_ptr<device_impl>>& devs) {
  for (const auto& d : devs)
    if (auto conflict = syclone::runtime::attribute_conflict(kernel, *d)) return *conflict;
  for (const auto& d : devs)
    if (auto conflict = syclone::runtime::sub_group_conflict(kernel, *d)) return *conflict;
  std::string msg = kernel_text(kernel) + " cannot run on ";
  for (std::size_t i = 0; i < devs.size(); ++i)
    msg += (i ? ", `" : "`") + device_name(*devs[i]) + "`";
  auto targets = registry().targets_of(kernel);
  msg += targets.empty() ? "; it has no device code (built with -fsycl-targets=host)"
                         : "; its device code is for " + targets.front();
  msg += ": rebuild with -fsycl-targets=nvptx64 or use the host device";
  return msg;
}

// The images of the application in `state` for `kernels` on `devs`: one per kernel and target.
std::vector<std::shared_ptr<device_image_impl>>
application_images(const std::vector<std::string>& kernels,
                   const std::vector<std::shared_ptr<device_impl>>& devs, bundle_state state) {
  std::vector<image_target> targets;
  for (const auto& d : devs)
    if (std::find(targets.begin(), targets.end(), target_of(*d)) == targets.end())
      targets.push_back(target_of(*d));
  std::sort(targets.begin(), targets.end());
  std::vector<std::shared_ptr<device_image_impl>> images;
  for (const auto& kernel : kernels) {
    std::optional<std::vector<std::string>> reads;
    bool looked = false;
    for (image_target t : targets) {
      if (!available(kernel, t)) continue;
      if (!looked) {
        reads = registry().spec_constants_of(kernel);
        looked = true;
      }
      auto image = std::make_shared<device_image_impl>();
      image->kernel = intern(kernel);
      image->target = t;
      image->state = state;
      if (reads) image->spec_constants = *reads;
      images.push_back(std::move(image));
    }
  }
  return images;
}

// Online compile and link (SYCL 2020 4.11.10): each device of the bundle readies its images
// with their values. Kernels compile in parallel (the JIT and the backends are thread-safe).
void prepare(const kernel_bundle_impl& bundle) {
  struct job {
    const device_image_impl* image;
    device_impl* device;
  };
  std::vector<job> jobs;
  for (const auto& image : bundle.images())
    for (const auto& d : bundle.devices())
      if (image->target == target_of(*d) && image->target != image_target::host)
        jobs.push_back({image.get(), d.get()});
  if (jobs.empty()) return;
  auto run = [](const job& j) {
    j.device->backend_device().prepare_kernel(j.image->kernel, j.image->values.get());
  };
  unsigned workers = std::min<unsigned>(std::max(1u, std::thread::hardware_concurrency()),
                                        static_cast<unsigned>(jobs.size()));
  if (workers == 1) {
    for (const auto& j : jobs) run(j);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
        try {
          run(jobs[i]);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      }
    });
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

// A new bundle in `state` on `devs` from `source`: its images compatible with `devs`, the values
// fixed (the input bundle's for an input source), compiled.
std::shared_ptr<kernel_bundle_impl> translate(const kernel_bundle_impl& source,
                                              std::vector<std::shared_ptr<device_impl>> devs,
                                              bundle_state state) {
  auto result = std::make_shared<kernel_bundle_impl>(source.context(), std::move(devs), state);
  std::shared_ptr<spec_constant_values> fixed;
  if (source.state() == bundle_state::input)
    fixed = std::make_shared<spec_constant_values>(source.input_values());
  for (const auto& image : source.images()) {
    bool used = false;
    for (const auto& d : result->devices()) used = used || image->target == target_of(*d);
    if (!used) continue;
    auto copy = std::make_shared<device_image_impl>(*image);
    copy->state = state;
    if (fixed) copy->values = fixed;
    result->add_image(std::move(copy));
  }
  prepare(*result);
  return result;
}

// Every device in `devs` must be one of `bundle`'s (compile, link, build).
std::vector<std::shared_ptr<device_impl>> devices_of_bundle(const kernel_bundle_impl& bundle,
                                                            const std::vector<device>& devs,
                                                            const char* what) {
  if (devs.empty())
    throw_error(errc::invalid, std::string(what) + ": the device list is empty; pass devices of "
                                                   "the bundle (kernel_bundle::get_devices())");
  auto impls = impls_of(devs);
  for (const auto& d : impls)
    if (!bundle.has_device(*d))
      throw_error(errc::invalid, std::string(what) + ": device `" + device_name(*d) +
                                     "` is not a device of the bundle; pass only devices of "
                                     "kernel_bundle::get_devices()");
  return impls;
}

std::vector<device> public_devices(const std::vector<std::shared_ptr<device_impl>>& devs) {
  std::vector<device> result;
  for (const auto& d : devs) result.push_back(impl_access::make<device>(d));
  return result;
}

} // namespace

const char* target_name(image_target target) {
  return target == image_target::host ? "host" : "nvptx64";
}

image_target target_of(const device_impl& dev) {
  return dev.backend_device().backend() == backend::ext_oneapi_cuda ? image_target::nvptx64
                                                                    : image_target::host;
}

bool device_image_impl::reads(std::string_view spec_constant) const {
  return std::binary_search(spec_constants.begin(), spec_constants.end(), spec_constant);
}

bool kernel_bundle_impl::has_device(const device_impl& dev) const {
  for (const auto& d : m_devices)
    if (d.get() == &dev) return true;
  return false;
}

const device_image_impl* kernel_bundle_impl::find(std::string_view kernel,
                                                  const device_impl& dev) const {
  image_target t = target_of(dev);
  for (const auto& image : m_images)
    if (image->target == t && kernel == image->kernel) return image.get();
  return nullptr;
}

spec_constant_values kernel_bundle_impl::input_values() const {
  std::lock_guard lock(m_mutex);
  return m_input_values;
}
void kernel_bundle_impl::set_input_value(const void* id, const char* name, const void* value,
                                         std::size_t size) {
  std::lock_guard lock(m_mutex);
  m_input_values.set(id, name, value, size);
}
void kernel_bundle_impl::set_input_values(spec_constant_values values) {
  std::lock_guard lock(m_mutex);
  m_input_values = std::move(values);
}

// Host kernel registration (include/sycl/detail/host_kernels.hpp).
host_kernel_registration::host_kernel_registration(const char* name) : m_name(name) {
  registry().register_host_kernel(name);
}
host_kernel_registration::~host_kernel_registration() {
  registry().unregister_host_kernel(m_name);
}

kernel_id make_kernel_id(const char* name) {
  std::string_view n = name ? name : "";
  auto all = registry().kernel_names();
  if (!std::binary_search(all.begin(), all.end(), n))
    throw_error(errc::runtime,
                "get_kernel_id: the application defines no " + kernel_text(n) + " (" +
                    std::string(n) +
                    "); a kernel exists where the program submits it with single_task or "
                    "parallel_for under that name (SYCL 2020 4.11.5); name lambda kernels with "
                    "a type, e.g. parallel_for<class my_kernel>(...)");
  return kernel_id_access::make(intern(n));
}

// bind_kernel_bundle (handler::use_kernel_bundle at submission)
void bind_kernel_bundle(const kernel_bundle_impl& bundle, command& cmd, const device_impl& dev) {
  if (cmd.what != command::kind::kernel) return;
  std::string_view kernel = cmd.launch.name ? cmd.launch.name : "";
  const device_image_impl* image = bundle.has_device(dev) ? bundle.find(kernel, dev) : nullptr;
  if (!image)
    throw_error(errc::kernel_not_supported,
                kernel_text(kernel) +
                    " is not in the kernel bundle given to "
                    "handler::use_kernel_bundle for device `" +
                    device_name(dev) +
                    "`; get the bundle with this kernel's id and this device "
                    "(get_kernel_bundle<KernelName, bundle_state::input>(ctx, {dev})) and build "
                    "it, or submit without use_kernel_bundle");
  // The values compiled into the image: the key under which the backend prepared it.
  cmd.spec_constants = image->values && !image->values->empty() ? image->values : nullptr;
}

namespace {
// available() for a submission: the kernels this thread found under the registry's current
// generation, so that a queue submitting the same kernels again neither locks the registry nor
// searches its images (SYCL 2020 4.6.5.1: every queue::submit checks this). Only positive
// answers are kept: a missing kernel throws anyway.
bool available_at_submission(const char* name, image_target target) {
  std::string_view kernel = name ? name : "";
  struct entry {
    std::string kernel;
    const char* name = nullptr; // the launch's pointer: equal pointers, equal names
    image_target target = image_target::host;
    std::uint64_t generation = 0; // the registry's generations start at 1
  };
  constexpr std::size_t slots = 8;
  thread_local entry seen[slots];
  thread_local std::size_t next = 0;
  std::uint64_t generation = registry().generation();
  for (const auto& e : seen)
    if (e.generation == generation && e.target == target &&
        ((name && e.name == name) || e.kernel == kernel))
      return true;
  if (!available(kernel, target)) return false;
  // The registry may have changed during the search: then the entry is stale at once.
  entry& e = seen[next++ % slots];
  e.kernel.assign(kernel);
  e.name = name;
  e.target = target;
  e.generation = generation;
  return true;
}
} // namespace

void check_compatible(const command& cmd, const device_impl& dev) {
  if (cmd.what != command::kind::kernel) return;
  image_target target = target_of(dev);
  if (target == image_target::host) return; // the host program holds every kernel it submits
  std::string_view kernel = cmd.launch.name ? cmd.launch.name : "";
  if (available_at_submission(cmd.launch.name, target)) return;
  throw_error(errc::kernel_not_supported,
              kernel_text(kernel) + " cannot run on `" + device_name(dev) +
                  "`: the program has no " + target_name(target) +
                  " device code for it; rebuild with -fsycl-targets=" + target_name(target) +
                  " (is_compatible tells beforehand)");
}

// same_image, image_hash, bundle_hash
bool same_image(const std::shared_ptr<device_image_impl>& a,
                const std::shared_ptr<device_image_impl>& b) noexcept {
  if (a == b) return true;
  if (!a || !b) return false;
  return a->kernel == b->kernel && a->target == b->target && a->state == b->state &&
         values_equal(a->values.get(), b->values.get());
}
std::size_t image_hash(const std::shared_ptr<device_image_impl>& image) noexcept {
  if (!image) return 0;
  return std::hash<const void*>()(image->kernel) * 31 + static_cast<std::size_t>(image->target);
}
std::size_t bundle_hash(const std::shared_ptr<kernel_bundle_impl>& bundle) noexcept {
  if (!bundle) return 0;
  std::size_t h = std::hash<const void*>()(bundle->context().get());
  for (const auto& image : bundle->images()) h += image_hash(image); // order-independent
  return h;
}

bool same_kernel(const std::shared_ptr<kernel_impl>& a,
                 const std::shared_ptr<kernel_impl>& b) noexcept {
  if (a == b) return true;
  return a && b && a->bundle() == b->bundle() && a->name() == b->name();
}
std::size_t kernel_hash(const std::shared_ptr<kernel_impl>& kernel) noexcept {
  if (!kernel) return 0;
  return std::hash<const void*>()(kernel->bundle().get()) * 31 +
         std::hash<const void*>()(kernel->name());
}

// get_kernel_bundle, has_kernel_bundle, is_compatible, join
std::shared_ptr<kernel_bundle_impl> get_kernel_bundle_impl(const context& ctxt,
                                                           const std::vector<device>& devs,
                                                           const std::vector<kernel_id>* kernel_ids,
                                                           const image_selector* selector,
                                                           bundle_state state) {
  auto impls = checked_devices(ctxt, devs, "get_kernel_bundle");
  if (const device_impl* d = lacking_aspect(impls, state))
    throw_error(errc::invalid, std::string("get_kernel_bundle<") + state_name(state) +
                                   ">: device `" + device_name(*d) + "` has no " +
                                   (state == bundle_state::input ? "aspect::online_compiler"
                                                                 : "aspect::online_linker") +
                                   "; ask for bundle_state::executable");
  std::vector<std::string> kernels;
  if (kernel_ids) {
    for (const auto& id : *kernel_ids) {
      std::string name = id.get_name();
      if (!compatible_with_any(name, impls))
        throw_error(errc::invalid, "get_kernel_bundle: " + incompatible_message(name, impls));
      kernels.push_back(std::move(name));
    }
    std::sort(kernels.begin(), kernels.end());
    kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());
  } else {
    // SYCL 2020 4.11.6: the kernels compatible with at least one of the devices; attributes
    // (device_has, reqd_work_group_size, reqd_sub_group_size) exclude those no device can run.
    for (auto& name : registry().kernel_names()) {
      bool runs_somewhere = false;
      for (const auto& d : impls)
        runs_somewhere = runs_somewhere || (!syclone::runtime::attribute_conflict(name, *d) &&
                                            !syclone::runtime::sub_group_conflict(name, *d));
      if (runs_somewhere) kernels.push_back(std::move(name));
    }
  }
  auto bundle = std::make_shared<kernel_bundle_impl>(impl_access::get(ctxt), impls, state);
  for (auto& image : application_images(kernels, impls, state))
    if (!selector || (*selector)(image)) bundle->add_image(std::move(image));
  // SYCL 2020 4.11.6: object and executable bundles come compiled (with default values); the
  // selector form only picks images and compiles nothing.
  if (!selector && state != bundle_state::input) prepare(*bundle);
  return bundle;
}

bool has_kernel_bundle_impl(const context& ctxt, const std::vector<device>& devs,
                            const std::vector<kernel_id>* kernel_ids, bundle_state state) {
  auto impls = checked_devices(ctxt, devs, "has_kernel_bundle");
  if (lacking_aspect(impls, state)) return false;
  if (kernel_ids) {
    for (const auto& id : *kernel_ids)
      if (!compatible_with_any(id.get_name(), impls)) return false;
    return true;
  }
  for (const auto& name : registry().kernel_names())
    if (compatible_with_any(name, impls)) return true;
  return false;
}

std::shared_ptr<kernel_bundle_impl>
join_impl(const std::vector<std::shared_ptr<kernel_bundle_impl>>& bundles, bundle_state state) {
  if (bundles.empty())
    throw_error(errc::invalid, "join: no bundles given; pass at least one kernel bundle");
  const auto& first = *bundles.front();
  auto same_devices = [&](const kernel_bundle_impl& b) {
    if (b.devices().size() != first.devices().size()) return false;
    for (const auto& d : b.devices())
      if (!first.has_device(*d)) return false;
    return true;
  };
  for (const auto& b : bundles) {
    if (b->context() != first.context())
      throw_error(errc::invalid, "join: the bundles belong to different contexts; join bundles "
                                 "of one context");
    if (!same_devices(*b))
      throw_error(errc::invalid, "join: the bundles have different devices; join bundles "
                                 "obtained for the same devices");
  }
  auto result = std::make_shared<kernel_bundle_impl>(first.context(), first.devices(), state);
  spec_constant_values merged;
  for (const auto& b : bundles) {
    for (const auto& image : b->images()) {
      bool duplicate = false;
      for (const auto& kept : result->images()) duplicate = duplicate || same_image(kept, image);
      if (!duplicate) result->add_image(image);
    }
    // Input bundles: the values set in each, later bundles winning where they overlap. Held in
    // a local: a range-for over input_values().values() outlives the temporary owning the map.
    if (state == bundle_state::input) {
      const spec_constant_values values = b->input_values();
      for (const auto& [id, v] : values.values())
        merged.set(id, v.name.c_str(), v.bytes.data(), v.bytes.size());
    }
  }
  if (state == bundle_state::input) result->set_input_values(std::move(merged));
  return result;
}

} // namespace detail

std::vector<kernel_id> get_kernel_ids() {
  std::vector<kernel_id> ids;
  for (const auto& name : detail::registry().kernel_names())
    ids.push_back(detail::kernel_id_access::make(detail::intern(name)));
  return ids;
}

bool is_compatible(const std::vector<kernel_id>& kernel_ids, const device& dev) {
  const auto& d = *detail::impl_access::get(dev);
  for (const auto& id : kernel_ids)
    if (!detail::compatible(id.get_name(), d)) return false;
  return true;
}

// compile, link, build
kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input>& input_bundle,
                                            const std::vector<device>& devs, const property_list&) {
  const auto& source = *detail::impl_access::get(input_bundle);
  auto impls = detail::devices_of_bundle(source, devs, "sycl::compile");
  return detail::make_bundle<bundle_state::object>(
      detail::translate(source, std::move(impls), bundle_state::object));
}
kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input>& input_bundle,
                                            const property_list& prop_list) {
  return compile(input_bundle, input_bundle.get_devices(), prop_list);
}

kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>>& object_bundles,
     const std::vector<device>& devs, const property_list&) {
  if (object_bundles.empty())
    detail::throw_error(errc::invalid, "sycl::link: no bundles given; pass at least one object "
                                       "bundle");
  std::vector<std::shared_ptr<detail::kernel_bundle_impl>> impls;
  for (const auto& b : object_bundles) impls.push_back(detail::impl_access::get(b));
  for (const auto& b : impls)
    if (b->context() != impls.front()->context())
      detail::throw_error(errc::invalid, "sycl::link: the bundles belong to different contexts; "
                                         "link bundles of one context");
  std::vector<std::shared_ptr<detail::device_impl>> devices;
  for (const auto& b : impls) devices = detail::devices_of_bundle(*b, devs, "sycl::link");
  // Duplicate images go as in join; the object images keep the values compiled into them.
  auto result = std::make_shared<detail::kernel_bundle_impl>(impls.front()->context(), devices,
                                                             bundle_state::executable);
  for (const auto& b : impls)
    for (const auto& image : b->images()) {
      bool used = false;
      for (const auto& d : devices) used = used || image->target == detail::target_of(*d);
      bool duplicate = false;
      for (const auto& kept : result->images())
        duplicate = duplicate || detail::same_image(kept, image);
      if (!used || duplicate) continue;
      auto copy = std::make_shared<detail::device_image_impl>(*image);
      copy->state = bundle_state::executable;
      result->add_image(std::move(copy));
    }
  detail::prepare(*result);
  return detail::make_bundle<bundle_state::executable>(std::move(result));
}
kernel_bundle<bundle_state::executable>
link(const kernel_bundle<bundle_state::object>& object_bundle, const std::vector<device>& devs,
     const property_list& prop_list) {
  return link(std::vector<kernel_bundle<bundle_state::object>>{object_bundle}, devs, prop_list);
}
kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>>& object_bundles,
     const property_list& prop_list) {
  // The devices all bundles have in common.
  std::vector<device> common;
  if (!object_bundles.empty())
    for (const auto& d : object_bundles.front().get_devices()) {
      bool everywhere = true;
      for (const auto& b : object_bundles) {
        auto devs = b.get_devices();
        everywhere = everywhere && std::find(devs.begin(), devs.end(), d) != devs.end();
      }
      if (everywhere) common.push_back(d);
    }
  return link(object_bundles, common, prop_list);
}
kernel_bundle<bundle_state::executable>
link(const kernel_bundle<bundle_state::object>& object_bundle, const property_list& prop_list) {
  return link(object_bundle, object_bundle.get_devices(), prop_list);
}

kernel_bundle<bundle_state::executable>
build(const kernel_bundle<bundle_state::input>& input_bundle, const std::vector<device>& devs,
      const property_list&) {
  const auto& source = *detail::impl_access::get(input_bundle);
  auto impls = detail::devices_of_bundle(source, devs, "sycl::build");
  return detail::make_bundle<bundle_state::executable>(
      detail::translate(source, std::move(impls), bundle_state::executable));
}
kernel_bundle<bundle_state::executable>
build(const kernel_bundle<bundle_state::input>& input_bundle, const property_list& prop_list) {
  return build(input_bundle, input_bundle.get_devices(), prop_list);
}

// device_image_plain
namespace detail {
bool device_image_plain::has_kernel(const kernel_id& kernel_id) const noexcept {
  return m_impl && kernel_id.get_name() == m_impl->kernel;
}
bool device_image_plain::has_kernel(const kernel_id& kernel_id, const device& dev) const noexcept {
  return has_kernel(kernel_id) && target_of(*impl_access::get(dev)) == m_impl->target;
}

// kernel_bundle_plain
bool kernel_bundle_plain::empty() const noexcept {
  return m_impl->images().empty();
}
backend kernel_bundle_plain::get_backend() const noexcept {
  return m_impl->devices().front()->backend_device().backend();
}
context kernel_bundle_plain::get_context() const noexcept {
  return impl_access::make<context>(m_impl->context());
}
std::vector<device> kernel_bundle_plain::get_devices() const noexcept {
  return public_devices(m_impl->devices());
}
bool kernel_bundle_plain::has_kernel(const kernel_id& kernel_id) const noexcept {
  for (const auto& image : m_impl->images())
    if (image->kernel == kernel_id.get_name()) return true;
  return false;
}
bool kernel_bundle_plain::has_kernel(const kernel_id& kernel_id, const device& dev) const noexcept {
  return m_impl->find(kernel_id.get_name(), *impl_access::get(dev)) != nullptr;
}
bool kernel_bundle_plain::has_kernel_named(const char* name, const device* dev) const noexcept {
  std::string_view n = name ? name : "";
  for (const auto& image : m_impl->images())
    if (n == image->kernel && (!dev || image->target == target_of(*impl_access::get(*dev))))
      return true;
  return false;
}
std::vector<kernel_id> kernel_bundle_plain::get_kernel_ids() const {
  std::vector<const char*> names;
  for (const auto& image : m_impl->images())
    if (std::find(names.begin(), names.end(), image->kernel) == names.end())
      names.push_back(image->kernel);
  std::sort(names.begin(), names.end(),
            [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
  std::vector<kernel_id> ids;
  for (const char* n : names) ids.push_back(kernel_id_access::make(n));
  return ids;
}
bool kernel_bundle_plain::contains_specialization_constants() const noexcept {
  for (const auto& image : m_impl->images())
    if (!image->spec_constants.empty()) return true;
  return false;
}
bool kernel_bundle_plain::native_specialization_constant() const noexcept {
  // SYCL 2020 4.11.11: some image reads a constant, and every image that does has them native.
  bool any = false;
  for (const auto& image : m_impl->images()) {
    if (image->spec_constants.empty()) continue;
    if (!image->native_spec_constants()) return false;
    any = true;
  }
  return any;
}
bool kernel_bundle_plain::has_spec_constant(const char* name) const noexcept {
  for (const auto& image : m_impl->images())
    if (image->reads(name)) return true;
  return false;
}
void kernel_bundle_plain::set_spec_constant(const void* id, const char* name, const void* value,
                                            std::size_t size) {
  m_impl->set_input_value(id, name, value, size);
}
bool kernel_bundle_plain::get_spec_constant(const void* id, void* value, std::size_t size) const {
  auto copy = [&](const spec_constant_values& values) {
    const void* v = values.find(id);
    if (v) std::memcpy(value, v, size);
    return v != nullptr;
  };
  if (m_impl->state() == bundle_state::input) return copy(m_impl->input_values());
  for (const auto& image : m_impl->images())
    if (image->values && copy(*image->values)) return true;
  return false;
}
std::size_t kernel_bundle_plain::image_count() const noexcept {
  return m_impl->images().size();
}
std::shared_ptr<device_image_impl> kernel_bundle_plain::image(std::size_t index) const {
  return m_impl->images().at(index);
}
bool kernel_bundle_plain::equals(const kernel_bundle_plain& other) const noexcept {
  const auto& a = *m_impl;
  const auto& b = *other.m_impl;
  if (&a == &b) return true;
  if (a.context() != b.context() || a.devices().size() != b.devices().size() ||
      a.images().size() != b.images().size())
    return false;
  for (const auto& d : a.devices())
    if (!b.has_device(*d)) return false;
  for (const auto& image : a.images()) {
    bool found = false;
    for (const auto& other_image : b.images()) found = found || same_image(image, other_image);
    if (!found) return false;
  }
  if (a.state() == bundle_state::input) {
    auto x = a.input_values(), y = b.input_values();
    return values_equal(&x, &y);
  }
  return true;
}
kernel kernel_bundle_plain::get_kernel_named(const char* name) const {
  std::string_view n = name ? name : "";
  for (const auto& image : m_impl->images())
    if (n == image->kernel)
      return impl_access::make<kernel>(std::make_shared<kernel_impl>(m_impl, image->kernel));
  throw_error(errc::invalid, "kernel_bundle::get_kernel: the bundle does not contain " +
                                 kernel_text(n) +
                                 "; get the bundle with that kernel's id (get_kernel_bundle)");
}
} // namespace detail

// kernel
backend kernel::get_backend() const noexcept {
  return m_impl->bundle()->devices().front()->backend_device().backend();
}
context kernel::get_context() const {
  return detail::impl_access::make<context>(m_impl->bundle()->context());
}
std::shared_ptr<detail::kernel_bundle_impl> kernel::bundle() const {
  return m_impl->bundle();
}

namespace detail {
namespace {
// What SYCL 2020 4.11.13.3 descriptors report for `k` on `dev`; errc::invalid when incompatible.
syclone::runtime::kernel_properties kernel_properties_on(const kernel_impl& k, const device& dev,
                                                         const char* what) {
  const auto& d = *impl_access::get(dev);
  if (!compatible(k.name(), d))
    throw_error(errc::invalid, std::string("kernel::get_info<") + what +
                                   ">: " + kernel_text(k.name()) + " is not compatible with `" +
                                   device_name(d) + "` (is_compatible is false)");
  const device_image_impl* image = k.bundle()->find(k.name(), d);
  return d.backend_device().prepare_kernel(k.name(), image ? image->values.get() : nullptr);
}
} // namespace
} // namespace detail

template <>
SYCLONE_EXPORT std::uint32_t kernel::get_info<info::kernel::num_args>() const {
  // SYCL 2020 table 4.11.13.2: only for interoperability and built-in kernels.
  detail::throw_error(errc::invalid,
                      "kernel::get_info<info::kernel::num_args>: only kernels created through "
                      "backend interoperability or device built-in kernels answer it (SYCL 2020 "
                      "4.11.13.2); " +
                          detail::kernel_text(m_impl->name()) + " is a SYCL kernel function");
}
template <>
SYCLONE_EXPORT std::string kernel::get_info<info::kernel::attributes>() const {
  // SYCL 2020 5.8.1 attributes of the kernel (reqd_work_group_size, work_group_size_hint,
  // device_has), as recorded by syclone++.
  return syclone::runtime::attributes_text(m_impl->name());
}

template <>
SYCLONE_EXPORT range<3>
kernel::get_info<info::kernel_device_specific::global_work_size>(const device& dev) const {
  detail::kernel_properties_on(*m_impl, dev, "info::kernel_device_specific::global_work_size");
  detail::throw_error(errc::invalid,
                      "kernel::get_info<info::kernel_device_specific::global_work_size>: only "
                      "for custom devices and built-in kernels (SYCL 2020 4.11.13.3); `" +
                          dev.get_info<info::device::name>() + "` is not a custom device");
}
template <>
SYCLONE_EXPORT std::size_t
kernel::get_info<info::kernel_device_specific::work_group_size>(const device& dev) const {
  auto p = detail::kernel_properties_on(*m_impl, dev, "work_group_size");
  return std::min(p.work_group_size, detail::impl_access::get(dev)->props().max_work_group_size);
}
template <>
SYCLONE_EXPORT range<3>
kernel::get_info<info::kernel_device_specific::compile_work_group_size>(const device& dev) const {
  detail::kernel_properties_on(*m_impl, dev, "compile_work_group_size");
  std::size_t size[3];
  syclone::runtime::compile_work_group_size(m_impl->name(), size);
  return range<3>(size[0], size[1], size[2]); // {0, 0, 0} without reqd_work_group_size
}
template <>
SYCLONE_EXPORT std::size_t
kernel::get_info<info::kernel_device_specific::preferred_work_group_size_multiple>(
    const device& dev) const {
  auto p = detail::kernel_properties_on(*m_impl, dev, "preferred_work_group_size_multiple");
  return std::min(p.preferred_work_group_size_multiple, p.work_group_size);
}
template <>
SYCLONE_EXPORT std::size_t
kernel::get_info<info::kernel_device_specific::private_mem_size>(const device& dev) const {
  return detail::kernel_properties_on(*m_impl, dev, "private_mem_size").private_mem_size;
}
// The sub-group descriptors as seed 004 defines them (src/runtime/sub_group.hpp).
template <>
SYCLONE_EXPORT std::uint32_t
kernel::get_info<info::kernel_device_specific::max_num_sub_groups>(const device& dev) const {
  auto p = detail::kernel_properties_on(*m_impl, dev, "max_num_sub_groups");
  return syclone::runtime::kernel_max_num_sub_groups(detail::impl_access::get(dev)->props(),
                                                     m_impl->name(), p.work_group_size);
}
template <>
SYCLONE_EXPORT std::uint32_t
kernel::get_info<info::kernel_device_specific::compile_num_sub_groups>(const device& dev) const {
  detail::kernel_properties_on(*m_impl, dev, "compile_num_sub_groups");
  return syclone::runtime::kernel_compile_num_sub_groups(m_impl->name());
}
template <>
SYCLONE_EXPORT std::uint32_t
kernel::get_info<info::kernel_device_specific::max_sub_group_size>(const device& dev) const {
  auto p = detail::kernel_properties_on(*m_impl, dev, "max_sub_group_size");
  return syclone::runtime::kernel_max_sub_group_size(detail::impl_access::get(dev)->props(),
                                                     m_impl->name(), p.work_group_size);
}
std::uint32_t kernel::max_sub_group_size_for(const device& dev, std::size_t work_group_size) const {
  detail::kernel_properties_on(*m_impl, dev, "max_sub_group_size");
  return syclone::runtime::kernel_max_sub_group_size(detail::impl_access::get(dev)->props(),
                                                     m_impl->name(), work_group_size);
}
template <>
SYCLONE_EXPORT std::uint32_t
kernel::get_info<info::kernel_device_specific::compile_sub_group_size>(const device& dev) const {
  detail::kernel_properties_on(*m_impl, dev, "compile_sub_group_size");
  return syclone::runtime::kernel_compile_sub_group_size(detail::impl_access::get(dev)->props(),
                                                         m_impl->name());
}

// sycl_ext_oneapi_launch_queries (ext/oneapi/experimental/launch_queries.hpp).
namespace detail {
std::size_t launch_query_answer(const kernel& k, const queue& q, launch_query which, int dimensions,
                                const std::size_t* local, std::size_t local_bytes,
                                std::size_t* out) {
  const auto& impl = *impl_access::get(k);
  const device dev = q.get_device();
  const auto& d = *impl_access::get(dev);
  const char* what = which == launch_query::max_work_group_size   ? "max_work_group_size"
                     : which == launch_query::max_num_work_groups ? "max_num_work_groups"
                     : which == launch_query::max_sub_group_size  ? "max_sub_group_size"
                     : which == launch_query::num_sub_groups      ? "num_sub_groups"
                                                                  : "max_work_item_sizes";
  const std::string query =
      std::string("kernel::ext_oneapi_get_info<info::kernel_queue_specific::") + what + ">";
  if (k.get_context() != q.get_context())
    throw_error(errc::invalid, query + ": the queue belongs to another context than the kernel");
  const syclone::runtime::kernel_properties p = kernel_properties_on(impl, dev, what);
  const std::size_t most = std::min(p.work_group_size, d.props().max_work_group_size);
  std::size_t items = 1;
  bool fits = true;
  if (local) {
    for (int i = 0; i < dimensions; ++i) {
      items *= local[i];
      fits = fits && local[i] <= d.props().max_work_item_sizes[3 - dimensions + i];
    }
    if (items == 0)
      throw_error(errc::invalid, query + ": a work-group of 0 work-items; give a work-group "
                                         "range of at least 1 in every dimension");
    std::size_t required[3];
    syclone::runtime::compile_work_group_size(impl.name(), required);
    if (required[0] != 0)
      for (int i = 0; i < dimensions; ++i) fits = fits && required[3 - dimensions + i] == local[i];
    fits = fits && items <= most;
  }
  switch (which) {
  case launch_query::max_work_group_size:
    return most;
  case launch_query::max_work_item_sizes:
    for (int i = 0; i < dimensions; ++i)
      out[i] = std::min(d.props().max_work_item_sizes[3 - dimensions + i], most);
    return 0;
  case launch_query::max_num_work_groups: {
    if (!fits) return 0;
    const device_image_impl* image = impl.bundle()->find(impl.name(), d);
    return d.backend_device().max_concurrent_work_groups(
        impl.name(), image ? image->values.get() : nullptr, items, local_bytes);
  }
  case launch_query::max_sub_group_size:
  case launch_query::num_sub_groups: {
    if (!fits) return 0;
    const std::uint32_t size =
        syclone::runtime::kernel_max_sub_group_size(d.props(), impl.name(), items);
    if (which == launch_query::max_sub_group_size) return size;
    return size ? (items + size - 1) / size : 0;
  }
  }
  return 0;
}
} // namespace detail

// handler::use_kernel_bundle
void handler::use_kernel_bundle(const kernel_bundle<bundle_state::executable>& exec_bundle) {
  const auto& bundle = detail::impl_access::get(exec_bundle);
  if (bundle->context() != m_impl->m_queue->context())
    detail::throw_error(errc::invalid,
                        "handler::use_kernel_bundle: the bundle belongs to another context than "
                        "the queue; get the bundle with queue::get_context()");
  if (m_impl->m_spec)
    detail::throw_error(errc::invalid,
                        "handler::use_kernel_bundle: this command group already called "
                        "handler::set_specialization_constant; the two ways of setting values "
                        "exclude each other (SYCL 2020 4.9.4.4): set them on the input bundle "
                        "before sycl::build");
  m_impl->m_bundle = bundle;
}

SYCLONE_END_NAMESPACE
