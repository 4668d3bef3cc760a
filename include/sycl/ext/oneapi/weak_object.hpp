// sycl_ext_oneapi_weak_object: weak_object<T>, a reference to a SYCL object with common
// reference semantics (SYCL 2020 4.5.2) that does not keep it alive, and owner_less<T>, the
// owner-based order of such objects and their weak references (with the ext_oneapi_owner_before
// members of detail/owner_less_base.hpp).
//
// What a weak_object refers to, class by class:
// - classes holding their implementation through a std::shared_ptr (platform, device, context,
//   queue, event, kernel, kernel_bundle, device_image, buffer, unsampled_image, sampled_image):
//   a std::weak_ptr to it. It expires when the last handle goes, that is when the implementation
//   runs its destructor (a buffer's wait and write-back). Platforms and devices live as long as
//   the runtime: their weak objects never expire. A kernel is the object get_kernel made (two
//   get_kernel calls make two equal kernels, which are two objects).
// - host_accessor: the hold it has on its buffer, released when its last copy goes.
// - accessor, local_accessor, stream and the image accessors, whose bytes are the kernel's
//   argument: the identity block their constructor made (detail/object_identity.hpp), which its
//   copies share, a command group's copies included. Such an object expires when the last copy
//   is destroyed: the user's and, once the command has run, the command's. It is not its buffer:
//   two accessors of one buffer are two objects, and a buffer outlives its accessors.
// - kernel_id: the kernel's name, which lives as long as the program: never expires.
// lock() gives an object equal to the one the weak_object was made from (for a buffer: the same
// range, allocator and properties, which the weak_object keeps; for accessors: the same view).
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/buffer.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/object_identity.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/device.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/image.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/platform.hpp>
#include <sycl/queue.hpp>
#include <sycl/stream.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#define SYCL_EXT_ONEAPI_WEAK_OBJECT 1

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// The private parts weak objects need.
struct weak_access {
  template <typename T>
  static const auto& state(const ext::oneapi::weak_object<T>& w) noexcept {
    return w.m_weak;
  }
  template <typename T>
  static object_identity& identity(T& obj) noexcept {
    return obj.m_identity;
  }
  template <typename T>
  static const object_identity& identity(const T& obj) noexcept {
    return obj.m_identity;
  }
  template <typename T, int D, access_mode M>
  static std::shared_ptr<void>& hold(host_accessor<T, D, M>& a) noexcept {
    return a.m_hold;
  }
  template <typename T, int D, access_mode M>
  static const std::shared_ptr<void>& hold(const host_accessor<T, D, M>& a) noexcept {
    return a.m_hold;
  }
  template <typename T, int D, typename A>
  static const property_list& properties(const buffer<T, D, A>& b) noexcept {
    return b.m_props;
  }
  template <typename T, int D, typename A>
  static buffer<T, D, A> make_buffer(std::shared_ptr<buffer_impl> impl, const range<D>& r,
                                     const A& alloc, const property_list& props) {
    buffer<T, D, A> b(std::move(impl), r, props);
    b.m_alloc = alloc;
    return b;
  }
  template <typename Image, typename... Args>
  static Image make_image(Args&&... args) {
    return Image(std::forward<Args>(args)...);
  }
  template <typename Image>
  static const auto& image_state(const Image& image) noexcept {
    return image.m_state;
  }
};

// Owner keys: smart pointers order by their control block (owner_before), addresses by value.
template <typename A, typename B>
bool owner_key_less(const A& a, const B& b) noexcept {
  if constexpr (std::is_pointer_v<A>)
    return std::less<const void*>()(a, b);
  else
    return a.owner_before(b);
}

