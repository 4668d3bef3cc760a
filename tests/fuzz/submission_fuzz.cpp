// A submission fuzzer (issue 28): seeded random SYCL programs of many commands, run on a device
// and checked against a sequential reference computed alongside.
//
// Each program mixes USM (device, shared, host) and buffers with sub-buffers, in-order and
// out-of-order queues in one or two contexts on one device, kernels over ranges and nd_ranges
// with captured pointers and accessors of changing sizes, copies, fills and host tasks, waits on
// queues and events, and the legal free and re-allocation of memory while other work is still in
// flight, from 1 to 8 submitting threads. Every thread owns its arrays (so the reference is
// sequential per array) and submits to queues all threads share. Dependencies between commands
// are stated the way a SYCL program must state them: buffer accessors, depends_on for USM
// (sometimes left to an in-order queue), waits before the host touches memory or frees it.
//
// Under the fake CUDA driver (tests/cuda_unit/fake_cuda.cpp) the fuzzer gives the fake a host
// implementation of its kernels that also checks every pointer a kernel uses lies inside a live
// allocation: a launch made with stale arguments, or after the memory it uses was freed, is a
// fault there as it is on a GPU.
//
// Usage: submission_fuzz [--seeds FIRST:COUNT] [--commands N] [--threads T] [--small] [--time-limit
// SECONDS] [--verbose] Exit status: 0 when every seed matched its reference; 1 otherwise (each
// mismatch is printed with its seed, so that `--seeds S:1` reproduces it).
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using u32 = std::uint32_t;

// The kernels: each is a functor with a name of its own, so that the fake driver's emulator can
// tell them apart by name.
struct usm_axpy {
  u32* dst;
  const u32* src;
  std::size_t n, src_n;
  u32 c;
  void apply(std::size_t i) const {
    if (i < n) dst[i] = dst[i] * 3u + src[i % src_n] + c;
  }
  void operator()(sycl::item<1> it) const { apply(it.get_id(0)); }
};
struct usm_axpy_nd {
  usm_axpy k;
  void operator()(sycl::nd_item<1> it) const { k.apply(it.get_global_id(0)); }
};
struct acc_axpy {
  sycl::accessor<u32, 1, sycl::access_mode::read_write> dst;
  sycl::accessor<u32, 1, sycl::access_mode::read> src;
  std::size_t n, src_n;
  u32 c;
  void operator()(sycl::item<1> it) const {
    const std::size_t i = it.get_id(0);
    if (i < n) dst[i] = dst[i] * 3u + src[i % src_n] + c;
  }
};
// Kernel objects of several sizes: inline in the launch thread's hand-over slot, beyond it, and
// beyond what it takes at all (src/backends/cuda/launch_thread.hpp).
template <int K>
struct big_axpy {
  usm_axpy k;
  u32 pad[K];
  void operator()(sycl::item<1> it) const {
    const std::size_t i = it.get_id(0);
    if (i < k.n) k.dst[i] = k.dst[i] * 3u + k.src[i % k.src_n] + k.c + pad[i % K];
  }
};
template <int K>
class k_big_axpy;
constexpr int big_sizes[] = {8, 60, 900, 1100};

// Per work-group sums through local memory and barriers (not under the fake driver, which runs
// work-items one after another).
struct usm_group_sum {
  u32* dst;
  const u32* src;
  std::size_t src_n, dst_n;
  sycl::local_accessor<u32, 1> tile;
  void operator()(sycl::nd_item<1> it) const {
    const std::size_t l = it.get_local_id(0), g = it.get_group(0), L = it.get_local_range(0);
    const std::size_t i = it.get_global_id(0);
    tile[l] = i < src_n ? src[i] : 0u;
    for (std::size_t s = L / 2; s > 0; s /= 2) {
      sycl::group_barrier(it.get_group());
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0 && g < dst_n) dst[g] += tile[0];
  }
};
// Between USM and a buffer.
struct usm_to_acc {
  sycl::accessor<u32, 1, sycl::access_mode::write> dst;
  const u32* src;
  void operator()(sycl::item<1> it) const { dst[it.get_id(0)] = src[it.get_id(0)]; }
};
struct acc_to_usm {
  u32* dst;
  sycl::accessor<u32, 1, sycl::access_mode::read> src;
  void operator()(sycl::item<1> it) const { dst[it.get_id(0)] = src[it.get_id(0)]; }
};
class k_usm_to_acc;
class k_acc_to_usm;
class k_usm_axpy;
class k_usm_axpy_nd;
class k_acc_axpy;
class k_usm_group_sum;

