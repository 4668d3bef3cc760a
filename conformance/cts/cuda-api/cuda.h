/* The CTS's view of cuda.h (conformance/README.md, "cuda_interop"): CUDA's own, plus the CUDA 12 form of
 * cuCtxCreate that the pinned CTS calls.
 *
 * tests/cuda_interop/cuda_interop_constructors.cpp creates contexts with
 * cuCtxCreate(&ctx, flags, device), the driver API up to CUDA 12. CUDA 13's cuda.h maps
 * cuCtxCreate to cuCtxCreate_v4(&ctx, params, flags, device); with no params that call does
 * what the CUDA 12 one did (a context of `device` with `flags`, made current). This overload,
 * declared after CUDA's own header, lets the CTS compile unmodified against CUDA 13 headers and
 * changes nothing where cuCtxCreate still takes three arguments. Only the CTS build sees this
 * folder (AddSYCLExecutable.cmake). */
#pragma once
#include_next <cuda.h>

#if defined(__cplusplus) && defined(CUDA_VERSION) && CUDA_VERSION >= 13000
inline CUresult cuCtxCreate_v4(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return cuCtxCreate_v4(pctx, static_cast<CUctxCreateParams*>(nullptr), flags, dev);
}
#endif
