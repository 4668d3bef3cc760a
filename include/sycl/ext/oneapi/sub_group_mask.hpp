// sycl_ext_oneapi_sub_group_mask (revision 2): a bit per work-item of a sub-group, and
// group_ballot, which makes one from each work-item's predicate. The mask is 64 bits and its
// size (the sub-group's maximum size: 32 on NVIDIA GPUs, the launch's sub-group size on the host
// device); bits at and above the size are always zero. group_ballot is one vote.ballot.sync on
// NVIDIA GPUs, a read of the sub-group's exchange slots on the host (a vector compare and a
// movemask once the work-item loop compiler runs the sub-group as one vector).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/id.hpp>
#include <sycl/marray.hpp>
#include <sycl/sub_group.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#define SYCL_EXT_ONEAPI_SUB_GROUP_MASK 2

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi {

struct sub_group_mask;
template <typename Group>
std::enable_if_t<std::is_same_v<std::decay_t<Group>, sub_group>, sub_group_mask>
group_ballot(Group g, bool predicate = true);

struct sub_group_mask {
  // A bit of the mask.
  class reference {
  public:
    reference& operator=(bool x) {
      m_mask.set(id<1>(m_bit), x);
      return *this;
    }
    reference& operator=(const reference& x) { return *this = bool(x); }
    bool operator~() const { return !m_mask.test(id<1>(m_bit)); }
    operator bool() const { return m_mask.test(id<1>(m_bit)); }
    reference& flip() {
      m_mask.flip(id<1>(m_bit));
      return *this;
    }

  private:
    friend struct sub_group_mask;
    reference(sub_group_mask& mask, std::size_t bit) : m_mask(mask), m_bit(bit) {}
    sub_group_mask& m_mask;
    std::size_t m_bit;
  };

  static constexpr std::size_t max_bits = 64;

  // As many bits as the calling work-item's sub-group has work-items at most.
  sub_group_mask() : sub_group_mask(0, detail::dev::sub_group_max_size()) {}
  sub_group_mask(unsigned long long val)
      : sub_group_mask(std::uint64_t(val), detail::dev::sub_group_max_size()) {}
  template <typename T, std::size_t K>
  sub_group_mask(const marray<T, K>& val) : sub_group_mask() {
    insert_bits(val, id<1>(0));
  }
  sub_group_mask(const sub_group_mask& other) = default;
  sub_group_mask& operator=(const sub_group_mask& other) = default;

  bool operator[](id<1> i) const { return test(i); }
  reference operator[](id<1> i) { return reference(*this, i[0]); }
  bool test(id<1> i) const { return i[0] < m_size && ((m_bits >> i[0]) & 1u); }
  bool all() const { return m_bits == valid(); }
  bool any() const { return m_bits != 0; }
  bool none() const { return m_bits == 0; }
  std::uint32_t count() const { return std::uint32_t(__builtin_popcountll(m_bits)); }
  std::uint32_t size() const { return m_size; }
  id<1> find_low() const { return id<1>(m_bits ? __builtin_ctzll(m_bits) : m_size); }
  id<1> find_high() const { return id<1>(m_bits ? 63 - __builtin_clzll(m_bits) : m_size); }

  // Bits [pos, pos + CHAR_BIT * sizeof(T)) from `bits` (an integer, or an marray of them, its
  // element 0 first); those past size() are dropped.
  template <typename T>
  void insert_bits(const T& bits, id<1> pos = 0) {
    if constexpr (is_marray<T>) {
      using E = typename T::value_type;
      for (std::size_t k = 0; k < T::size(); ++k)
        insert_bits(bits[k], id<1>(pos[0] + k * CHAR_BIT * sizeof(E)));
    } else {
      static_assert(std::is_integral_v<T>,
                    "insert_bits takes an integral type or an marray of integral types");
      constexpr std::size_t width = CHAR_BIT * sizeof(T);
      std::size_t at = pos[0];
      if (at >= max_bits) return;
      std::uint64_t field = width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
      std::uint64_t value = static_cast<std::uint64_t>(bits) & field; // (sign bits masked off)
      m_bits = ((m_bits & ~(field << at)) | (value << at)) & valid();
    }
  }
  // CHAR_BIT * sizeof(T) bits from `pos` into `out` (an integer, or an marray of them); those
  // past size() read as zero.
  template <typename T>
  void extract_bits(T& out, id<1> pos = 0) const {
    if constexpr (is_marray<T>) {
      using E = typename T::value_type;
      for (std::size_t k = 0; k < T::size(); ++k)
        extract_bits(out[k], id<1>(pos[0] + k * CHAR_BIT * sizeof(E)));
    } else {
      static_assert(std::is_integral_v<T>,
                    "extract_bits takes an integral type or an marray of integral types");
      std::size_t at = pos[0];
      out = at >= max_bits ? T(0) : T(m_bits >> at);
    }
  }

  void set() { m_bits = valid(); }
  void set(id<1> i, bool value = true) {
    if (i[0] >= m_size) return;
    std::uint64_t bit = std::uint64_t(1) << i[0];
    m_bits = value ? (m_bits | bit) : (m_bits & ~bit);
  }
  void reset() { m_bits = 0; }
  void reset(id<1> i) { set(i, false); }
  void reset_low() { m_bits &= m_bits - 1; }
  void reset_high() {
    if (m_bits) m_bits &= ~(std::uint64_t(1) << (63 - __builtin_clzll(m_bits)));
  }
  void flip() { m_bits = ~m_bits & valid(); }
  void flip(id<1> i) {
    if (i[0] < m_size) m_bits ^= std::uint64_t(1) << i[0];
  }

  bool operator==(const sub_group_mask& rhs) const { return m_bits == rhs.m_bits; }
  bool operator!=(const sub_group_mask& rhs) const { return m_bits != rhs.m_bits; }

  sub_group_mask& operator&=(const sub_group_mask& rhs) {
    m_bits &= rhs.m_bits;
    return *this;
  }
  sub_group_mask& operator|=(const sub_group_mask& rhs) {
    m_bits = (m_bits | rhs.m_bits) & valid();
    return *this;
  }
  sub_group_mask& operator^=(const sub_group_mask& rhs) {
    m_bits = (m_bits ^ rhs.m_bits) & valid();
    return *this;
  }
  sub_group_mask& operator<<=(std::size_t shift) {
    m_bits = shift >= max_bits ? 0 : (m_bits << shift) & valid();
    return *this;
  }
  sub_group_mask& operator>>=(std::size_t shift) {
    m_bits = shift >= max_bits ? 0 : m_bits >> shift;
    return *this;
  }

  sub_group_mask operator~() const {
    sub_group_mask m = *this;
    m.flip();
    return m;
  }
  sub_group_mask operator<<(std::size_t shift) const {
    sub_group_mask m = *this;
    return m <<= shift;
  }
  sub_group_mask operator>>(std::size_t shift) const {
    sub_group_mask m = *this;
    return m >>= shift;
  }

  friend sub_group_mask operator&(const sub_group_mask& lhs, const sub_group_mask& rhs) {
    sub_group_mask m = lhs;
    return m &= rhs;
  }
  friend sub_group_mask operator|(const sub_group_mask& lhs, const sub_group_mask& rhs) {
    sub_group_mask m = lhs;
    return m |= rhs;
  }
  friend sub_group_mask operator^(const sub_group_mask& lhs, const sub_group_mask& rhs) {
    sub_group_mask m = lhs;
    return m ^= rhs;
  }

private:
  template <typename Group>
  friend std::enable_if_t<std::is_same_v<std::decay_t<Group>, sub_group>, sub_group_mask>
  group_ballot(Group g, bool predicate);

  template <typename T>
  static constexpr bool is_marray = false;
  template <typename T, std::size_t K>
  static constexpr bool is_marray<marray<T, K>> = true;

  sub_group_mask(std::uint64_t bits, std::uint32_t size) : m_size(size) { m_bits = bits & valid(); }
  std::uint64_t valid() const {
    return m_size >= max_bits ? ~std::uint64_t(0) : (std::uint64_t(1) << m_size) - 1;
  }

  std::uint64_t m_bits = 0;
  std::uint32_t m_size = 0;
};

template <typename Group>
std::enable_if_t<std::is_same_v<std::decay_t<Group>, sub_group>, sub_group_mask>
group_ballot(Group g, bool predicate) {
  return sub_group_mask(detail::dev::sub_group_ballot(g.info(), predicate),
                        std::uint32_t(g.get_max_local_range()[0]));
}

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE
