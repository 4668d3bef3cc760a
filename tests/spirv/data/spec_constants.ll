target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

declare i32 @_Z20__spirv_SpecConstantii(i32, i32)
declare i64 @_Z20__spirv_SpecConstantil(i32, i64)
declare i1 @_Z20__spirv_SpecConstantib(i32, i1)
declare float @_Z20__spirv_SpecConstantif(i32, float)

define spir_kernel void @k(ptr addrspace(1) %out) {
entry:
  %a = call i32 @_Z20__spirv_SpecConstantii(i32 3, i32 42)
  %b = call i64 @_Z20__spirv_SpecConstantil(i32 5, i64 -7)
  %c = call i1 @_Z20__spirv_SpecConstantib(i32 6, i1 true)
  %f = call float @_Z20__spirv_SpecConstantif(i32 8, float 1.5)
  %a64 = zext i32 %a to i64
  %s = add i64 %a64, %b
  %sel = select i1 %c, i64 %s, i64 0
  store i64 %sel, ptr addrspace(1) %out
  %p2 = getelementptr float, ptr addrspace(1) %out, i64 4
  store float %f, ptr addrspace(1) %p2
  ret void
}
