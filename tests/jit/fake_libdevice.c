// A stand-in for CUDA's libdevice.10.bc (absent where the tests run): the same function names,
// and __nvvm_reflect queried through a called function as the real library does, with results
// the tests can find in the PTX: __nv_expf(x) = x * __CUDA_ARCH + (__CUDA_FTZ ? 1 : 2).
int nvvm_reflect(const char* name) __asm__("__nvvm_reflect");

float __nv_expf(float x) {
  return x * (float)nvvm_reflect("__CUDA_ARCH") + (nvvm_reflect("__CUDA_FTZ") ? 1.0f : 2.0f);
}
float __nv_sinf(float x) {
  return x * 3.0f;
}
float __nv_cosf(float x) {
  return x * 5.0f;
}
double __nv_pow(double x, double y) {
  return x * y + 7.0;
}
// Never called by the kernels: LinkOnlyNeeded must leave it out of the PTX.
float __nv_unused_marker(float x) {
  return x * 11.0f;
}