// What every weak_traits<T> shares: the order of T's and weak_object<T>'s by their keys
// (Traits::key of an object, Traits::weak_key of a weak_object's state; an empty weak_object's
// key precedes every object's).
template <typename T, typename Traits>
struct weak_order {
  template <typename A, typename B>
  static bool before(const A& a, const B& b) noexcept {
    return owner_key_less(key_of(a), key_of(b));
  }

private:
  static decltype(auto) key_of(const T& obj) noexcept { return Traits::key(obj); }
  static decltype(auto) key_of(const ext::oneapi::weak_object<T>& w) noexcept {
    return Traits::weak_key(weak_access::state(w));
  }
};

// Classes whose handle is one std::shared_ptr to their implementation.
template <typename T>
struct impl_weak_traits : weak_order<T, impl_weak_traits<T>> {
  using impl_ptr = std::decay_t<decltype(impl_access::get(std::declval<const T&>()))>;
  using weak_type = std::weak_ptr<typename impl_ptr::element_type>;

  static weak_type make(const T& obj) noexcept { return impl_access::get(obj); }
  static bool expired(const weak_type& w) noexcept { return w.expired(); }
  static std::optional<T> lock(const weak_type& w) {
    if (auto impl = w.lock()) return impl_access::make<T>(std::move(impl));
    return std::nullopt;
  }
  static const impl_ptr& key(const T& obj) noexcept { return impl_access::get(obj); }
  static const weak_type& weak_key(const weak_type& w) noexcept { return w; }
};

// Classes with an object_identity: the weak state is a copy of the object whose identity is a
// weak reference (object_identity::make_weak), which lock() copies and makes an owner again.
template <typename T>
struct identity_weak_traits : weak_order<T, identity_weak_traits<T>> {
  using weak_type = std::optional<T>;

  static weak_type make(const T& obj) {
    weak_type w(obj);
    weak_access::identity(*w).make_weak();
    return w;
  }
  static bool expired(const weak_type& w) noexcept {
    return !w || weak_access::identity(*w).expired();
  }
  static std::optional<T> lock(const weak_type& w) {
    if (!w) return std::nullopt;
    std::optional<T> obj(*w);
    if (!weak_access::identity(*obj).make_strong()) return std::nullopt;
    return obj;
  }
  static const void* key(const T& obj) noexcept { return weak_access::identity(obj).key(); }
  static const void* weak_key(const weak_type& w) noexcept {
    return w ? weak_access::identity(*w).key() : nullptr;
  }
};

// host_accessor (and the deprecated accessor of target::host_buffer, one): its hold on the
// buffer, and a copy of the accessor without it.
template <typename T>
struct hold_weak_traits : weak_order<T, hold_weak_traits<T>> {
  struct weak_type {
    std::optional<T> view; // holds nothing
    std::weak_ptr<void> hold;
  };

  static weak_type make(const T& obj) {
    weak_type w{obj, weak_access::hold(obj)};
    weak_access::hold(*w.view).reset();
    return w;
  }
  static bool expired(const weak_type& w) noexcept { return w.hold.expired(); }
  static std::optional<T> lock(const weak_type& w) {
    std::shared_ptr<void> hold = w.hold.lock();
    if (!hold || !w.view) return std::nullopt;
    std::optional<T> obj(*w.view);
    weak_access::hold(*obj) = std::move(hold);
    return obj;
  }
  static const std::shared_ptr<void>& key(const T& obj) noexcept { return weak_access::hold(obj); }
  static const std::weak_ptr<void>& weak_key(const weak_type& w) noexcept { return w.hold; }
};

template <>
struct weak_traits<platform> : impl_weak_traits<platform> {};
template <>
struct weak_traits<device> : impl_weak_traits<device> {};
template <>
struct weak_traits<context> : impl_weak_traits<context> {};
template <>
struct weak_traits<queue> : impl_weak_traits<queue> {};
template <>
struct weak_traits<event> : impl_weak_traits<event> {};
template <>
struct weak_traits<kernel> : impl_weak_traits<kernel> {};
template <bundle_state State>
struct weak_traits<kernel_bundle<State>> : impl_weak_traits<kernel_bundle<State>> {};
template <bundle_state State>
struct weak_traits<device_image<State>> : impl_weak_traits<device_image<State>> {};