namespace {

struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
  bool chance(unsigned percent) { return below(100) < percent; }
};

std::mutex g_print_mutex;
std::atomic<int> g_mismatches{0};
bool g_verbose = false;
bool g_fake = false;  // the fake CUDA driver runs the kernels
bool g_small = false; // --small: arrays of at most 2048 elements (sanitizer runs)

template <typename... A>
void fail(std::uint64_t seed, const char* fmt, A... a) {
  std::lock_guard lock(g_print_mutex);
  if (g_mismatches++ < 20) {
    std::printf("seed %llu: ", static_cast<unsigned long long>(seed));
    std::printf(fmt, a...);
    std::printf("\n");
    std::fflush(stdout);
  }
}

// The fake driver's hooks, found at run time (null on a real driver or the host device).
using emulator_t = int (*)(const char*, const void*, const unsigned*, const unsigned*, unsigned);
struct fake_hooks {
  void (*set_emulator)(emulator_t) = nullptr;
  int (*live_range)(const void*, std::size_t) = nullptr;
};
fake_hooks g_hooks;

// The fake's view of a kernel's pointers: each must lie inside a live allocation.
bool live(const void* p, std::size_t bytes) {
  return !g_hooks.live_range || g_hooks.live_range(p, bytes) == 1;
}

// CUDA_ERROR_ILLEGAL_ADDRESS, as a GPU reports a kernel touching memory it must not.
constexpr int illegal_address = 700;

template <int K>
int emulate_big(const void* object) {
  using object_t = sycl::detail::range_kernel<1, big_axpy<K>>;
  const auto& o = *static_cast<const object_t*>(object);
  if (!live(o.m_f.k.dst, o.m_f.k.n * sizeof(u32)) ||
      !live(o.m_f.k.src, o.m_f.k.src_n * sizeof(u32)))
    return illegal_address;
  object_t::run_range(object, 0, o.m_range[0]);
  return 0;
}

int emulate(const char* name, const void* object, const unsigned* grid, const unsigned* block,
            unsigned) {
  const std::size_t groups = std::size_t(grid[0]) * grid[1] * grid[2];
  const std::size_t local = std::size_t(block[0]) * block[1] * block[2];
  auto check = [](const usm_axpy& k) {
    return live(k.dst, k.n * sizeof(u32)) && live(k.src, k.src_n * sizeof(u32));
  };
  if (std::strcmp(name, sycl::detail::kernel_name<k_usm_axpy>()) == 0) {
    using object_t = sycl::detail::range_kernel<1, usm_axpy>;
    const auto& o = *static_cast<const object_t*>(object);
    if (!check(o.m_f)) return illegal_address;
    object_t::run_range(object, 0, o.m_range[0]);
    return 0;
  }
  if (std::strcmp(name, sycl::detail::kernel_name<k_usm_axpy_nd>()) == 0) {
    using object_t = sycl::detail::nd_range_kernel<1, usm_axpy_nd>;
    const auto& o = *static_cast<const object_t*>(object);
    if (!check(o.m_f.k)) return illegal_address;
    if (o.m_header.m_local[0] != local || o.m_header.m_groups[0] != groups) return illegal_address;
    for (std::size_t g = 0; g < groups; ++g)
      for (std::size_t l = 0; l < local; ++l) object_t::run_item(object, &g, &l);
    return 0;
  }
  if (std::strcmp(name, sycl::detail::kernel_name<k_usm_to_acc>()) == 0) {
    using object_t = sycl::detail::range_kernel<1, usm_to_acc>;
    const auto& o = *static_cast<const object_t*>(object);
    if (!live(o.m_f.src, o.m_range[0] * sizeof(u32))) return illegal_address;
    object_t::run_range(object, 0, o.m_range[0]);
    return 0;
  }
  if (std::strcmp(name, sycl::detail::kernel_name<k_acc_to_usm>()) == 0) {
    using object_t = sycl::detail::range_kernel<1, acc_to_usm>;
    const auto& o = *static_cast<const object_t*>(object);
    if (!live(o.m_f.dst, o.m_range[0] * sizeof(u32))) return illegal_address;
    object_t::run_range(object, 0, o.m_range[0]);
    return 0;
  }
  if (std::strcmp(name, sycl::detail::kernel_name<k_big_axpy<big_sizes[0]>>()) == 0)
    return emulate_big<big_sizes[0]>(object);
  if (std::strcmp(name, sycl::detail::kernel_name<k_big_axpy<big_sizes[1]>>()) == 0)
    return emulate_big<big_sizes[1]>(object);
  if (std::strcmp(name, sycl::detail::kernel_name<k_big_axpy<big_sizes[2]>>()) == 0)
    return emulate_big<big_sizes[2]>(object);
  if (std::strcmp(name, sycl::detail::kernel_name<k_big_axpy<big_sizes[3]>>()) == 0)
    return emulate_big<big_sizes[3]>(object);
  if (std::strcmp(name, sycl::detail::kernel_name<k_acc_axpy>()) == 0) {
    using object_t = sycl::detail::range_kernel<1, acc_axpy>;
    const auto& o = *static_cast<const object_t*>(object);
    object_t::run_range(object, 0, o.m_range[0]);
    return 0;
  }
  return 0;
}

