// Host code only (compiled with -fsycl-targets=host): undefined_call.cpp's kernel cannot use it.
int host_helper(int x) {
  return x + 1;
}
