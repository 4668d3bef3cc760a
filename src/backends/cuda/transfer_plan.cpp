#include "transfer_plan.hpp"

#include <algorithm>
#include <utility>

namespace syclone::cuda {

namespace {

// Patterns set unit by unit with at most this many strided memsets per row; longer ones are
// written once and replicated.
constexpr std::size_t max_unit_passes = 32;
// Rows (or slices) filled one by one up to this many operations; beyond, by doubling copies.
constexpr std::size_t max_direct_ops = 64;

bool aligned(const void* p, std::size_t a) {
  return reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

// Drops single-element dimensions and merges packed ones, so that a contiguous region is one
// row and a region of contiguous rows is a 2-D one.
byte_layout normalize(std::byte* first, std::size_t width, std::size_t height, std::size_t pitch,
                      std::size_t depth, std::size_t slice_pitch) {
  byte_layout l;
  l.first = first;
  if (width == 0 || height == 0 || depth == 0) {
    l.width = 0;
    return l;
  }
  struct level {
    std::size_t count, stride;
  };
  level levels[2];
  int n = 0;
  if (height > 1) levels[n++] = {height, pitch};
  if (depth > 1) levels[n++] = {depth, slice_pitch};
  for (;;) {
    if (n > 0 && levels[0].stride == width) {
      width *= levels[0].count;
      levels[0] = levels[1];
      --n;
      continue;
    }
    if (n == 2 && levels[1].stride == levels[0].count * levels[0].stride) {
      levels[0].count *= levels[1].count;
      n = 1;
      continue;
    }
    break;
  }
  l.width = width;
  l.height = n > 0 ? levels[0].count : 1;
  l.pitch = n > 0 ? levels[0].stride : width;
  l.depth = n > 1 ? levels[1].count : 1;
  l.rows = n > 1 ? levels[1].stride / levels[0].stride : l.height;
  return l;
}

// The region's dimensions as slices (0), rows (1) and columns (2), in elements.
struct dims3 {
  std::size_t mem[3] = {1, 1, 1}, off[3] = {0, 0, 0}, range[3] = {1, 1, 1};
};
dims3 dims_of(const sycl::detail::mem_region& r) {
  dims3 d;
  for (int i = 0; i < r.dimensions; ++i) {
    int k = 3 - r.dimensions + i;
    d.mem[k] = r.mem[i];
    d.off[k] = r.offset[i];
    d.range[k] = r.range[i];
  }
  return d;
}

copy_op box_copy(const byte_layout& s, const byte_layout& d) {
  copy_op op;
  op.src = s.first;
  op.src_pitch = s.pitch;
  op.src_height = s.rows;
  op.dst = d.first;
  op.dst_pitch = d.pitch;
  op.dst_height = d.rows;
  op.width = s.width;
  op.height = s.height;
  op.depth = s.depth;
  return op;
}

copy_op linear_copy(const std::byte* src, std::byte* dst, std::size_t bytes) {
  copy_op op;
  op.src = src;
  op.dst = dst;
  op.src_pitch = op.dst_pitch = op.width = bytes;
  op.src_height = op.dst_height = 1;
  return op;
}

// Calls fn(first byte, bytes) for each row of a layout in row-major order.
template <typename Fn>
void for_each_row(const byte_layout& l, Fn fn) {
  for (std::size_t z = 0; z < l.depth; ++z)
    for (std::size_t y = 0; y < l.height; ++y) fn(l.first + (z * l.rows + y) * l.pitch, l.width);
}

// Replaces operations whose pitch the driver refuses by one operation per row.
std::vector<transfer_op> split_large_pitches(std::vector<transfer_op> ops, std::size_t max_pitch) {
  bool any = std::any_of(ops.begin(), ops.end(), [&](const transfer_op& op) {
    if (auto* c = std::get_if<copy_op>(&op))
      return (c->height > 1 || c->depth > 1) && std::max(c->src_pitch, c->dst_pitch) > max_pitch;
    if (auto* m = std::get_if<memset_op>(&op)) return m->height > 1 && m->pitch > max_pitch;
    return false;
  });
  if (!any) return ops;
  std::vector<transfer_op> out;
  for (auto& op : ops) {
    if (auto* c = std::get_if<copy_op>(&op);
        c && (c->height > 1 || c->depth > 1) && std::max(c->src_pitch, c->dst_pitch) > max_pitch) {
      for (std::size_t z = 0; z < c->depth; ++z)
        for (std::size_t y = 0; y < c->height; ++y)
          out.emplace_back(linear_copy(c->src + (z * c->src_height + y) * c->src_pitch,
                                       c->dst + (z * c->dst_height + y) * c->dst_pitch, c->width));
    } else if (auto* m = std::get_if<memset_op>(&op); m && m->height > 1 && m->pitch > max_pitch) {
      for (std::size_t y = 0; y < m->height; ++y) {
        memset_op row = *m;
        row.dst = m->dst + y * m->pitch;
        row.height = 1;
        out.emplace_back(row);
      }
    } else {
      out.push_back(op);
    }
  }
  return out;
}

// Copies rows [0, count) of the region at `first` to rows [count, ...) by doubling, until
// `total` rows hold what row 0..count-1 held: log2(total) copies.
void replicate_rows(std::vector<transfer_op>& ops, std::byte* first, std::size_t width,
                    std::size_t pitch, std::size_t total) {
  for (std::size_t done = 1; done < total;) {
    std::size_t n = std::min(done, total - done);
    copy_op op;
    op.src = first;
    op.dst = first + done * pitch;
    op.src_pitch = op.dst_pitch = pitch;
    op.src_height = op.dst_height = n;
    op.width = width;
    op.height = n;
    ops.emplace_back(op);
    done += n;
  }
}

// The same for slices of `height` rows, `rows` rows apart.
void replicate_slices(std::vector<transfer_op>& ops, const byte_layout& l) {
  for (std::size_t done = 1; done < l.depth;) {
    std::size_t n = std::min(done, l.depth - done);
    copy_op op;
    op.src = l.first;
    op.dst = l.first + done * l.rows * l.pitch;
    op.src_pitch = op.dst_pitch = l.pitch;
    op.src_height = op.dst_height = l.rows;
    op.width = l.width;
    op.height = l.height;
    op.depth = n;
    ops.emplace_back(op);
    done += n;
  }
}

std::uint32_t unit_value(const unsigned char* bytes, unsigned unit) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < unit; ++i) v |= std::uint32_t(bytes[i]) << (8 * i);
  return v;
}

// Whether the pattern repeats its first `unit` bytes.
bool periodic(const unsigned char* p, std::size_t size, unsigned unit) {
  if (size % unit) return false;
  for (std::size_t i = unit; i < size; ++i)
    if (p[i] != p[i % unit]) return false;
  return true;
}

bool layout_aligned(const byte_layout& l, std::size_t a) {
  return aligned(l.first, a) && (l.height == 1 || l.pitch % a == 0) &&
         (l.depth == 1 || (l.rows * l.pitch) % a == 0);
}

} // namespace