void find_fake_hooks() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return;
  g_hooks.set_emulator =
      reinterpret_cast<void (*)(emulator_t)>(dlsym(lib, "fake_cuda_set_kernel_emulator"));
  g_hooks.live_range =
      reinterpret_cast<int (*)(const void*, std::size_t)>(dlsym(lib, "fake_cuda_live_range"));
  if (g_hooks.set_emulator && g_hooks.live_range) {
    g_hooks.set_emulator(&emulate);
    g_fake = true;
  } else {
    g_hooks = {};
  }
}

enum class kind { device, shared, host, buffer };
const char* kind_name(kind k) {
  switch (k) {
  case kind::device:
    return "device USM";
  case kind::shared:
    return "shared USM";
  case kind::host:
    return "host USM";
  default:
    return "buffer";
  }
}

// One array of a thread: its memory, its reference values, and the commands that touched it since
// its last write (USM only: buffers track that themselves).
struct array {
  kind k = kind::device;
  std::size_t n = 0;
  int context = 0;
  u32* usm = nullptr;
  std::vector<u32> backing; // a buffer's host memory
  std::optional<sycl::buffer<u32, 1>> buf;
  std::vector<u32> ref;
  std::vector<sycl::event> since_write;    // USM: the last write, then the reads after it
  const sycl::queue* only_queue = nullptr; // the queue of all of since_write, if one
};

struct program {
  std::uint64_t seed;
  std::vector<sycl::context> contexts;
  std::vector<sycl::queue> queues;
  std::vector<int> queue_context;
};

class thread_fuzzer {
public:
  thread_fuzzer(program& p, std::uint64_t seed, std::size_t commands)
      : m_p(p), m_r{seed * 7919 + 17}, m_commands(commands) {}

  void run() {
    const std::size_t arrays = 2 + m_r.below(5);
    m_context = m_p.queue_context[m_r.below(m_p.queues.size())]; // a context with a queue
    for (std::size_t i = 0; i < arrays; ++i) m_arrays.push_back(make_array());
    for (std::size_t c = 0; c < m_commands; ++c) step(c);
    for (auto& q : m_p.queues) q.wait_and_throw();
    for (std::size_t i = 0; i < m_arrays.size(); ++i) verify(i, "at the end");
    for (auto& a : m_arrays) release(a);
  }

private:
  sycl::queue& pick_queue() {
    std::vector<std::size_t> mine;
    for (std::size_t i = 0; i < m_p.queues.size(); ++i)
      if (m_p.queue_context[i] == m_context) mine.push_back(i);
    return m_p.queues[mine[m_r.below(mine.size())]];
  }
  const sycl::context& ctx() const { return m_p.contexts[static_cast<std::size_t>(m_context)]; }
  const sycl::device dev() const { return ctx().get_devices()[0]; }

  // 32 to 1024 work-items (512 under the fake driver, whose kernels allow 768).
  std::size_t pick_local() { return std::size_t(1) << (5 + m_r.below(g_fake ? 5 : 6)); }

  std::size_t pick_size() {
    if (g_small) return 1 + m_r.below(m_r.chance(50) ? 64 : 2048);
    switch (m_r.below(4)) {
    case 0:
      return 1 + m_r.below(64);
    case 1:
      return 1 + m_r.below(4096);
    case 2:
      return 65536;
    default:
      return 1 + m_r.below(70000);
    }
  }

