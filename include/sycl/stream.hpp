// SYCL 2020 4.16. Stream class: formatted output from kernels, printed on the host's stdout
// when the command completes.
//
// The stream's buffer (device-accessible memory) is cut into statement segments of 4 +
// workItemBufferSize bytes. A work-item reserves a segment with one atomic at its first output,
// appends to it until endl or flush, and the next output reserves a new one; the host prints the
// segments in the order they were reserved, so a work-item's line is never interleaved with
// another's. totalBufferSize counts the characters printed, not the segments: the buffer has
// room for a segment per character of it (up to 64 MiB of segments, of which only those used
// are touched), and the host prints statements in order while they fit in totalBufferSize
// characters. Output beyond either limit is dropped (SYCL 2020 4.16: implementation-defined;
// never a crash): the rest of a statement longer than workItemBufferSize, the statements after
// the total. Each work-item has its own formatting state and open segment: on a GPU in its own copy
// of the stream (a thread running several logical work-items of a hierarchical kernel switches
// state between them), on the host in the executor's table of the running work-item
// (src/backends/host/work_item_streams.hpp), which starts empty with each work-item.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/object_identity.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/half.hpp>
#include <sycl/handler.hpp>
#include <sycl/hierarchical.hpp>
#include <sycl/id.hpp>
#include <sycl/item.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/property_list.hpp>
#include <sycl/range.hpp>
#include <sycl/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.16.2. Manipulators.
enum class stream_manipulator {
  flush,
  dec,
  hex,
  oct,
  noshowbase,
  showbase,
  noshowpos,
  showpos,
  endl,
  fixed,
  scientific,
  hexfloat,
  defaultfloat
};
inline constexpr stream_manipulator flush = stream_manipulator::flush;
inline constexpr stream_manipulator dec = stream_manipulator::dec;
inline constexpr stream_manipulator hex = stream_manipulator::hex;
inline constexpr stream_manipulator oct = stream_manipulator::oct;
inline constexpr stream_manipulator noshowbase = stream_manipulator::noshowbase;
inline constexpr stream_manipulator showbase = stream_manipulator::showbase;
inline constexpr stream_manipulator noshowpos = stream_manipulator::noshowpos;
inline constexpr stream_manipulator showpos = stream_manipulator::showpos;
inline constexpr stream_manipulator endl = stream_manipulator::endl;
inline constexpr stream_manipulator fixed = stream_manipulator::fixed;
inline constexpr stream_manipulator scientific = stream_manipulator::scientific;
inline constexpr stream_manipulator hexfloat = stream_manipulator::hexfloat;
inline constexpr stream_manipulator defaultfloat = stream_manipulator::defaultfloat;

class __precision_manipulator__ {
public:
  explicit __precision_manipulator__(int precision) : m_precision(precision) {}
  int precision() const { return m_precision; }

private:
  int m_precision;
};
class __width_manipulator__ {
public:
  explicit __width_manipulator__(int width) : m_width(width) {}
  int width() const { return m_width; }

private:
  int m_width;
};
inline __precision_manipulator__ setprecision(int precision) {
  return __precision_manipulator__(precision);
}
inline __width_manipulator__ setw(int width) {
  return __width_manipulator__(width);
}

