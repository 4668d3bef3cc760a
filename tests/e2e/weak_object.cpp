// sycl_ext_oneapi_weak_object: weak objects do not keep what they refer to alive (a buffer's
// last handle still waits for its kernel and writes back), lock()/try_lock() give back objects
// equal to the originals while one of their copies lives (and kernels compute through them), an
// accessor is an object of its own (its copies, the command's included, keep it; its buffer does
// not), and owner_less orders objects and weak objects in std::map and std::set.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <future>
#include <map>
#include <optional>
#include <set>
#include <vector>

#ifndef SYCL_EXT_ONEAPI_WEAK_OBJECT
#error "SYCL_EXT_ONEAPI_WEAK_OBJECT is not defined"
#endif

namespace oneapi = sycl::ext::oneapi;

namespace {

constexpr std::size_t n = 256;

template <typename T>
bool throws_invalid(const oneapi::weak_object<T>& w) {
  try {
    (void)w.lock();
  } catch (const sycl::exception& e) {
    return e.code() == sycl::errc::invalid;
  }
  return false;
}

// The owner-based order: exactly one of a, b precedes the other, or neither (equivalent).
template <typename A, typename B, typename T>
bool equivalent(const A& a, const B& b, oneapi::owner_less<T> less) {
  return !less(a, b) && !less(b, a);
}
template <typename A, typename B, typename T>
bool ordered_apart(const A& a, const B& b, oneapi::owner_less<T> less) {
  return less(a, b) != less(b, a);
}

// A helper that takes its accessor by value: each work-item copies it.
template <typename Accessor>
void triple(Accessor acc, std::size_t i) {
  acc[i] = static_cast<int>(3 * i);
}

class through_locked;
class copies_in_kernel;

// An empty weak_object refers to nothing.
void empty_weak_objects() {
  oneapi::weak_object<sycl::queue> empty, other;
  EXPECT(empty.expired());
  EXPECT(!empty.try_lock().has_value());
  EXPECT(throws_invalid(empty));
  oneapi::owner_less<sycl::queue> less;
  EXPECT(equivalent(empty, other, less));
  sycl::queue q;
  EXPECT(less(empty, q) && !less(q, empty)); // empty precedes every object
  EXPECT(q.ext_oneapi_owner_before(oneapi::weak_object<sycl::queue>(q)) == false);
  static_assert(std::is_same_v<oneapi::weak_object<sycl::queue>::object_type, sycl::queue>);
  static_assert(std::is_same_v<decltype(empty.try_lock()), std::optional<sycl::queue>>);
  static_assert(std::is_same_v<decltype(empty.lock()), sycl::queue>);
}

// The last buffer handle still waits for its kernel and writes back; the weak_object expires.
void buffer_write_back() {
  std::vector<int> host(n, -1);
  oneapi::weak_object<sycl::buffer<int>> weak;
  sycl::queue q;
  {
    sycl::buffer<int> b(host.data(), sycl::range<1>(n));
    weak = b;
    EXPECT(!weak.expired());
    EXPECT(weak.lock() == b);
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n),
                     [=](sycl::id<1> i) { acc[i] = static_cast<int>(i[0]) + 7; });
    });
  }
  EXPECT(weak.expired());
  EXPECT(!weak.try_lock().has_value());
  EXPECT(throws_invalid(weak));
  bool written = true;
  for (std::size_t i = 0; i < n; ++i) written = written && host[i] == static_cast<int>(i) + 7;
  EXPECT(written);
}

// A kernel through a queue, a buffer and a placeholder accessor, each obtained by lock().
void kernel_through_locked_objects() {
  sycl::queue q;
  sycl::buffer<int> b{sycl::range<1>(n)};
  sycl::accessor<int, 1, sycl::access_mode::write, sycl::target::device,
                 sycl::access::placeholder::true_t>
      placeholder(b);
  oneapi::weak_object<sycl::queue> wq(q);
  oneapi::weak_object<sycl::buffer<int>> wb(b);
  oneapi::weak_object<decltype(placeholder)> wa(placeholder);

  sycl::queue q2 = wq.lock();
  sycl::buffer<int> b2 = wb.lock();
  std::optional<decltype(placeholder)> a2 = wa.try_lock();
  EXPECT(q2 == q && b2 == b && b2.get_range() == b.get_range());
  EXPECT(a2.has_value() && *a2 == placeholder && a2->is_placeholder());
  q2.submit([&](sycl::handler& h) {
    h.require(*a2);
    auto acc = *a2;
    h.parallel_for<through_locked>(sycl::range<1>(n),
                                   [=](sycl::id<1> i) { acc[i] = static_cast<int>(i[0] * i[0]); });
  });
  sycl::host_accessor result(b2, sycl::read_only);
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && result[i] == static_cast<int>(i * i);
  EXPECT(ok);
}

// An accessor is an object of its own: not its buffer, and alive while a copy lives (the
// command's too: a kernel held behind a host task keeps it until it has run).
void accessor_lifetimes() {
  sycl::queue q{sycl::property::queue::in_order()};
  sycl::buffer<int> b{sycl::range<1>(n)};
  oneapi::weak_object<sycl::buffer<int>> wb(b);
  oneapi::owner_less<sycl::accessor<int>> less;
  {
    sycl::accessor<int> a1(b), a2(b);
    sycl::accessor<int> copy = a1;
    EXPECT(a1 == a2);                    // equal views of one buffer ...
    EXPECT(ordered_apart(a1, a2, less)); // ... but two objects
    EXPECT(equivalent(a1, copy, less));
    oneapi::weak_object<sycl::accessor<int>> w1(a1);
    EXPECT(equivalent(w1, copy, less) && ordered_apart(w1, a2, less));
    EXPECT(w1.lock() == a1);
    // Read-only conversion: the same object.
    sycl::accessor<const int> ro = a1;
    (void)ro;
  }
  oneapi::weak_object<sycl::accessor<int>> gone;
  {
    sycl::accessor<int> a(b);
    gone = a;
  }
  EXPECT(gone.expired() && !gone.try_lock().has_value() && throws_invalid(gone));
  EXPECT(!wb.expired()); // the buffer outlives its accessors

  // The command's copy of the accessor: alive until the kernel has run.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  q.submit([&](sycl::handler& h) { h.host_task([=] { released.wait(); }); });
  oneapi::weak_object<sycl::accessor<int>> in_command;
  q.submit([&](sycl::handler& h) {
    sycl::accessor<int> acc(b, h, sycl::write_only);
    in_command = acc;
    h.parallel_for<copies_in_kernel>(sycl::range<1>(n), [=](sycl::id<1> i) { triple(acc, i[0]); });
  });
  EXPECT(!in_command.expired()); // the handler's accessor is gone, the kernel's copy is not
  release.set_value();
  q.wait();
  EXPECT(in_command.expired()); // the work-items' copies counted nothing
  sycl::host_accessor result(b, sycl::read_only);
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && result[i] == static_cast<int>(3 * i);
  EXPECT(ok);
}

// A host accessor is its hold on the buffer: the weak_object does not keep it.
void host_accessor_hold() {
  sycl::queue q;
  sycl::buffer<int> b{sycl::range<1>(n)};
  oneapi::weak_object<sycl::host_accessor<int>> weak;
  {
    sycl::host_accessor h(b);
    weak = h;
    std::optional<sycl::host_accessor<int>> again = weak.try_lock();
    EXPECT(again.has_value() && *again == h);
    for (std::size_t i = 0; i < n; ++i) h[i] = 1;
  }
  EXPECT(weak.expired());
  // Were the hold kept, this kernel would wait for it forever.
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc(b, h);
     h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] += 41; });
   }).wait();
  sycl::host_accessor result(b, sycl::read_only);
  EXPECT(result[0] == 42 && result[n - 1] == 42);
}

// Local accessors and streams: each constructed one is an object; lock() gives it back.
void command_group_objects() {
  sycl::queue q;
  sycl::buffer<int> b{sycl::range<1>(n)};
  oneapi::weak_object<sycl::local_accessor<int>> wl;
  oneapi::weak_object<sycl::stream> ws;
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int> l1(sycl::range<1>(32), h), l2(sycl::range<1>(32), h);
     sycl::stream s(1024, 64, h);
     wl = l1;
     ws = s;
     EXPECT(wl.lock() == l1 && ws.lock() == s);
     EXPECT(ordered_apart(l1, l2, oneapi::owner_less<sycl::local_accessor<int>>()));
     EXPECT(equivalent(ws, s, oneapi::owner_less<sycl::stream>()));
     sycl::local_accessor<int> local = wl.lock();
     sycl::accessor acc(b, h, sycl::write_only);
     h.parallel_for(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
       std::size_t l = it.get_local_id(0);
       local[l] = static_cast<int>(it.get_global_id(0));
       sycl::group_barrier(it.get_group());
       acc[it.get_global_id(0)] = local[31 - l];
     });
   }).wait();
  EXPECT(wl.expired() && ws.expired());
  sycl::host_accessor result(b, sycl::read_only);
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i)
    ok = ok && result[i] == static_cast<int>(i / 32 * 32 + 31 - i % 32);
  EXPECT(ok);
}

// owner_less in ordered containers, across objects, weak objects and expiry.
void ordered_containers() {
  sycl::queue q1, q2;
  std::map<oneapi::weak_object<sycl::queue>, int, oneapi::owner_less<sycl::queue>> queues;
  queues[q1] = 1;
  queues[q2] = 2;
  queues[oneapi::weak_object<sycl::queue>(q1)] += 10; // the same key as q1
  sycl::queue copy = q2;
  queues[copy] += 20;
  EXPECT(queues.size() == 2 && queues[q1] == 11 && queues[q2] == 22);

  std::map<oneapi::weak_object<sycl::buffer<int>>, int, oneapi::owner_less<sycl::buffer<int>>>
      buffers;
  sycl::buffer<int> kept{sycl::range<1>(4)};
  {
    sycl::buffer<int> dropped{sycl::range<1>(4)};
    buffers[dropped] = 1;
    buffers[kept] = 2;
  }
  // An expired key keeps its place: the map stays ordered and finds the live one.
  EXPECT(buffers.size() == 2 && buffers.at(kept) == 2);
  int expired = 0;
  for (auto& [key, value] : buffers) expired += key.expired() ? value : 0;
  EXPECT(expired == 1);

  std::set<sycl::event, oneapi::owner_less<sycl::event>> events;
  sycl::event e1, e2;
  events.insert(e1);
  events.insert(e2);
  events.insert(sycl::event(e1));
  EXPECT(events.size() == 2);

  std::set<sycl::accessor<int>, oneapi::owner_less<sycl::accessor<int>>> accessors;
  sycl::accessor<int> a1(kept), a2(kept);
  accessors.insert(a1);
  accessors.insert(a2);
  accessors.insert(sycl::accessor<int>(a1));
  EXPECT(accessors.size() == 2);
}

// The other classes: platforms and devices live as long as the runtime; the rest until their
// last handle goes.
void other_classes() {
  sycl::queue q;
  sycl::device d = q.get_device();
  sycl::platform p = d.get_platform();
  oneapi::weak_object<sycl::device> wd(d);
  oneapi::weak_object<sycl::platform> wp(p);
  EXPECT(wd.lock() == d && wp.lock() == p);
  EXPECT(equivalent(wd, q.get_device(), oneapi::owner_less<sycl::device>()));

  oneapi::weak_object<sycl::context> wc;
  oneapi::weak_object<sycl::event> we;
  {
    sycl::context c(d);
    sycl::event e;
    wc = c;
    we = e;
    EXPECT(wc.lock() == c && we.lock() == e && !wc.expired() && !we.expired());
  }
  EXPECT(wc.expired() && we.expired());

  sycl::kernel_id id = sycl::get_kernel_id<through_locked>();
  oneapi::weak_object<sycl::kernel_id> wid(id);
  EXPECT(!wid.expired() && wid.lock() == id);
  auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {id});
  oneapi::weak_object<decltype(bundle)> wbundle(bundle);
  sycl::kernel k = bundle.get_kernel(id);
  oneapi::weak_object<sycl::kernel> wk(k);
  EXPECT(wbundle.lock() == bundle && wk.lock() == k);
  EXPECT(equivalent(bundle, wbundle, oneapi::owner_less<decltype(bundle)>()));

  // reset and swap.
  oneapi::weak_object<sycl::queue> a(q), b;
  a.swap(b);
  EXPECT(a.expired() && b.lock() == q);
  b.reset();
  EXPECT(b.expired());
}

} // namespace

int main() {
  empty_weak_objects();
  buffer_write_back();
  kernel_through_locked_objects();
  accessor_lifetimes();
  host_accessor_hold();
  command_group_objects();
  ordered_containers();
  other_classes();
  if (failures == 0) std::printf("weak_object: all checks passed\n");
  return failures;
}
