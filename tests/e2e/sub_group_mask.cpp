// sycl_ext_oneapi_sub_group_mask (issue 30): group_ballot gives each work-item of a sub-group the
// same mask, bit i set for lane i's predicate, at the device's primary sub-group size and at each
// size a kernel may require; the mask's operations (test, count, find_low/high, insert/extract
// bits of integers and marrays, set/reset/flip, shifts, bitwise operators, references) computed
// in kernels against a 64-bit reference computed here.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <cstdint>

#ifndef SYCL_EXT_ONEAPI_SUB_GROUP_MASK
#error "SYCL_EXT_ONEAPI_SUB_GROUP_MASK is not defined"
#endif

namespace oneapi = sycl::ext::oneapi;

namespace {

// What lane `lane` votes in round `r`.
bool vote(std::uint32_t lane, int r) {
  switch (r) {
  case 0:
    return lane % 2 == 0;
  case 1:
    return lane % 3 == 0;
  case 2:
    return true;
  case 3:
    return false;
  default:
    return lane * 7 % 5 < 2;
  }
}
constexpr int rounds = 5;
constexpr int checks = 14;

// Each work-item writes, per round, `checks` values computed from its ballot.
template <typename Mask>
void compute(const Mask& m, std::uint32_t lane, std::uint64_t* out) {
  out[0] = m.size();
  out[1] = m.count();
  out[2] = m.find_low()[0];
  out[3] = m.find_high()[0];
  out[4] = (m.all() ? 1 : 0) | (m.any() ? 2 : 0) | (m.none() ? 4 : 0) |
           (m.test(sycl::id<1>(lane)) ? 8 : 0) | (m[sycl::id<1>(lane)] ? 16 : 0);
  std::uint64_t bits = 0;
  m.extract_bits(bits);
  out[5] = bits;
  sycl::marray<std::uint8_t, 8> bytes;
  m.extract_bits(bytes);
  std::uint64_t joined = 0;
  for (int k = 0; k < 8; ++k) joined |= std::uint64_t(bytes[k]) << (8 * k);
  out[6] = joined;
  Mask shifted = (m << 3) >> 1;
  shifted.extract_bits(out[7]);
  Mask flipped = ~m;
  flipped.extract_bits(out[8]);
  Mask other(0x0f0f0f0f0f0f0f0full);
  Mask both = (m & other) | (m ^ other);
  both.extract_bits(out[9]);
  Mask edited = m;
  edited.reset_low();
  edited.reset_high();
  edited.flip(sycl::id<1>(1));
  edited[sycl::id<1>(2)] = true;
  edited[sycl::id<1>(0)].flip();
  edited.extract_bits(out[10]);
  Mask inserted;
  inserted.insert_bits(std::uint8_t(0xa5), sycl::id<1>(4));
  inserted.insert_bits(sycl::marray<std::uint8_t, 2>(0x3c, 0xff), sycl::id<1>(16));

  inserted.extract_bits(out[11]);
  std::uint16_t part = 0;
  m.extract_bits(part, sycl::id<1>(2));
  out[12] = part;
  // bool and marray<bool> fields: 8 bits each, the value 0 or 1.
  Mask flags(~0ull);
  flags.insert_bits(true, sycl::id<1>(3));
  flags.insert_bits(sycl::marray<bool, 2>(false, true), sycl::id<1>(5));
  std::uint64_t flag_bits = 0;
  flags.extract_bits(flag_bits);
  std::uint64_t all = m.size() >= 64 ? ~0ull : (1ull << m.size()) - 1;
  std::uint64_t want = ((~0ull & ~0x1ffff8ull) | (1ull << 3) | (1ull << 13)) & all;
  out[13] = (m == Mask(bits) ? 1 : 0) | (m != other ? 2 : 0) | (flag_bits == want ? 4 : 0);
}

// The same computed here, on the mask's bits and size.
void reference(std::uint64_t bits, std::uint32_t size, std::uint32_t lane, std::uint64_t* out) {
  const std::uint64_t valid = size >= 64 ? ~0ull : (1ull << size) - 1;
  auto low = [&](std::uint64_t b) { return b ? std::uint64_t(__builtin_ctzll(b)) : size; };
  auto high = [&](std::uint64_t b) { return b ? std::uint64_t(63 - __builtin_clzll(b)) : size; };
  out[0] = size;
  out[1] = std::uint64_t(__builtin_popcountll(bits));
  out[2] = low(bits);
  out[3] = high(bits);
  bool mine = (bits >> lane) & 1;
  out[4] =
      (bits == valid ? 1 : 0) | (bits ? 2 : 0) | (bits ? 0 : 4) | (mine ? 8 : 0) | (mine ? 16 : 0);
  out[5] = bits;
  out[6] = bits;
  out[7] = ((bits << 3) & valid) >> 1;
  out[8] = ~bits & valid;
  std::uint64_t other = 0x0f0f0f0f0f0f0f0full & valid;
  out[9] = (bits & other) | (bits ^ other);
  std::uint64_t e = bits;
  e &= e - 1;
  if (e) e &= ~(1ull << (63 - __builtin_clzll(e)));
  if (size > 1) e ^= 2;
  if (size > 2) e |= 4;
  e ^= 1;
  out[10] = e & valid;
  out[11] = ((0xa5ull << 4) | (0x3cull << 16) | (0xffull << 24)) & valid;
  out[12] = (bits >> 2) & 0xffff;
  out[13] = 1 | (bits != other ? 2 : 0) | 4;
}

template <int Size>
struct kernel_name;

// Runs the ballots in work-groups of 64 with sub-groups of `Size` (0: the primary size).
template <int Size>
void run(sycl::queue& q) {
  constexpr std::size_t n = 128, group = 64;
  std::uint64_t* out = sycl::malloc_shared<std::uint64_t>(n * rounds * checks, q);
  std::uint32_t* lanes = sycl::malloc_shared<std::uint32_t>(n * 2, q);
  auto body = [=](sycl::nd_item<1> it) {
    sycl::sub_group sg = it.get_sub_group();
    std::uint32_t lane = sg.get_local_linear_id();
    std::size_t i = it.get_global_linear_id();
    lanes[2 * i] = lane;
    lanes[2 * i + 1] = sg.get_max_local_range()[0];
    for (int r = 0; r < rounds; ++r) {
      oneapi::sub_group_mask m = oneapi::group_ballot(sg, vote(lane, r));
      compute(m, lane, out + (i * rounds + r) * checks);
    }
  };
  if constexpr (Size == 0)
    q.parallel_for<kernel_name<Size>>(sycl::nd_range<1>{n, group}, body).wait();
  else
    q.parallel_for<kernel_name<Size>>(sycl::nd_range<1>{n, group},
                                      [=](sycl::nd_item<1> it)
                                          [[sycl::reqd_sub_group_size(Size)]] { body(it); })
        .wait();
  bool ok = true;
  for (std::size_t i = 0; i < n && ok; ++i) {
    std::uint32_t lane = lanes[2 * i], size = lanes[2 * i + 1];
    std::size_t first = i - lane; // lane 0 of the sub-group
    for (int r = 0; r < rounds && ok; ++r) {
      std::uint64_t bits = 0;
      for (std::uint32_t k = 0; k < size; ++k) bits |= std::uint64_t(vote(k, r)) << k;
      std::uint64_t want[checks];
      reference(bits, size, lane, want);
      for (int c = 0; c < checks; ++c)
        if (out[(i * rounds + r) * checks + c] != want[c]) {
          std::printf("size %d, work-item %zu (lane %u of %u, first %zu), round %d, check %d: "
                      "%llx, want %llx\n",
                      Size, i, lane, size, first, r, c,
                      (unsigned long long)out[(i * rounds + r) * checks + c],
                      (unsigned long long)want[c]);
          ok = false;
          break;
        }
    }
  }
  EXPECT(ok);
  sycl::free(out, q);
  sycl::free(lanes, q);
}

} // namespace

int main() {
  sycl::queue q;
  static_assert(oneapi::sub_group_mask::max_bits >= 32);
  run<0>(q);
  auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  auto has = [&](std::size_t s) {
    for (auto x : sizes)
      if (x == s) return true;
    return false;
  };
  if (has(8)) run<8>(q);
  if (has(16)) run<16>(q);
  if (has(32)) run<32>(q);
  if (failures == 0) std::printf("sub_group_mask: all checks passed\n");
  return failures;
}