  array make_array() {
    array a;
    a.n = pick_size();
    a.context = m_context;
    a.ref.resize(a.n);
    for (std::size_t i = 0; i < a.n; ++i) a.ref[i] = static_cast<u32>(m_r.next());
    const bool host_usm = dev().has(sycl::aspect::usm_host_allocations);
    const bool shared_usm = dev().has(sycl::aspect::usm_shared_allocations);
    switch (m_r.below(4)) {
    case 0:
      a.k = kind::device;
      break;
    case 1:
      a.k = shared_usm ? kind::shared : kind::device;
      break;
    case 2:
      a.k = host_usm ? kind::host : kind::device;
      break;
    default:
      a.k = kind::buffer;
      break;
    }
    if (a.k == kind::buffer) {
      a.backing = a.ref;
      a.buf.emplace(a.backing.data(), sycl::range<1>(a.n));
      return a;
    }
    if (a.k == kind::device)
      a.usm = sycl::malloc_device<u32>(a.n, dev(), ctx());
    else if (a.k == kind::shared)
      a.usm = sycl::malloc_shared<u32>(a.n, dev(), ctx());
    else
      a.usm = sycl::malloc_host<u32>(a.n, ctx());
    if (!a.usm) {
      fail(m_p.seed, "malloc of %zu elements (%s) returned null", a.n, kind_name(a.k));
      a.k = kind::buffer;
      a.backing = a.ref;
      a.buf.emplace(a.backing.data(), sycl::range<1>(a.n));
      return a;
    }
    // Initialized by the device (a copy from the host the program keeps alive until it ran).
    auto source = std::make_shared<std::vector<u32>>(a.ref);
    sycl::queue& q = pick_queue();
    sycl::event e = q.memcpy(a.usm, source->data(), a.n * sizeof(u32));
    m_keep.push_back({e, source});
    a.since_write = {e};
    a.only_queue = &q;
    return a;
  }

  // USM: the events a command on `q` that reads (`write` false) or writes `a` must wait for.
  std::vector<sycl::event> deps_for(array& a, const sycl::queue& q) {
    // An in-order queue orders its own commands: sometimes left to it.
    if (q.is_in_order() && a.only_queue == &q && m_r.chance(50)) return {};
    return a.since_write;
  }
  void record(array& a, const sycl::event& e, bool write, const sycl::queue& q) {
    if (a.k == kind::buffer) return;
    if (write) {
      a.since_write = {e};
      a.only_queue = &q;
    } else {
      if (a.only_queue != &q) a.only_queue = nullptr;
      a.since_write.push_back(e);
      if (a.since_write.size() > 64) { // bound the list: wait for the oldest reads
        a.since_write.front().wait();
        a.since_write.erase(a.since_write.begin() + 1);
      }
    }
  }
  void wait_for(array& a) {
    for (auto& e : a.since_write) e.wait();
    a.since_write.clear();
    a.only_queue = nullptr;
  }

  void step(std::size_t c) {
    const std::size_t op = m_r.below(100);
    array& dst = m_arrays[m_r.below(m_arrays.size())];
    std::size_t si = m_r.below(m_arrays.size());
    if (&m_arrays[si] == &dst) si = (si + 1) % m_arrays.size();
    array& src = m_arrays[si];
    if (op < 45)
      kernel(dst, src);
    else if (op < 55)
      copy(dst, src);
    else if (op < 62)
      fill(dst);
    else if (op < 68)
      host_task(dst);
    else if (op < 78)
      synchronize(c);
    else if (op < 86)
      reallocate(dst);
    else if (op < 92)
      check_early(dst);
    else if (op < 95)
      burst(dst, src);
    else
      kernel(dst, src);
  }

