# conformance/cts/CMakeDetermineCUDACompiler.cmake: the CUDA compiler is the CTS's C++ compiler,
# which CMake checked already; what compiles the .cu sources is syclone++ (the launcher).
set(CMAKE_CUDA_COMPILER_WORKS 1)
