# CMake's CUDA language for the CTS's tests/cuda_interop/*.cu (conformance/README.md, "cuda_interop").
#
# With SYCL_CTS_ENABLE_CUDA_INTEROP_TESTS the CTS runs enable_language(CUDA) with the SYCL
# compiler as the CUDA compiler, and adds the .cu sources to the cuda_interop executable: they
# are SYCL sources whose functions carry CUDA's __device__ qualifier. syclone++ compiles a .cu as
# SYCL C++ with those qualifiers defined (include/sycl/detail/cuda_source.hpp), through the same
# launcher as the .cpp sources (AddSYCLExecutable.cmake sets CUDA_COMPILER_LAUNCHER too). CMake's
# own CUDA support would first identify the compiler by building a CUDA program for a GPU
# architecture with it, which needs a CUDA-language toolchain the test build does not use (and
# which clang 22 cannot pair with CUDA 13's ptxas for its default sm_52). These four files, found
# first on CMAKE_MODULE_PATH, define the language as "compiled by syclone++" instead: this file
# records the compiler, CMakeCUDAInformation.cmake gives the compile rule, and
# CMakeTestCUDACompiler.cmake checks that the compiler runs.
if(NOT CMAKE_CUDA_COMPILER)
  set(CMAKE_CUDA_COMPILER "${CMAKE_CXX_COMPILER}")
endif()
set(CMAKE_CUDA_COMPILER_ID "Clang")
set(CMAKE_CUDA_COMPILER_VERSION "${CMAKE_CXX_COMPILER_VERSION}")
# No --cuda-gpu-arch flags: syclone++ compiles device code for its own targets.
set(CMAKE_CUDA_ARCHITECTURES OFF CACHE STRING "unused: syclone++ chooses its device targets")
set(CMAKE_CUDA_COMPILER_ENV_VAR "CUDACXX")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeCUDACompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeCUDACompiler.cmake" @ONLY)
