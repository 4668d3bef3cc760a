// SYCL 2020 4.9.4.2.3 hierarchical parallelism, by value: parallel_for_work_group with and
// without a work-group size (1-, 2-, 3-D), work-group-scope variables shared by the group's
// work-items across several parallel_for_work_item calls (the implied barriers), h_item's
// physical and logical ids, flexible ranges larger and smaller than the group, private_memory,
// work-group-scope side effects that must run once per group, and bad input.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());

  // Group sums through a work-group-scope array: write in one parallel_for_work_item, read the
  // neighbour's value in the next, count the work-group-scope executions with an atomic.
  {
    constexpr std::size_t groups = 37, local = 24;
    int* out = sycl::malloc_shared<int>(groups * local, q);
    int* once = sycl::malloc_shared<int>(groups, q);
    int* runs = sycl::malloc_shared<int>(1, q);
    *runs = 0;
    q.submit([&](sycl::handler& h) {
       h.parallel_for_work_group(
           sycl::range<1>(groups), sycl::range<1>(local), [=](sycl::group<1> g) {
             int shared[local];
             int group_total = 0;
             sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r(
                 *runs);
             r.fetch_add(1);
             g.parallel_for_work_item([&](sycl::h_item<1> it) {
               shared[it.get_local_id(0)] = static_cast<int>(it.get_global_id(0));
             });
             g.parallel_for_work_item([&](sycl::h_item<1> it) {
               std::size_t l = it.get_local_id(0);
               out[it.get_global_id(0)] = shared[(l + 1) % local];
             });
             for (std::size_t i = 0; i < local; ++i) group_total += shared[i];
             once[g.get_group_id(0)] = group_total;
           });
     }).wait();
    CHECK(*runs == static_cast<int>(groups));
    for (std::size_t gr = 0; gr < groups; ++gr) {
      int total = 0;
      for (std::size_t l = 0; l < local; ++l) {
        total += static_cast<int>(gr * local + l);
        CHECK(out[gr * local + l] == static_cast<int>(gr * local + (l + 1) % local));
      }
      CHECK(once[gr] == total);
    }
    sycl::free(out, q);
    sycl::free(once, q);
    sycl::free(runs, q);
  }

  // 2-D with a flexible range larger than the group (4x3 logical over 2x2 physical) and
  // private_memory holding a per-work-item count across two parallel_for_work_item calls.
  {
    sycl::range<2> groups(3, 5), local(2, 2), flex(4, 3);
    std::size_t total = groups.size() * flex.size();
    std::vector<int> logical(total, -1), physical(total, -1), counts(groups.size() * 4, -1);
    {
      sycl::buffer<int> bl(logical.data(), sycl::range<1>(total));
      sycl::buffer<int> bp(physical.data(), sycl::range<1>(total));
      sycl::buffer<int> bc(counts.data(), sycl::range<1>(counts.size()));
      q.submit([&](sycl::handler& h) {
        sycl::accessor al(bl, h, sycl::write_only);
        sycl::accessor ap(bp, h, sycl::write_only);
        sycl::accessor ac(bc, h, sycl::write_only);
        h.parallel_for_work_group(groups, local, [=](sycl::group<2> g) {
          sycl::private_memory<int, 2> count(g);
          g.parallel_for_work_item([&](sycl::h_item<2> it) { count(it) = 0; });
          g.parallel_for_work_item(flex, [&](sycl::h_item<2> it) {
            std::size_t base = g.get_group_linear_id() * flex.size();
            std::size_t lin = it.get_logical_local().get_linear_id();
            al[base + lin] =
                static_cast<int>(it.get_logical_local_id(0) * 10 + it.get_logical_local_id(1));
            ap[base + lin] =
                static_cast<int>(it.get_physical_local_id(0) * 10 + it.get_physical_local_id(1));
            count(it) += 1;
          });
          g.parallel_for_work_item([&](sycl::h_item<2> it) {
            ac[g.get_group_linear_id() * 4 + it.get_physical_local().get_linear_id()] = count(it);
          });
        });
      });
    }
    for (std::size_t gr = 0; gr < groups.size(); ++gr)
      for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
          std::size_t k = gr * flex.size() + i * 3 + j;
          CHECK(logical[k] == static_cast<int>(i * 10 + j));
          CHECK(physical[k] == static_cast<int>((i % 2) * 10 + j % 2));
        }
    // Physical (0,0) runs logical (0,0),(0,2),(2,0),(2,2); (0,1): (0,1),(2,1); (1,0): (1,0),
    // (1,2),(3,0),(3,2); (1,1): (1,1),(3,1).
    for (std::size_t gr = 0; gr < groups.size(); ++gr) {
      CHECK(counts[gr * 4 + 0] == 4);
      CHECK(counts[gr * 4 + 1] == 2);
      CHECK(counts[gr * 4 + 2] == 4);
      CHECK(counts[gr * 4 + 3] == 2);
    }
  }

  // 3-D without a work-group size: global ids cover the range exactly once; a flexible range
  // smaller than the group.
  {
    sycl::range<3> groups(2, 3, 4);
    int* seen = nullptr;
    std::size_t* local_size = sycl::malloc_shared<std::size_t>(3, q);
    q.submit([&](sycl::handler& h) {
       h.parallel_for_work_group(groups, [=](sycl::group<3> g) {
         if (g.get_group_linear_id() == 0)
           for (int d = 0; d < 3; ++d) local_size[d] = g.get_local_range(d);
       });
     }).wait();
    sycl::range<3> local(local_size[0], local_size[1], local_size[2]);
    // syclone's implementation-defined size is one work-item (DPC++'s choice): physical global
    // ids are then the group ids (the CTS's handler tests rely on it).
    CHECK(local == sycl::range<3>(1, 1, 1));
    std::size_t n = (groups * local).size();
    seen = sycl::malloc_shared<int>(n, q);
    int* small = sycl::malloc_shared<int>(groups.size(), q);
    for (std::size_t i = 0; i < n; ++i) seen[i] = 0;
    q.submit([&](sycl::handler& h) {
       h.parallel_for_work_group(groups, [=](sycl::group<3> g) {
         g.parallel_for_work_item([&](sycl::h_item<3> it) {
           sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r(
               seen[it.get_global().get_linear_id()]);
           r.fetch_add(1);
         });
         int calls = 0;
         g.parallel_for_work_item(sycl::range<3>(1, 1, 1), [&](sycl::h_item<3>) { ++calls; });
         small[g.get_group_linear_id()] = calls;
       });
     }).wait();
    for (std::size_t i = 0; i < n; ++i) CHECK(seen[i] == 1);
    for (std::size_t i = 0; i < groups.size(); ++i) CHECK(small[i] == 1);
    // The CTS's pattern (handler_invoke_api.h): a flexible range of 1 indexes by the physical
    // global id, which must stay inside groups.size() elements.
    for (std::size_t i = 0; i < groups.size(); ++i) small[i] = -1;
    q.submit([&](sycl::handler& h) {
       h.parallel_for_work_group(sycl::range<1>(groups.size()), [=](sycl::group<1> g) {
         g.parallel_for_work_item(sycl::range<1>(1), [&](sycl::h_item<1> it) {
           if (it.get_global_id(0) < groups.size())
             small[it.get_global_id(0)] = static_cast<int>(it.get_global_id(0));
         });
       });
     }).wait();
    for (std::size_t i = 0; i < groups.size(); ++i) CHECK(small[i] == static_cast<int>(i));
    sycl::free(seen, q);
    sycl::free(small, q);
    sycl::free(local_size, q);
  }

  // Work-group-scope control flow around parallel_for_work_item (a loop whose trip count and
  // a running value live in the work-group scope), a flexible range that is no multiple of the
  // group (1000 over 96), and work-group-scope values computed from what the work-items wrote.
  {
    constexpr std::size_t groups = 5, local = 96, flex = 1000, rounds = 3;
    int* out = sycl::malloc_shared<int>(groups * flex, q);
    long* totals = sycl::malloc_shared<long>(groups * rounds, q);
    for (std::size_t i = 0; i < groups * flex; ++i) out[i] = 0;
    q.submit([&](sycl::handler& h) {
       h.parallel_for_work_group(
           sycl::range<1>(groups), sycl::range<1>(local), [=](sycl::group<1> g) {
             int data[flex];
             int scale = 1;
             for (std::size_t r = 0; r < rounds; ++r) {
               g.parallel_for_work_item(sycl::range<1>(flex), [&](sycl::h_item<1> it) {
                 std::size_t l = it.get_logical_local_id(0);
                 data[l] = static_cast<int>(l) * scale;
               });
               long total = 0;
               for (std::size_t i = 0; i < flex; ++i) total += data[i];
               totals[g.get_group_id(0) * rounds + r] = total;
               scale *= 2; // the next round's work-items see the new value
             }
             g.parallel_for_work_item(sycl::range<1>(flex), [&](sycl::h_item<1> it) {
               std::size_t l = it.get_logical_local_id(0);
               out[g.get_group_id(0) * flex + l] += data[l] + 1;
             });
           });
     }).wait();
    long base = static_cast<long>(flex * (flex - 1) / 2);
    for (std::size_t gr = 0; gr < groups; ++gr) {
      for (std::size_t r = 0; r < rounds; ++r) CHECK(totals[gr * rounds + r] == base << r);
      for (std::size_t l = 0; l < flex; ++l)
        CHECK(out[gr * flex + l] == static_cast<int>(l) * 4 + 1);
    }
    sycl::free(out, q);
    sycl::free(totals, q);
  }

  // A local_accessor in a hierarchical kernel: each work-group has its own local memory (the
  // host runs such kernels as one-item work-groups; the CTS's hierarchical_implicit_barriers).
  {
    constexpr std::size_t groups = 6, local = 32;
    std::vector<int> result(groups * local, -1);
    {
      sycl::buffer<int> out(result.data(), sycl::range<1>(groups * local));
      q.submit([&](sycl::handler& h) {
        sycl::accessor o(out, h, sycl::write_only);
        sycl::local_accessor<int, 1> tile(sycl::range<1>(local), h);
        h.parallel_for_work_group(
            sycl::range<1>(groups), sycl::range<1>(local), [=](sycl::group<1> g) {
              g.parallel_for_work_item([&](sycl::h_item<1> it) {
                tile[it.get_local_id(0)] = static_cast<int>(it.get_global_id(0));
              });
              g.parallel_for_work_item([&](sycl::h_item<1> it) {
                o[it.get_global_id(0)] = tile[local - 1 - it.get_local_id(0)];
              });
            });
      });
    }
    for (std::size_t gr = 0; gr < groups; ++gr)
      for (std::size_t l = 0; l < local; ++l)
        CHECK(result[gr * local + l] == static_cast<int>(gr * local + local - 1 - l));
  }

  // Bad input: a work-group larger than the device runs.
  {
    bool threw = false;
    try {
      q.submit([&](sycl::handler& h) {
        h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(1 << 20),
                                  [=](sycl::group<1>) {});
      });
    } catch (const sycl::exception& e) {
      threw = e.code() == sycl::errc::nd_range;
      std::printf("expected: %s\n", e.what());
    }
    CHECK(threw);
  }

  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("hierarchical: all passed\n");
  return 0;
}