namespace detail {
// A work-item's formatting state and open segment.
struct stream_state {
  std::uint8_t base = 10;
  bool showbase = false;
  bool showpos = false;
  std::uint8_t float_mode = 0; // 0 default, 1 fixed, 2 scientific, 3 hexfloat
  std::int32_t precision = 6;
  std::int32_t width = 0;
  char* segment = nullptr; // [u32 length][data], or null when none is open
  std::uint32_t used = 0;
  bool full = false; // the buffer ran out: output is dropped until the kernel ends
};

// Runtime side (src/runtime/stream.cpp): the buffer, printed and freed when the command
// completes.
// `capacity`: the bytes of segments the buffer holds after its 8-byte header.
SYCLONE_EXPORT std::byte* stream_buffer(handler& cgh, std::size_t bytes, std::size_t segment,
                                        std::uint64_t* id, std::size_t* capacity);
SYCLONE_EXPORT stream_state& host_stream_state(std::uint64_t id, const stream_state& initial);

SYCLONE_INLINE std::size_t format_uint(char* out, std::uint64_t v, unsigned base) {
  char tmp[24];
  std::size_t n = 0;
  do {
    unsigned d = static_cast<unsigned>(v % base);
    tmp[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
    v /= base;
  } while (v);
  for (std::size_t i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  return n;
}
} // namespace detail

class stream : public detail::owner_ordered<stream> {
public:
  // SYCL 2020 4.16.1. Constructor. Each stream is an object of its own, which its copies share
  // (sycl_ext_oneapi_weak_object: m_identity).
  stream(std::size_t totalBufferSize, std::size_t workItemBufferSize, handler& cgh,
         const property_list& propList = {})
      : m_size(totalBufferSize), m_wi_size(workItemBufferSize),
        m_identity(detail::object_identity::make()) {
    (void)propList;
    m_segment = (4 + workItemBufferSize + 3) / 4 * 4;
    m_data = detail::stream_buffer(cgh, totalBufferSize, m_segment, &m_id, &m_capacity);
  }

  std::size_t size() const noexcept { return m_size; }
  std::size_t get_size() const { return m_size; }
  std::size_t get_work_item_buffer_size() const { return m_wi_size; }
  [[deprecated("SYCL 2020: use get_work_item_buffer_size")]] std::size_t
  get_max_statement_size() const {
    return m_wi_size;
  }

  friend bool operator==(const stream& a, const stream& b) { return a.m_id == b.m_id; }
  // Not part of the SYCL API: the stream's identity (copies share it), for std::hash.
  std::uint64_t identity() const noexcept { return m_id; }
  friend bool operator!=(const stream& a, const stream& b) { return !(a == b); }

  // Not part of the SYCL API: what the operator<< overloads build on.
  detail::stream_state& state() const {
    if constexpr (detail::dev::is_host) {
      return detail::host_stream_state(m_id, m_state);
    } else {
      if constexpr (detail::dev::hierarchical_spread) {
        std::uint32_t serial = detail::dev::hierarchical_item_serial();
        if (serial != m_serial) switch_work_item(serial);
      }
      return m_state;
    }
  }
  // Appends bytes to the work-item's open segment (reserving one first).
  void put(const char* s, std::size_t n) const {
    detail::stream_state& st = state();
    if (st.full || m_wi_size == 0) return;
    if (!st.segment) {
      std::uint64_t* reserved = reinterpret_cast<std::uint64_t*>(m_data);
      std::uint64_t at = __scoped_atomic_fetch_add(reserved, std::uint64_t(m_segment),
                                                   __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
      if (at + m_segment > m_capacity) {
        st.full = true;
        return;
      }
      st.segment = reinterpret_cast<char*>(m_data) + 8 + at;
      st.used = 0;
    }
    std::size_t room = m_wi_size - st.used;
    if (n > room) n = room;
    for (std::size_t i = 0; i < n; ++i) st.segment[4 + st.used + i] = s[i];
    st.used += static_cast<std::uint32_t>(n);
    *reinterpret_cast<std::uint32_t*>(st.segment) = st.used;
  }
  // Ends the statement with a newline, which replaces the last byte of a full segment so that
  // a truncated statement still ends its line.
  void put_newline() const {
    detail::stream_state& st = state();
    if (st.segment && st.used == m_wi_size) {
      st.segment[4 + st.used - 1] = '\n';
      return;
    }
    put("\n", 1);
  }
  // Closes the segment: the next output starts a new statement.
  void flush_segment() const { state().segment = nullptr; }
  // A formatted value, padded on the left to the pending setw width (which it consumes).
  void put_padded(const char* s, std::size_t n) const {
    detail::stream_state& st = state();
    if (st.width > 0 && static_cast<std::size_t>(st.width) > n) {
      char spaces[16] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
                         ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
      std::size_t pad = static_cast<std::size_t>(st.width) - n;
      while (pad) {
        std::size_t k = pad < 16 ? pad : 16;
        put(spaces, k);
        pad -= k;
      }
    }
    st.width = 0;
    put(s, n);
  }

private:
  friend struct detail::weak_access;

  // A GPU thread of a hierarchical kernel moved on to another logical work-item, or back to the
  // work-group scope (serial odd: a work-item, even: the work-group scope; detail/device/
  // nvptx.hpp). Like the host: each work-item starts with the work-group scope's formatting and
  // without its open statement, and the work-group scope goes on with its own state after it.
  void switch_work_item(std::uint32_t serial) const {
    if ((m_serial & 1) == 0) m_group_state = m_state;
    m_state = m_group_state;
    if (serial & 1) m_state.segment = nullptr;
    m_serial = serial;
  }

  std::byte* m_data = nullptr; // [u64 reserved bytes][segments]
  std::size_t m_size = 0;
  std::size_t m_wi_size = 0;
  std::size_t m_segment = 0;
  std::size_t m_capacity = 0; // bytes of segments in m_data (after the header)
  std::uint64_t m_id = 0;
  detail::object_identity m_identity; // what its copies share (detail/object_identity.hpp)
  mutable detail::stream_state m_state;
  // GPU hierarchical kernels: the work-group scope's state while a work-item runs, and the item
  // serial m_state belongs to.
  mutable detail::stream_state m_group_state;
  mutable std::uint32_t m_serial = 0;
};

namespace detail {
template <typename T>
void put_signed(const stream& os, T value) {
  const stream_state& st = os.state();
  char buf[32];
  std::size_t n = 0;
  bool negative = value < 0;
  std::uint64_t magnitude = negative ? std::uint64_t(0) - static_cast<std::uint64_t>(value)
                                     : static_cast<std::uint64_t>(value);
  if (st.base == 10) {
    if (negative)
      buf[n++] = '-';
    else if (st.showpos)
      buf[n++] = '+';
  } else {
    magnitude = static_cast<std::make_unsigned_t<T>>(value); // hex/oct show the bits
  }
  if (st.showbase && st.base == 16) {
    buf[n++] = '0';
    buf[n++] = 'x';
  } else if (st.showbase && st.base == 8 && magnitude != 0) {
    buf[n++] = '0';
  }
  n += format_uint(buf + n, magnitude, st.base);
  os.put_padded(buf, n);
}
template <typename T>
void put_unsigned(const stream& os, T value) {
  const stream_state& st = os.state();
  char buf[32];
  std::size_t n = 0;
  if (st.base == 10 && st.showpos) buf[n++] = '+';
  if (st.showbase && st.base == 16) {
    buf[n++] = '0';
    buf[n++] = 'x';
  } else if (st.showbase && st.base == 8 && value != 0) {
    buf[n++] = '0';
  }
  n += format_uint(buf + n, static_cast<std::uint64_t>(value), st.base);
  os.put_padded(buf, n);
}

// Digits of a non-negative value below 1e19 with `precision` fraction digits (rounded).
inline std::size_t format_fixed(char* out, double v, int precision) {
  if (precision > 17) precision = 17;
  double scale = 1;
  for (int i = 0; i < precision; ++i) scale *= 10;
  double ip = __builtin_floor(v);
  double frac = __builtin_floor((v - ip) * scale + 0.5);
  if (frac >= scale) {
    ip += 1;
    frac -= scale;
  }
  std::size_t n = format_uint(out, static_cast<std::uint64_t>(ip), 10);
  if (precision > 0) {
    out[n++] = '.';
    char digits[24];
    std::size_t d = format_uint(digits, static_cast<std::uint64_t>(frac), 10);
    for (std::size_t i = d; i < static_cast<std::size_t>(precision); ++i) out[n++] = '0';
    for (std::size_t i = 0; i < d; ++i) out[n++] = digits[i];
  }
  return n;
}
// v = m * 10^e with 1 <= m < 10 (v > 0, finite).
inline int decimal_exponent(double v, double& m) {
  int e = 0;
  m = v;
  while (m >= 1e16) {
    m /= 1e16;
    e += 16;
  }
  while (m >= 10) {
    m /= 10;
    ++e;
  }
  while (m < 1e-16) {
    m *= 1e16;
    e -= 16;
  }
  while (m < 1) {
    m *= 10;
    --e;
  }
  return e;
}
inline std::size_t format_scientific(char* out, double v, int precision) {
  double m;
  int e = v == 0 ? 0 : decimal_exponent(v, m);
  if (v == 0) m = 0;
  if (precision > 17) precision = 17;
  // Rounding may carry into a new digit (9.99 -> 10.0).
  double scale = 1;
  for (int i = 0; i < precision; ++i) scale *= 10;
  if (__builtin_floor(m * scale + 0.5) >= 10 * scale) {
    m /= 10;
    ++e;
  }
  std::size_t n = format_fixed(out, m, precision);
  out[n++] = 'e';
  out[n++] = e < 0 ? '-' : '+';
  unsigned ae = static_cast<unsigned>(e < 0 ? -e : e);
  if (ae < 10) out[n++] = '0';
  n += format_uint(out + n, ae, 10);
  return n;
}
inline std::size_t trim_zeros(char* out, std::size_t n) {
  std::size_t dot = n;
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] == '.') dot = i;
  if (dot == n) return n;
  std::size_t end = n;
  while (end > dot + 1 && out[end - 1] == '0') --end;
  if (end == dot + 1) --end;
  return end;
}
inline std::size_t format_hexfloat(char* out, double v) {
  std::uint64_t bits = __builtin_bit_cast(std::uint64_t, v);
  int exp = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t mant = bits & ((std::uint64_t(1) << 52) - 1);
  std::size_t n = 0;
  out[n++] = '0';
  out[n++] = 'x';
  out[n++] = exp == 0 ? '0' : '1';
  int e = exp == 0 ? (mant ? -1022 : 0) : exp - 1023;
  if (mant) {
    out[n++] = '.';
    char digits[16];
    for (int i = 12; i >= 0; --i) digits[12 - i] = "0123456789abcdef"[(mant >> (4 * i)) & 15];
    std::size_t d = 13;
    while (d > 1 && digits[d - 1] == '0') --d;
    for (std::size_t i = 0; i < d; ++i) out[n++] = digits[i];
  }
  out[n++] = 'p';
  out[n++] = e < 0 ? '-' : '+';
  n += format_uint(out + n, static_cast<std::uint64_t>(e < 0 ? -e : e), 10);
  return n;
}
inline void put_float(const stream& os, double v, bool is_float) {
  const stream_state& st = os.state();
  char buf[64];
  std::size_t n = 0;
  if (__builtin_signbit(v) && !__builtin_isnan(v)) {
    buf[n++] = '-';
    v = -v;
  } else if (st.showpos) {
    buf[n++] = '+';
  }
  if (__builtin_isnan(v)) {
    buf[n++] = 'n';
    buf[n++] = 'a';
    buf[n++] = 'n';
  } else if (__builtin_isinf(v)) {
    buf[n++] = 'i';
    buf[n++] = 'n';
    buf[n++] = 'f';
  } else {
    int p = st.precision < 0 ? 6 : st.precision;
    switch (st.float_mode) {
    case 1:
      n += v < 1e19 ? format_fixed(buf + n, v, p) : format_scientific(buf + n, v, p);
      break;
    case 2:
      n += format_scientific(buf + n, v, p);
      break;
    case 3:
      n += format_hexfloat(buf + n, v);
      break;
    default: {
      // %g: the shorter of fixed and scientific for `p` significant digits.
      if (p == 0) p = 1;
      int max_digits = is_float ? 9 : 17;
      if (p > max_digits) p = max_digits;
      double m;
      int e = v == 0 ? 0 : decimal_exponent(v, m);
      if (v != 0) {
        double scale = 1;
        for (int i = 0; i < p - 1; ++i) scale *= 10;
        if (__builtin_floor(m * scale + 0.5) >= 10 * scale) ++e;
      }
      std::size_t k;
      if (e < -4 || e >= p) {
        k = format_scientific(buf + n, v, p - 1);
        // Trim the mantissa's zeros, keep the exponent.
        std::size_t epos = 0;
        while (buf[n + epos] != 'e') ++epos;
        char exp_part[8];
        std::size_t el = k - epos;
        for (std::size_t i = 0; i < el; ++i) exp_part[i] = buf[n + epos + i];
        std::size_t mant = trim_zeros(buf + n, epos);
        for (std::size_t i = 0; i < el; ++i) buf[n + mant + i] = exp_part[i];
        k = mant + el;
      } else {
        k = trim_zeros(buf + n, format_fixed(buf + n, v, p - 1 - e));
      }
      n += k;
    }
    }
  }
  os.put_padded(buf, n);
}
// Characters (char, signed char, unsigned char) print as characters, as with iostreams.
template <typename T>
inline constexpr bool is_stream_char_v =
    std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>;
template <typename T>
inline constexpr bool is_stream_signed_v =
    std::is_integral_v<T> && std::is_signed_v<T> && !is_stream_char_v<T>;
template <typename T>
inline constexpr bool is_stream_unsigned_v = std::is_integral_v<T> && std::is_unsigned_v<T> &&
                                             !std::is_same_v<T, bool> && !is_stream_char_v<T>;

template <int D, typename T>
void put_list(const stream& os, const T& values) {
  os.put("{", 1);
  for (int d = 0; d < D; ++d) {
    if (d) os.put(", ", 2);
    put_unsigned(os, static_cast<std::uint64_t>(values[d]));
  }
  os.put("}", 1);
}
inline void put_text(const stream& os, const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  os.put(s, n);
}
} // namespace detail

// SYCL 2020 4.16.4. Operators: characters, strings, integers, floating point, booleans,
// pointers, vec, and the SYCL id and item classes.
inline const stream& operator<<(const stream& os, char c) {
  os.put_padded(&c, 1);
  return os;
}
inline const stream& operator<<(const stream& os, signed char c) {
  return os << static_cast<char>(c);
}
inline const stream& operator<<(const stream& os, unsigned char c) {
  return os << static_cast<char>(c);
}
inline const stream& operator<<(const stream& os, const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  os.put_padded(s, n);
  return os;
}
inline const stream& operator<<(const stream& os, char* s) {
  return os << static_cast<const char*>(s);
}
inline const stream& operator<<(const stream& os, bool b) {
  if (b)
    os.put_padded("true", 4);
  else
    os.put_padded("false", 5);
  return os;
}
template <typename T, typename = std::enable_if_t<detail::is_stream_signed_v<T>>>
const stream& operator<<(const stream& os, T value) {
  detail::put_signed(os, value);
  return os;
}
template <typename T, typename = std::enable_if_t<detail::is_stream_unsigned_v<T>>, typename = void>
const stream& operator<<(const stream& os, T value) {
  detail::put_unsigned(os, value);
  return os;
}
inline const stream& operator<<(const stream& os, float v) {
  detail::put_float(os, v, true);
  return os;
}
inline const stream& operator<<(const stream& os, double v) {
  detail::put_float(os, v, false);
  return os;
}
inline const stream& operator<<(const stream& os, half v) {
  detail::put_float(os, static_cast<float>(v), true);
  return os;
}
template <typename T, typename = std::enable_if_t<!std::is_same_v<std::remove_cv_t<T>, char>>>
const stream& operator<<(const stream& os, T* ptr) {
  detail::stream_state& st = os.state();
  std::uint8_t base = st.base;
  bool showbase = st.showbase;
  st.base = 16;
  st.showbase = true;
  detail::put_unsigned(os, reinterpret_cast<std::uintptr_t>(ptr));
  st.base = base;
  st.showbase = showbase;
  return os;
}
template <typename ElementType, access::address_space Space, access::decorated IsDecorated>
const stream& operator<<(const stream& os, const multi_ptr<ElementType, Space, IsDecorated>& mp) {
  return os << mp.get_raw();
}
inline const stream& operator<<(const stream& os, stream_manipulator m) {
  detail::stream_state& st = os.state();
  switch (m) {
  case stream_manipulator::flush:
    os.flush_segment();
    break;
  case stream_manipulator::endl:
    os.put_newline();
    os.flush_segment();
    break;
  case stream_manipulator::dec:
    st.base = 10;
    break;
  case stream_manipulator::hex:
    st.base = 16;
    break;
  case stream_manipulator::oct:
    st.base = 8;
    break;
  case stream_manipulator::noshowbase:
    st.showbase = false;
    break;
  case stream_manipulator::showbase:
    st.showbase = true;
    break;
  case stream_manipulator::noshowpos:
    st.showpos = false;
    break;
  case stream_manipulator::showpos:
    st.showpos = true;
    break;
  case stream_manipulator::fixed:
    st.float_mode = 1;
    break;
  case stream_manipulator::scientific:
    st.float_mode = 2;
    break;
  case stream_manipulator::hexfloat:
    st.float_mode = 3;
    break;
  case stream_manipulator::defaultfloat:
    st.float_mode = 0;
    break;
  }
  return os;
}
inline const stream& operator<<(const stream& os, const __precision_manipulator__& p) {
  os.state().precision = p.precision();
  return os;
}
inline const stream& operator<<(const stream& os, const __width_manipulator__& w) {
  os.state().width = w.width();
  return os;
}
template <typename T, int N>
const stream& operator<<(const stream& os, const vec<T, N>& v) {
  os.put("{", 1);
  for (int i = 0; i < N; ++i) {
    if (i) os.put(", ", 2);
    os << static_cast<T>(v[i]);
  }
  os.put("}", 1);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const id<D>& i) {
  detail::put_list<D>(os, i);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const range<D>& r) {
  detail::put_list<D>(os, r);
  return os;
}
template <int D, bool WithOffset>
const stream& operator<<(const stream& os, const item<D, WithOffset>& it) {
  detail::put_text(os, "item(range: ");
  os << it.get_range();
  detail::put_text(os, ", id: ");
  os << it.get_id();
  os.put(")", 1);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const nd_range<D>& r) {
  detail::put_text(os, "nd_range(global_range: ");
  os << r.get_global_range();
  detail::put_text(os, ", local_range: ");
  os << r.get_local_range();
  os.put(")", 1);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const nd_item<D>& it) {
  detail::put_text(os, "nd_item(global_id: ");
  os << it.get_global_id();
  detail::put_text(os, ", local_id: ");
  os << it.get_local_id();
  os.put(")", 1);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const group<D>& g) {
  detail::put_text(os, "group(id: ");
  os << g.get_group_id();
  detail::put_text(os, ", global_range: ");
  os << range<D>(g.get_group_range() * g.get_local_range());
  detail::put_text(os, ", local_range: ");
  os << g.get_local_range();
  detail::put_text(os, ", group_range: ");
  os << g.get_group_range();
  os.put(")", 1);
  return os;
}
template <int D>
const stream& operator<<(const stream& os, const h_item<D>& it) {
  detail::put_text(os, "h_item(global: ");
  os << it.get_global();
  detail::put_text(os, ", logical local: ");
  os << it.get_logical_local();
  detail::put_text(os, ", physical local: ");
  os << it.get_physical_local();
  os.put(")", 1);
  return os;
}

SYCLONE_END_NAMESPACE

// SYCL 2020 4.5.2 common reference semantics: copies of a stream hash alike.
template <>
struct std::hash<sycl::stream> {
  std::size_t operator()(const sycl::stream& s) const noexcept {
    return std::hash<std::uint64_t>()(s.identity());
  }
};