byte_layout layout_of(const sycl::detail::mem_region& r) {
  dims3 d = dims_of(r);
  const std::size_t e = r.element_size;
  std::size_t first = ((d.off[0] * d.mem[1] + d.off[1]) * d.mem[2] + d.off[2]) * e;
  return normalize(static_cast<std::byte*>(r.ptr) + first, d.range[2] * e, d.range[1], d.mem[2] * e,
                   d.range[0], d.mem[1] * d.mem[2] * e);
}

std::vector<transfer_op> plan_copy(const sycl::detail::mem_region& src,
                                   const sycl::detail::mem_region& dst, std::size_t max_pitch) {
  byte_layout s = layout_of(src), d = layout_of(dst);
  std::vector<transfer_op> ops;
  if (s.bytes() == 0 || d.bytes() == 0) return ops;
  if (s.bytes() == d.bytes()) {
    auto same_shape = [](const byte_layout& a, const byte_layout& b) {
      return a.width == b.width && a.height == b.height && a.depth == b.depth;
    };
    // A contiguous side takes the other side's shape, packed.
    auto reshape = [](byte_layout packed, const byte_layout& shape) {
      packed.width = shape.width;
      packed.height = shape.height;
      packed.depth = shape.depth;
      packed.pitch = shape.width;
      packed.rows = shape.height;
      return packed;
    };
    if (same_shape(s, d))
      ops.emplace_back(box_copy(s, d));
    else if (s.contiguous())
      ops.emplace_back(box_copy(reshape(s, d), d));
    else if (d.contiguous())
      ops.emplace_back(box_copy(s, reshape(d, s)));
  }
  if (ops.empty()) {
    // Different shapes on both sides: stream source rows into destination rows.
    std::vector<std::pair<std::byte*, std::size_t>> dst_rows;
    for_each_row(d, [&](std::byte* p, std::size_t n) { dst_rows.emplace_back(p, n); });
    std::size_t di = 0, dpos = 0;
    for_each_row(s, [&](std::byte* p, std::size_t n) {
      for (std::size_t done = 0; done < n && di < dst_rows.size();) {
        std::size_t take = std::min(n - done, dst_rows[di].second - dpos);
        ops.emplace_back(linear_copy(p + done, dst_rows[di].first + dpos, take));
        done += take;
        dpos += take;
        if (dpos == dst_rows[di].second) {
          ++di;
          dpos = 0;
        }
      }
    });
  }
  return split_large_pitches(std::move(ops), max_pitch);
}