// The kernel's interned name: valid for the whole run.
template <>
struct weak_traits<kernel_id> : weak_order<kernel_id, weak_traits<kernel_id>> {
  using weak_type = std::optional<kernel_id>;
  static weak_type make(const kernel_id& id) noexcept { return id; }
  static bool expired(const weak_type& w) noexcept { return !w; }
  static std::optional<kernel_id> lock(const weak_type& w) noexcept { return w; }
  static const void* key(const kernel_id& id) noexcept { return id.get_name(); }
  static const void* weak_key(const weak_type& w) noexcept { return w ? w->get_name() : nullptr; }
};

// A buffer: its implementation, and what its handle adds (the range, which reinterpret and
// sub-buffers change, the allocator and the properties).
template <typename T, int D, typename A>
struct weak_traits<buffer<T, D, A>> : weak_order<buffer<T, D, A>, weak_traits<buffer<T, D, A>>> {
  using object_t = buffer<T, D, A>;
  struct handle {
    range<D> r;
    A alloc;
    property_list props;
  };
  struct weak_type {
    std::weak_ptr<buffer_impl> impl;
    std::optional<handle> rest;
  };

  static weak_type make(const object_t& b) {
    return {impl_access::get(b),
            handle{b.get_range(), b.get_allocator(), weak_access::properties(b)}};
  }
  static bool expired(const weak_type& w) noexcept { return w.impl.expired(); }
  static std::optional<object_t> lock(const weak_type& w) {
    std::shared_ptr<buffer_impl> impl = w.impl.lock();
    if (!impl || !w.rest) return std::nullopt;
    return weak_access::make_buffer<T, D, A>(std::move(impl), w.rest->r, w.rest->alloc,
                                             w.rest->props);
  }
  static const std::shared_ptr<buffer_impl>& key(const object_t& b) noexcept {
    return impl_access::get(b);
  }
  static const std::weak_ptr<buffer_impl>& weak_key(const weak_type& w) noexcept { return w.impl; }
};

// Images: their state, shared by the image's copies (its storage's last owner), and the allocator
// the image was made with.
template <typename Image, int D, typename A>
struct image_weak_traits : weak_order<Image, image_weak_traits<Image, D, A>> {
  using object_t = Image;
  struct weak_type {
    std::weak_ptr<image_state<D>> state;
    std::optional<A> alloc;
  };
  static weak_type make(const object_t& image) {
    return {weak_access::image_state(image), image.get_allocator()};
  }
  static bool expired(const weak_type& w) noexcept { return w.state.expired(); }
  static std::optional<object_t> lock(const weak_type& w) {
    auto state = w.state.lock();
    if (!state || !w.alloc) return std::nullopt;
    return weak_access::make_image<object_t>(std::move(state), *w.alloc);
  }
  static const auto& key(const object_t& image) noexcept { return weak_access::image_state(image); }
  static const auto& weak_key(const weak_type& w) noexcept { return w.state; }
};
template <int D, typename A>
struct weak_traits<unsampled_image<D, A>> : image_weak_traits<unsampled_image<D, A>, D, A> {};
template <int D, typename A>
struct weak_traits<sampled_image<D, A>> : image_weak_traits<sampled_image<D, A>, D, A> {};

template <typename T, int D, access_mode M, target Tg, access::placeholder P>
struct weak_traits<accessor<T, D, M, Tg, P>> : identity_weak_traits<accessor<T, D, M, Tg, P>> {};
// The deprecated accessors of SYCL 1.2.1: target::host_buffer is a host_accessor.
template <typename T, int D, access_mode M, access::placeholder P>
struct weak_traits<accessor<T, D, M, target::host_buffer, P>>
    : hold_weak_traits<accessor<T, D, M, target::host_buffer, P>> {};