  void kernel(array& dst, array& src) {
    sycl::queue& q = pick_queue();
    const u32 c = static_cast<u32>(m_r.next());
    const bool buffers = dst.k == kind::buffer || src.k == kind::buffer;
    if (buffers) {
      if (dst.k != kind::buffer || src.k != kind::buffer) return usm_into_buffer(dst, src, q);
      // Over the whole buffers or sub-buffers of them.
      std::size_t off = 0, len = dst.n;
      std::optional<sycl::buffer<u32, 1>> sub;
      if (dst.n >= 128 && m_r.chance(40)) {
        off = 64 * m_r.below(dst.n / 64);
        len = std::max<std::size_t>(1, std::min(dst.n - off, 1 + m_r.below(dst.n)));
        sub.emplace(*dst.buf, sycl::id<1>(off), sycl::range<1>(len));
      }
      sycl::buffer<u32, 1>& d = sub ? *sub : *dst.buf;
      q.submit([&](sycl::handler& h) {
        sycl::accessor<u32, 1, sycl::access_mode::read_write> da(d, h);
        sycl::accessor<u32, 1, sycl::access_mode::read> sa(*src.buf, h);
        h.parallel_for<k_acc_axpy>(sycl::range<1>(len), acc_axpy{da, sa, len, src.n, c});
      });
      for (std::size_t i = 0; i < len; ++i)
        dst.ref[off + i] = dst.ref[off + i] * 3u + src.ref[i % src.n] + c;
      return;
    }
    std::vector<sycl::event> deps = deps_for(dst, q);
    for (auto& e : deps_for(src, q)) deps.push_back(e);
    const std::size_t n = dst.n;
    usm_axpy k{dst.usm, src.usm, n, src.n, c};
    const unsigned shape = static_cast<unsigned>(m_r.below(g_fake ? 3 : 4));
    std::vector<u32> pad_used;
    sycl::event e;
    if (shape == 0) {
      e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        h.parallel_for<k_usm_axpy>(sycl::range<1>(n), k);
      });
    } else if (shape == 1) {
      const std::size_t local = pick_local();
      const std::size_t global = (n + local - 1) / local * local;
      e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        h.parallel_for<k_usm_axpy_nd>(sycl::nd_range<1>(global, local), usm_axpy_nd{k});
      });
    } else if (shape == 2) {
      // A kernel object of one of several sizes, its padding part of the result.
      const std::size_t which = m_r.below(std::size(big_sizes));
      std::vector<u32> pad(static_cast<std::size_t>(big_sizes[which]));
      for (auto& v : pad) v = static_cast<u32>(m_r.next());
      switch (which) {
      case 0:
        e = submit_big<big_sizes[0]>(q, deps, k, pad);
        break;
      case 1:
        e = submit_big<big_sizes[1]>(q, deps, k, pad);
        break;
      case 2:
        e = submit_big<big_sizes[2]>(q, deps, k, pad);
        break;
      default:
        e = submit_big<big_sizes[3]>(q, deps, k, pad);
        break;
      }
      pad_used = std::move(pad);
    } else {
      const std::size_t local = pick_local();
      const std::size_t global = (src.n + local - 1) / local * local;
      e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        sycl::local_accessor<u32, 1> tile(local, h);
        h.parallel_for<k_usm_group_sum>(sycl::nd_range<1>(global, local),
                                        usm_group_sum{dst.usm, src.usm, src.n, dst.n, tile});
      });
      for (std::size_t g = 0; g * local < global && g < dst.n; ++g) {
        u32 s = 0;
        for (std::size_t i = g * local; i < std::min(src.n, (g + 1) * local); ++i) s += src.ref[i];
        dst.ref[g] += s;
      }
      record(src, e, false, q);
      record(dst, e, true, q);
      return;
    }
    for (std::size_t i = 0; i < n; ++i) dst.ref[i] = dst.ref[i] * 3u + src.ref[i % src.n] + c;
    if (!pad_used.empty())
      for (std::size_t i = 0; i < n; ++i) dst.ref[i] += pad_used[i % pad_used.size()];
    record(src, e, false, q);
    record(dst, e, true, q);
  }

  template <int K>
  static sycl::event submit_big(sycl::queue& q, const std::vector<sycl::event>& deps,
                                const usm_axpy& k, const std::vector<u32>& pad) {
    big_axpy<K> b{k, {}};
    std::copy(pad.begin(), pad.end(), b.pad);
    return q.submit([&](sycl::handler& h) {
      h.depends_on(deps);
      h.parallel_for<k_big_axpy<K>>(sycl::range<1>(k.n), b);
    });
  }

  // Many kernels back to back on one queue over the same arrays, as benchmarks submit them: on a
  // GPU the stream stays busy and the launches go through the launch thread.
  void burst(array& dst, array& src) {
    if (dst.k == kind::buffer || src.k == kind::buffer) return kernel(dst, src);
    sycl::queue& q = pick_queue();
    std::vector<sycl::event> deps = deps_for(dst, q);
    for (auto& e : deps_for(src, q)) deps.push_back(e);
    const std::size_t count = 20 + m_r.below(300);
    const std::size_t n = dst.n;
    sycl::event last;
    for (std::size_t j = 0; j < count; ++j) {
      const u32 c = static_cast<u32>(m_r.next());
      usm_axpy k{dst.usm, src.usm, n, src.n, c};
      const bool nd = m_r.chance(50);
      const std::size_t local = pick_local();
      last = q.submit([&](sycl::handler& h) {
        // In order: the queue orders them; out of order: each depends on the one before.
        if (j == 0)
          h.depends_on(deps);
        else if (!q.is_in_order())
          h.depends_on(last);
        if (nd)
          h.parallel_for<k_usm_axpy_nd>(sycl::nd_range<1>((n + local - 1) / local * local, local),
                                        usm_axpy_nd{k});
        else
          h.parallel_for<k_usm_axpy>(sycl::range<1>(n), k);
      });
      for (std::size_t i = 0; i < n; ++i) dst.ref[i] = dst.ref[i] * 3u + src.ref[i % src.n] + c;
    }
    record(src, last, false, q);
    record(dst, last, true, q);
    // Sometimes the burst's memory is freed right after waiting for its queue.
    if (m_r.chance(30)) {
      q.wait_and_throw();
      reallocate(dst);
    }
  }

  // Between a USM array and a buffer: a kernel copies the values.
  void usm_into_buffer(array& dst, array& src, sycl::queue& q) {
    if (dst.k == kind::buffer) {
      std::vector<sycl::event> deps = deps_for(src, q);
      const std::size_t n = std::min(dst.n, src.n);
      sycl::event e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        sycl::accessor<u32, 1, sycl::access_mode::write> da(*dst.buf, h, sycl::range<1>(n));
        h.parallel_for<k_usm_to_acc>(sycl::range<1>(n), usm_to_acc{da, src.usm});
      });
      std::copy(src.ref.begin(), src.ref.begin() + static_cast<std::ptrdiff_t>(n), dst.ref.begin());
      record(src, e, false, q);
    } else {
      std::vector<sycl::event> deps = deps_for(dst, q);
      const std::size_t n = std::min(dst.n, src.n);
      sycl::event e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        sycl::accessor<u32, 1, sycl::access_mode::read> sa(*src.buf, h, sycl::range<1>(n));
        h.parallel_for<k_acc_to_usm>(sycl::range<1>(n), acc_to_usm{dst.usm, sa});
      });
      std::copy(src.ref.begin(), src.ref.begin() + static_cast<std::ptrdiff_t>(n), dst.ref.begin());
      record(dst, e, true, q);
    }
  }

  void copy(array& dst, array& src) {
    sycl::queue& q = pick_queue();
    if (dst.k == kind::buffer || src.k == kind::buffer) {
      if (dst.k == kind::buffer && src.k == kind::buffer) {
        const std::size_t n = std::min(dst.n, src.n);
        q.submit([&](sycl::handler& h) {
          sycl::accessor<u32, 1, sycl::access_mode::read> sa(*src.buf, h, sycl::range<1>(n));
          sycl::accessor<u32, 1, sycl::access_mode::write> da(*dst.buf, h, sycl::range<1>(n));
          h.copy(sa, da);
        });
        std::copy(src.ref.begin(), src.ref.begin() + static_cast<std::ptrdiff_t>(n),
                  dst.ref.begin());
        return;
      }
      return usm_into_buffer(dst, src, q);
    }
    const std::size_t n = std::min(dst.n, src.n);
    const std::size_t off = m_r.below(n), len = 1 + m_r.below(n - off);
    std::vector<sycl::event> deps = deps_for(dst, q);
    for (auto& e : deps_for(src, q)) deps.push_back(e);
    sycl::event e = q.memcpy(dst.usm + off, src.usm + off, len * sizeof(u32), deps);
    std::copy(src.ref.begin() + static_cast<std::ptrdiff_t>(off),
              src.ref.begin() + static_cast<std::ptrdiff_t>(off + len),
              dst.ref.begin() + static_cast<std::ptrdiff_t>(off));
    record(src, e, false, q);
    record(dst, e, true, q);
  }

  void fill(array& a) {
    sycl::queue& q = pick_queue();
    const u32 v = static_cast<u32>(m_r.next());
    const std::size_t off = m_r.below(a.n), len = 1 + m_r.below(a.n - off);
    if (a.k == kind::buffer) {
      q.submit([&](sycl::handler& h) {
        sycl::accessor<u32, 1, sycl::access_mode::write> acc(*a.buf, h, sycl::range<1>(len),
                                                             sycl::id<1>(off));
        h.fill(acc, v);
      });
    } else {
      sycl::event e = q.fill(a.usm + off, v, len, deps_for(a, q));
      record(a, e, true, q);
    }
    std::fill(a.ref.begin() + static_cast<std::ptrdiff_t>(off),
              a.ref.begin() + static_cast<std::ptrdiff_t>(off + len), v);
  }

  void host_task(array& a) {
    sycl::queue& q = pick_queue();
    const u32 x = static_cast<u32>(m_r.next());
    if (a.k == kind::buffer) {
      q.submit([&](sycl::handler& h) {
        sycl::accessor<u32, 1, sycl::access_mode::read_write, sycl::target::host_task> acc(*a.buf,
                                                                                           h);
        const std::size_t n = a.n;
        h.host_task([=] {
          for (std::size_t i = 0; i < n; ++i) acc[i] ^= x;
        });
      });
    } else if (a.k == kind::device) {
      return; // the host cannot touch device memory
    } else {
      std::vector<sycl::event> deps = deps_for(a, q);
      u32* p = a.usm;
      const std::size_t n = a.n;
      sycl::event e = q.submit([&](sycl::handler& h) {
        h.depends_on(deps);
        h.host_task([=] {
          for (std::size_t i = 0; i < n; ++i) p[i] ^= x;
        });
      });
      record(a, e, true, q);
    }
    for (auto& v : a.ref) v ^= x;
  }

  void synchronize(std::size_t c) {
    switch (m_r.below(3)) {
    case 0:
      pick_queue().wait_and_throw();
      break;
    case 1: {
      array& a = m_arrays[m_r.below(m_arrays.size())];
      if (!a.since_write.empty()) a.since_write[m_r.below(a.since_write.size())].wait_and_throw();
      break;
    }
    default:
      if (c % 16 == 0) std::this_thread::yield();
    }
  }

  // Reads an array on the host in the middle of the program (after waiting for what writes it).
  void check_early(array& a) {
    verify(static_cast<std::size_t>(&a - m_arrays.data()), "in the middle");
  }

  void verify(std::size_t index, const char* when) {
    array& a = m_arrays[index];
    std::vector<u32> got(a.n);
    if (a.k == kind::buffer) {
      sycl::host_accessor h(*a.buf, sycl::read_only);
      for (std::size_t i = 0; i < a.n; ++i) got[i] = h[i];
    } else if (a.k == kind::device) {
      sycl::queue& q = pick_queue();
      q.memcpy(got.data(), a.usm, a.n * sizeof(u32), deps_for(a, q)).wait_and_throw();
    } else {
      wait_for(a);
      std::memcpy(got.data(), a.usm, a.n * sizeof(u32));
    }
    for (std::size_t i = 0; i < a.n; ++i)
      if (got[i] != a.ref[i]) {
        fail(m_p.seed, "array %zu (%s of %zu) differs %s at [%zu]: %u, expected %u", index,
             kind_name(a.k), a.n, when, i, got[i], a.ref[i]);
        return;
      }
  }

  // Frees an array (once what uses it completed, as SYCL 2020 4.8.3 requires) while other work
  // may still be in flight, and makes it anew, of another size and kind.
  void reallocate(array& a) {
    const std::size_t index = static_cast<std::size_t>(&a - m_arrays.data());
    if (m_r.chance(30)) verify(index, "before it was freed");
    release(a);
    a = make_array();
  }

  void release(array& a) {
    if (a.k == kind::buffer) {
      a.buf.reset(); // writes back to a.backing
      for (std::size_t i = 0; i < a.n; ++i)
        if (a.backing[i] != a.ref[i]) {
          fail(m_p.seed, "buffer of %zu: written back [%zu] = %u, expected %u", a.n, i,
               a.backing[i], a.ref[i]);
          break;
        }
      return;
    }
    wait_for(a);
    sycl::free(a.usm, ctx());
    a.usm = nullptr;
    // Sources of copies that completed can go.
    m_keep.erase(
        std::remove_if(
            m_keep.begin(), m_keep.end(),
            [](auto& k) {
              return k.first.template get_info<sycl::info::event::command_execution_status>() ==
                     sycl::info::event_command_status::complete;
            }),
        m_keep.end());
  }

  program& m_p;
  rng m_r;
  std::size_t m_commands;
  int m_context = 0;
  std::vector<array> m_arrays;
  std::vector<std::pair<sycl::event, std::shared_ptr<std::vector<u32>>>> m_keep;
};