std::vector<transfer_op> plan_fill(const sycl::detail::mem_region& dst, const void* pattern_data,
                                   std::size_t p, std::size_t max_pitch) {
  std::vector<transfer_op> ops;
  if (p == 0) return ops;
  const auto* pattern = static_cast<const unsigned char*>(pattern_data);
  // Each row takes whole copies of the pattern (a tail shorter than it stays as it is).
  dims3 dd = dims_of(dst);
  const std::size_t e = dst.element_size;
  std::size_t row_bytes = dd.range[2] * e / p * p;
  std::size_t first = ((dd.off[0] * dd.mem[1] + dd.off[1]) * dd.mem[2] + dd.off[2]) * e;
  byte_layout l = normalize(static_cast<std::byte*>(dst.ptr) + first, row_bytes, dd.range[1],
                            dd.mem[2] * e, dd.range[0], dd.mem[1] * dd.mem[2] * e);
  if (l.bytes() == 0) return ops;
  const std::size_t slice_pitch = l.rows * l.pitch;

  // A pattern of one repeated unit (zeros, bytes, 16- or 32-bit values): memsets.
  for (unsigned unit : {1u, 2u, 4u}) {
    if (!periodic(pattern, p, unit) || !layout_aligned(l, unit)) continue;
    memset_op op;
    op.pitch = l.pitch;
    op.unit = unit;
    op.value = unit_value(pattern, unit);
    op.width = l.width / unit;
    op.height = l.height;
    if (l.depth <= max_direct_ops) {
      for (std::size_t z = 0; z < l.depth; ++z) {
        op.dst = l.first + z * slice_pitch;
        ops.emplace_back(op);
      }
    } else {
      op.dst = l.first;
      ops.emplace_back(op);
      replicate_slices(ops, l);
    }
    return split_large_pitches(std::move(ops), max_pitch);
  }

  // Otherwise the pattern is set unit by unit: memsets with the pattern's size as pitch write
  // every element's k-th unit, one pass per unit.
  unsigned unit = 1;
  for (unsigned u : {4u, 2u})
    if (p % u == 0 && layout_aligned(l, u)) {
      unit = u;
      break;
    }
  const std::size_t passes = p / unit;
  const std::size_t count = l.width / p; // elements per row
  auto fill_row = [&](std::byte* row) {
    for (std::size_t k = 0; k < passes; ++k) {
      memset_op op;
      op.dst = row + k * unit;
      op.pitch = p;
      op.unit = unit;
      op.value = unit_value(pattern + k * unit, unit);
      op.width = 1;
      op.height = count;
      ops.emplace_back(op);
    }
  };
  const std::size_t rows = l.height * l.depth;
  if (passes <= max_unit_passes && rows * passes <= max_direct_ops) {
    for (std::size_t z = 0; z < l.depth; ++z)
      for (std::size_t y = 0; y < l.height; ++y) fill_row(l.first + (z * l.rows + y) * l.pitch);
    return split_large_pitches(std::move(ops), max_pitch);
  }
  // Row 0 first, then rows and slices by doubling copies of what is already filled.
  if (passes <= max_unit_passes) {
    fill_row(l.first);
  } else {
    ops.emplace_back(pattern_op{l.first});
    for (std::size_t done = 1; done < count;) {
      std::size_t n = std::min(done, count - done);
      ops.emplace_back(linear_copy(l.first, l.first + done * p, n * p));
      done += n;
    }
  }
  replicate_rows(ops, l.first, l.width, l.pitch, l.height);
  replicate_slices(ops, l);
  return split_large_pitches(std::move(ops), max_pitch);
}

} // namespace syclone::cuda
