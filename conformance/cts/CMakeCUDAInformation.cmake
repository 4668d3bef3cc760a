# The compile rule of the CUDA language as conformance/cts/CMakeDetermineCUDACompiler.cmake
# defines it: CMAKE_CUDA_COMPILER (replaced by syclone++ through CUDA_COMPILER_LAUNCHER) with
# -x cuda, which syclone++ reads as SYCL C++ with CUDA's function qualifiers.
set(CMAKE_CUDA_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_CUDA "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_CUDA "-isystem ")
set(CMAKE_CUDA_DEPFILE_FORMAT gcc)
set(CMAKE_DEPFILE_FLAGS_CUDA "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
set(CMAKE_CUDA_COMPILE_OPTIONS_PIC "-fPIC")
set(_CMAKE_CUDA_WHOLE_FLAG "-c")
set(CMAKE_CUDA_FLAGS_INIT "${CMAKE_CXX_FLAGS}")
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS_INIT}" CACHE STRING "flags of .cu compiles")
set(CMAKE_CUDA_COMPILE_OBJECT
    "<CMAKE_CUDA_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -x cuda -c <SOURCE> -o <OBJECT>")
set(CMAKE_CUDA_INFORMATION_LOADED 1)
