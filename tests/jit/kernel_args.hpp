// What every kernel of kernels.cpp captures: one object, so that the kernel object's layout (the
// one kernel parameter) is known on the host, where jit_gpu_test builds it byte for byte.
#pragma once

struct kernel_args {
  const float* in;
  float* out;
  int runtime_trips;
  int x;
};

// The kernel object of single_task: the functor (capturing kernel_args) and a kernel_handler,
// which holds one pointer.
struct kernel_object {
  kernel_args args;
  const void* handler;
};
