/* A C source in a SYCL program: syclone++ reads it as C++, as clang++ and icpx -fsycl do. */
int c_helper(void) {
  return 3;
}