void run_seed(const sycl::device& d, std::uint64_t seed, std::size_t commands, int threads) {
  rng r{seed};
  program p;
  p.seed = seed;
  auto handler = [seed](sycl::exception_list errors) {
    for (auto& e : errors) {
      try {
        std::rethrow_exception(e);
      } catch (const sycl::exception& x) {
        fail(seed, "asynchronous error: %s", x.what());
      }
    }
  };
  const std::size_t contexts = 1 + r.below(2);
  for (std::size_t i = 0; i < contexts; ++i) p.contexts.emplace_back(d);
  const std::size_t queues = 1 + r.below(4);
  for (std::size_t i = 0; i < queues; ++i) {
    const int c = static_cast<int>(i < contexts ? i : r.below(contexts));
    if (r.chance(60))
      p.queues.emplace_back(p.contexts[static_cast<std::size_t>(c)], d, handler,
                            sycl::property::queue::in_order());
    else
      p.queues.emplace_back(p.contexts[static_cast<std::size_t>(c)], d, handler);
    p.queue_context.push_back(c);
  }
  const int t = threads > 0 ? threads : 1 + static_cast<int>(r.below(8));
  if (g_verbose)
    std::printf("seed %llu: %zu context(s), %zu queue(s), %d thread(s), %zu commands\n",
                static_cast<unsigned long long>(seed), contexts, queues, t, commands);
  std::vector<std::thread> pool;
  for (int i = 0; i < t; ++i)
    pool.emplace_back([&, i] {
      try {
        thread_fuzzer(p, seed * 131 + static_cast<std::uint64_t>(i), commands / t).run();
      } catch (const sycl::exception& e) {
        fail(seed, "thread %d: %s", i, e.what());
      }
    });
  for (auto& th : pool) th.join();
}

} // namespace

