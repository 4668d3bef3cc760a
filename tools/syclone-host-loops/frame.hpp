// The names and layout the loop compiler shares with the SYCL headers and the host runtime
// (include/sycl/detail/device/host_loops.hpp, whose static_asserts pin the same offsets).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>

#include <cstdint>

namespace syclone::host_loops {

// The call in run_group that the pass replaces.
inline constexpr llvm::StringLiteral work_group_marker = "__syclone_host_work_group_loops";
// What the compiled loops call in the runtime.
inline constexpr llvm::StringLiteral storage_function = "__syclone_host_loop_storage";
inline constexpr llvm::StringLiteral divergence_function = "__syclone_host_divergent_barrier";

// Device builtins reached from kernel code.
inline constexpr llvm::StringLiteral barrier_function = "__syclone_host_barrier";
inline constexpr llvm::StringLiteral local_memory_function = "__syclone_host_local_memory";
inline constexpr llvm::StringLiteral scratch_function = "__syclone_host_work_group_scratch";
inline constexpr llvm::StringLiteral sub_group_size_function = "__syclone_host_sub_group_size";
// The lane loop's trip count in loops that run a sub-group as one vector, else 0.
inline constexpr llvm::StringLiteral vector_lanes_function = "__syclone_host_vector_lanes";
inline constexpr llvm::StringLiteral sub_group_prefix = "__syclone_host_sub_group_";
// The calling work-item's sub-group index and lane (from its local linear id).
inline constexpr llvm::StringLiteral sub_group_index_function = "__syclone_host_sub_group_index";
inline constexpr llvm::StringLiteral sub_group_lane_function = "__syclone_host_sub_group_lane";

// The calling work-item's kernel object, group id and local id (sycl_khr_work_item_queries): the
// arguments of the work-item body, where code that calls them is inlined into it.
inline constexpr llvm::StringLiteral work_item_object_function = "__syclone_host_work_item_object";
inline constexpr llvm::StringLiteral work_item_group_function = "__syclone_host_work_item_group";
inline constexpr llvm::StringLiteral work_item_local_function = "__syclone_host_work_item_local";
inline bool work_item_builtin(const llvm::Function& f) {
  llvm::StringRef name = f.getName();
  return name == work_item_object_function || name == work_item_group_function ||
         name == work_item_local_function;
}

// group_frame's fields (byte offsets).
namespace frame_offset {
inline constexpr std::uint64_t object = 0;
inline constexpr std::uint64_t group = 8;
inline constexpr std::uint64_t loop_range = 32;
inline constexpr std::uint64_t local_memory = 56;
inline constexpr std::uint64_t scratch = 64;
inline constexpr std::uint64_t sub_group = 72;
inline constexpr std::uint64_t exchange = 104;
inline constexpr std::uint64_t exchange_set = 112;
inline constexpr std::uint64_t size = 120; // sizeof(group_frame)
} // namespace frame_offset

// What the pass itself inserts before it cuts the body into regions, lowered in the loops: the
// sub-group exchange area, the bytes of one of its two sets, and the number of regions run so
// far in the work-group (whose parity picks the set).
inline constexpr llvm::StringLiteral exchange_area_function = "__syclone_host_loop_exchange";
inline constexpr llvm::StringLiteral exchange_set_function = "__syclone_host_loop_exchange_set";
inline constexpr llvm::StringLiteral epoch_function = "__syclone_host_loop_epoch";
// The exchange area's set of the region `offset` regions after the calling one (0: the set an
// exchange writes, 1: the set the region after its barrier reads).
inline constexpr llvm::StringLiteral exchange_slots_function = "__syclone_host_loop_exchange_slots";
inline constexpr llvm::StringLiteral sub_group_barrier_function =
    "__syclone_host_sub_group_barrier";
inline constexpr llvm::StringLiteral sub_group_exchange_function =
    "__syclone_host_sub_group_exchange";
// sycl_ext_oneapi_non_uniform_groups: an exchange and a barrier of some lanes of a sub-group, and
// the lanes that reach a call together. The loops, which run only where the whole work-group
// reaches such a call, lower them as the sub-group's exchange and barrier (each lane then reads
// its own group's slots) and as the sub-group's lanes.
inline constexpr llvm::StringLiteral masked_exchange_function =
    "__syclone_host_sub_group_masked_exchange";
inline constexpr llvm::StringLiteral masked_barrier_function =
    "__syclone_host_sub_group_masked_barrier";
inline constexpr llvm::StringLiteral converged_function = "__syclone_host_sub_group_converged";
inline bool non_uniform_group_builtin(const llvm::Function& f) {
  llvm::StringRef name = f.getName();
  return name == masked_exchange_function || name == masked_barrier_function ||
         name == converged_function;
}

// The alias scope domain of the loops' own memory (per-work-item slots, the exchange area).
inline constexpr llvm::StringLiteral own_memory_domain = "syclone.work_group_loops";

// Builtins whose result is the same for the whole work-group.
inline bool uniform_builtin(const llvm::Function& f) {
  llvm::StringRef name = f.getName();
  return name == local_memory_function || name == scratch_function ||
         name == sub_group_size_function || name == vector_lanes_function ||
         name == exchange_area_function || name == exchange_set_function ||
         name == epoch_function || name == exchange_slots_function;
}

// Builtins that compute a work-item's place in its sub-group (no waiting, no memory).
inline bool sub_group_place_builtin(const llvm::Function& f) {
  return f.getName() == sub_group_index_function || f.getName() == sub_group_lane_function;
}

// Builtins that make work-items of a sub-group wait for each other.
inline bool sub_group_builtin(const llvm::Function& f) {
  return f.getName().starts_with(sub_group_prefix) && f.getName() != sub_group_size_function &&
         !sub_group_place_builtin(f);
}

} // namespace syclone::host_loops
