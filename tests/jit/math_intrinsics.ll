; Math intrinsics the NVPTX backend cannot select, in the forms clang and LLVM's optimizer produce
; them: the JIT computes them with libdevice (jit_test MathIntrinsicLowering).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @math(ptr addrspace(1) %out, float %x, double %y, half %h, <2 x float> %v,
                             i32 %n, i64 %m) {
  %exp = call float @llvm.exp.f32(float %x)
  %fast_exp = call afn float @llvm.exp.f32(float %x)
  %exp2 = call float @llvm.exp2.f32(float %x)
  %exp2d = call double @llvm.exp2.f64(double %y)
  %sin_afn = call afn float @llvm.sin.f32(float %x)
  %cos = call double @llvm.cos.f64(double %y)
  %pow = call float @llvm.pow.f32(float %x, float %x)
  %powi = call float @llvm.powi.f32.i32(float %x, i32 %n)
  %powi64 = call double @llvm.powi.f64.i64(double %y, i64 %m)
  %log_h = call half @llvm.log.f16(half %h)
  %exp_v = call <2 x float> @llvm.exp.v2f32(<2 x float> %v)
  %sincos = call { float, float } @llvm.sincos.f32(float %x)
  %modf = call { double, double } @llvm.modf.f64(double %y)
  %lrint = call i64 @llvm.lrint.i64.f32(float %x)
  %lround = call i32 @llvm.lround.i32.f64(double %y)
  %atan2 = call double @llvm.atan2.f64(double %y, double %y)

  %sin = extractvalue { float, float } %sincos, 0
  %cos2 = extractvalue { float, float } %sincos, 1
  %fraction = extractvalue { double, double } %modf, 0
  %integral = extractvalue { double, double } %modf, 1
  %v0 = extractelement <2 x float> %exp_v, i32 0
  %v1 = extractelement <2 x float> %exp_v, i32 1
  %hf = fpext half %log_h to float
  %lr = sitofp i64 %lrint to float
  %lo = sitofp i32 %lround to double

  %f1 = fadd float %exp, %fast_exp
  %f2 = fadd float %f1, %exp2
  %f3 = fadd float %f2, %sin_afn
  %f4 = fadd float %f3, %pow
  %f5 = fadd float %f4, %powi
  %f6 = fadd float %f5, %hf
  %f7 = fadd float %f6, %v0
  %f8 = fadd float %f7, %v1
  %f9 = fadd float %f8, %sin
  %f10 = fadd float %f9, %cos2
  %f11 = fadd float %f10, %lr
  %d1 = fadd double %exp2d, %cos
  %d2 = fadd double %d1, %powi64
  %d3 = fadd double %d2, %fraction
  %d4 = fadd double %d3, %integral
  %d5 = fadd double %d4, %lo
  %d6 = fadd double %d5, %atan2
  %df = fptrunc double %d6 to float
  %r = fadd float %f11, %df
  store float %r, ptr addrspace(1) %out
  ret void
}

declare float @llvm.exp.f32(float)
declare float @llvm.exp2.f32(float)
declare double @llvm.exp2.f64(double)
declare float @llvm.sin.f32(float)
declare double @llvm.cos.f64(double)
declare float @llvm.pow.f32(float, float)
declare float @llvm.powi.f32.i32(float, i32)
declare double @llvm.powi.f64.i64(double, i64)
declare half @llvm.log.f16(half)
declare <2 x float> @llvm.exp.v2f32(<2 x float>)
declare { float, float } @llvm.sincos.f32(float)
declare { double, double } @llvm.modf.f64(double)
declare i64 @llvm.lrint.i64.f32(float)
declare i32 @llvm.lround.i32.f64(double)
declare double @llvm.atan2.f64(double, double)
