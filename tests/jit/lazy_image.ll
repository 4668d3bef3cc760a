; An image as syclone++ can leave it: two kernels, each calling its own functor, the clang
; plugin's sub-group-size annotations naming both functors, and code no kernel reaches that
; calls what no device code defines. The JIT loads only what the kernel it compiles reaches
; (jit_test LazyImageLoadsOnlyWhatTheKernelReaches).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr addrspace(1) constant [23 x i8] c"syclone.sub_group_size\00"
@.size = private unnamed_addr addrspace(1) constant [3 x i8] c"32\00"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @first_functor, ptr addrspacecast (ptr addrspace(1) @.str to ptr), ptr addrspacecast (ptr addrspace(1) @.size to ptr), i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @second_functor, ptr addrspacecast (ptr addrspace(1) @.str to ptr), ptr addrspacecast (ptr addrspace(1) @.size to ptr), i32 1, ptr null }
], section "llvm.metadata"

define ptx_kernel void @first(ptr addrspace(1) %out) {
  call void @first_functor(ptr addrspace(1) %out)
  ret void
}

define ptx_kernel void @second(ptr addrspace(1) %out) {
  call void @second_functor(ptr addrspace(1) %out)
  ret void
}

define linkonce_odr void @first_functor(ptr addrspace(1) %out) {
  store i32 11, ptr addrspace(1) %out
  ret void
}

define linkonce_odr void @second_functor(ptr addrspace(1) %out) {
  store i32 22, ptr addrspace(1) %out
  ret void
}

; Host-only code the device compile emitted: no kernel reaches it.
declare ptr @_Znwm(i64)
define void @host_only() {
  %p = call ptr @_Znwm(i64 8)
  ret void
}