template <typename T, int D, access_mode M>
struct weak_traits<host_accessor<T, D, M>> : hold_weak_traits<host_accessor<T, D, M>> {};
template <typename T, int D>
struct weak_traits<local_accessor<T, D>> : identity_weak_traits<local_accessor<T, D>> {};
template <>
struct weak_traits<stream> : identity_weak_traits<stream> {};
template <typename T, int D, access_mode M, image_target Tg>
struct weak_traits<unsampled_image_accessor<T, D, M, Tg>>
    : identity_weak_traits<unsampled_image_accessor<T, D, M, Tg>> {};
template <typename T, int D, access_mode M>
struct weak_traits<host_unsampled_image_accessor<T, D, M>>
    : identity_weak_traits<host_unsampled_image_accessor<T, D, M>> {};
template <typename T, int D, image_target Tg>
struct weak_traits<sampled_image_accessor<T, D, Tg>>
    : identity_weak_traits<sampled_image_accessor<T, D, Tg>> {};
template <typename T, int D>
struct weak_traits<host_sampled_image_accessor<T, D>>
    : identity_weak_traits<host_sampled_image_accessor<T, D>> {};

// owner_less<T>: the four comparisons, for every T above.
template <typename T>
struct owner_less_base {
  bool operator()(const T& lhs, const T& rhs) const noexcept {
    return weak_traits<T>::before(lhs, rhs);
  }
  bool operator()(const ext::oneapi::weak_object<T>& lhs,
                  const ext::oneapi::weak_object<T>& rhs) const noexcept {
    return weak_traits<T>::before(lhs, rhs);
  }
  bool operator()(const T& lhs, const ext::oneapi::weak_object<T>& rhs) const noexcept {
    return weak_traits<T>::before(lhs, rhs);
  }
  bool operator()(const ext::oneapi::weak_object<T>& lhs, const T& rhs) const noexcept {
    return weak_traits<T>::before(lhs, rhs);
  }
};
} // namespace detail

namespace ext::oneapi {

template <typename SyclObject>
class weak_object {
  using traits = sycl::detail::weak_traits<SyclObject>;

public:
  using object_type = SyclObject;

  // An empty weak_object: refers to nothing (expired, try_lock gives std::nullopt).
  constexpr weak_object() noexcept = default;
  weak_object(const SyclObject& SYCLObj) noexcept : m_weak(traits::make(SYCLObj)) {}
  weak_object(const weak_object& Other) noexcept : m_weak(Other.m_weak) {}
  weak_object(weak_object&& Other) noexcept : m_weak(std::move(Other.m_weak)) {}

  weak_object& operator=(const SyclObject& SYCLObj) noexcept {
    m_weak = traits::make(SYCLObj);
    return *this;
  }
  weak_object& operator=(const weak_object& Other) noexcept {
    m_weak = Other.m_weak;
    return *this;
  }
  weak_object& operator=(weak_object&& Other) noexcept {
    m_weak = std::move(Other.m_weak);
    return *this;
  }

  // Refers to nothing from now on.
  void reset() noexcept { m_weak = weak_type(); }
  void swap(weak_object& Other) noexcept { std::swap(m_weak, Other.m_weak); }

  // True when the object is gone (its last handle was destroyed) or the weak_object is empty.
  bool expired() const noexcept { return traits::expired(m_weak); }
  // The object, if it is still alive.
  std::optional<SyclObject> try_lock() const noexcept { return traits::lock(m_weak); }
  // The object; errc::invalid when it is gone or the weak_object is empty. (The extension's
  // synopsis marks lock() noexcept, but its description has it throw: it is not noexcept here,
  // so that the exception reaches the caller.)
  SyclObject lock() const {
    std::optional<SyclObject> obj = traits::lock(m_weak);
    if (!obj)
      sycl::detail::throw_error(
          errc::invalid, traits::expired(m_weak) && !empty()
                             ? "weak_object::lock: the object it refers to was destroyed; "
                               "check expired() or use try_lock()"
                             : "weak_object::lock: the weak_object is empty (default-constructed "
                               "or reset); check expired() or use try_lock()");
    return std::move(*obj);
  }