int main(int argc, char** argv) {
  std::uint64_t first = 1, count = 10;
  std::size_t commands = 2000;
  int threads = 0;
  long time_limit = 0; // seconds; 0: none
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seeds" && i + 1 < argc) {
      std::string v = argv[++i];
      auto colon = v.find(':');
      first = std::strtoull(v.c_str(), nullptr, 10);
      count = colon == std::string::npos ? 1 : std::strtoull(v.c_str() + colon + 1, nullptr, 10);
    } else if (a == "--commands" && i + 1 < argc) {
      commands = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (a == "--time-limit" && i + 1 < argc) {
      time_limit = std::atol(argv[++i]);
    } else if (a == "--small") {
      g_small = true;
    } else if (a == "--verbose") {
      g_verbose = true;
    } else {
      std::printf("usage: %s [--seeds FIRST:COUNT] [--commands N] [--threads T] [--small] "
                  "[--time-limit SECONDS] [--verbose]\n",
                  argv[0]);
      return 2;
    }
  }
  sycl::device d;
  find_fake_hooks();
  std::printf("submission_fuzz on %s%s: seeds %llu..%llu, %zu commands each\n",
              d.get_info<sycl::info::device::name>().c_str(), g_fake ? " (fake driver)" : "",
              static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + count - 1), commands);
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t done = 0;
  for (std::uint64_t s = first; s < first + count; ++s) {
    if (time_limit > 0 &&
        std::chrono::steady_clock::now() - start > std::chrono::seconds(time_limit))
      break;
    run_seed(d, s, commands, threads);
    ++done;
    if (g_verbose || done % 25 == 0) {
      std::printf("seed %llu done (%llu so far, %d mismatch(es))\n",
                  static_cast<unsigned long long>(s), static_cast<unsigned long long>(done),
                  g_mismatches.load());
      std::fflush(stdout);
    }
  }
  const int m = g_mismatches.load();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %d mismatch(es) over %llu seed(s) of %zu commands (%.1f s)%s\n",
              m ? "FAILED" : "passed", m, static_cast<unsigned long long>(done), commands, seconds,
              done < count ? " (time limit reached)" : "");
  return m ? 1 : 0;
}
