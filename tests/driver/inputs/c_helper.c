/* A C source in a SYCL program: compiled for the host only. */
int c_helper(void) {
  return 3;
}