  // The owner-based order: equivalent when both are empty or refer to the same object.
  bool owner_before(const weak_object& Other) const noexcept {
    return traits::before(*this, Other);
  }
  bool owner_before(const SyclObject& Other) const noexcept { return traits::before(*this, Other); }

private:
  friend struct sycl::detail::weak_access;
  using weak_type = typename traits::weak_type;

  // Refers to nothing: an empty weak_object precedes every object in the owner-based order.
  bool empty() const noexcept {
    return !sycl::detail::owner_key_less(traits::weak_key(weak_type()), traits::weak_key(m_weak)) &&
           !sycl::detail::owner_key_less(traits::weak_key(m_weak), traits::weak_key(weak_type()));
  }

  weak_type m_weak{};
};

template <typename SyclObject>
struct owner_less;

template <>
struct owner_less<platform> : sycl::detail::owner_less_base<platform> {};
template <>
struct owner_less<device> : sycl::detail::owner_less_base<device> {};
template <>
struct owner_less<context> : sycl::detail::owner_less_base<context> {};
template <>
struct owner_less<queue> : sycl::detail::owner_less_base<queue> {};
template <>
struct owner_less<event> : sycl::detail::owner_less_base<event> {};
template <>
struct owner_less<kernel> : sycl::detail::owner_less_base<kernel> {};
template <>
struct owner_less<kernel_id> : sycl::detail::owner_less_base<kernel_id> {};
template <>
struct owner_less<stream> : sycl::detail::owner_less_base<stream> {};
template <bundle_state State>
struct owner_less<kernel_bundle<State>> : sycl::detail::owner_less_base<kernel_bundle<State>> {};
template <bundle_state State>
struct owner_less<device_image<State>> : sycl::detail::owner_less_base<device_image<State>> {};
template <typename T, int D, typename A>
struct owner_less<buffer<T, D, A>> : sycl::detail::owner_less_base<buffer<T, D, A>> {};
template <int D, typename A>
struct owner_less<unsampled_image<D, A>> : sycl::detail::owner_less_base<unsampled_image<D, A>> {};
template <int D, typename A>
struct owner_less<sampled_image<D, A>> : sycl::detail::owner_less_base<sampled_image<D, A>> {};
template <typename T, int D, access_mode M, target Tg, access::placeholder P>
struct owner_less<accessor<T, D, M, Tg, P>>
    : sycl::detail::owner_less_base<accessor<T, D, M, Tg, P>> {};
template <typename T, int D, access_mode M>
struct owner_less<host_accessor<T, D, M>> : sycl::detail::owner_less_base<host_accessor<T, D, M>> {
};
template <typename T, int D>
struct owner_less<local_accessor<T, D>> : sycl::detail::owner_less_base<local_accessor<T, D>> {};
template <typename T, int D, access_mode M, image_target Tg>
struct owner_less<unsampled_image_accessor<T, D, M, Tg>>
    : sycl::detail::owner_less_base<unsampled_image_accessor<T, D, M, Tg>> {};
template <typename T, int D, access_mode M>
struct owner_less<host_unsampled_image_accessor<T, D, M>>
    : sycl::detail::owner_less_base<host_unsampled_image_accessor<T, D, M>> {};
template <typename T, int D, image_target Tg>
struct owner_less<sampled_image_accessor<T, D, Tg>>
    : sycl::detail::owner_less_base<sampled_image_accessor<T, D, Tg>> {};
template <typename T, int D>
struct owner_less<host_sampled_image_accessor<T, D>>
    : sycl::detail::owner_less_base<host_sampled_image_accessor<T, D>> {};

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE
