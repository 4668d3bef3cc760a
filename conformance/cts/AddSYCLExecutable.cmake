# syclone's adapter for the Khronos SYCL 2020 CTS (https://github.com/KhronosGroup/SYCL-CTS).
#
# The CTS knows DPCPP, AdaptiveCpp, SimSYCL and ProtoSYCL through cmake/AddSYCLExecutable.cmake,
# which it includes by name after appending its cmake/ folder to CMAKE_MODULE_PATH. scripts/cts.sh
# configures the CTS with -DCMAKE_MODULE_PATH=<this folder>, so this file is found first and takes
# the place of the CTS's own: the CTS checkout stays unmodified (and may be read-only).
#
# It provides what the CTS's version requires of an implementation: the SYCL::SYCL target, the
# add_sycl_to_target() and add_sycl_executable_implementation() functions, and add_sycl_executable()
# defining SYCL_CTS_COMPILING_WITH_SYCLONE.
#
# Settings (cache variables, set by scripts/cts.sh):
#   SYCLONE_ROOT      a syclone build tree or install prefix (holds bin/syclone++ and lib/libsyclone.so)
#   SYCLONE_TARGETS   the device targets of the test executables: host or nvptx64 (-fsycl-targets)
#   SYCLONE_CTS_CXX   the compiler launcher of SYCL sources (conformance/cts/syclone-cts-cxx, which
#                     runs syclone++ under ccache)

set(SYCL_IMPLEMENTATION "syclone" CACHE STRING "The SYCL implementation under test")
if(NOT SYCL_IMPLEMENTATION STREQUAL "syclone")
  message(FATAL_ERROR "conformance/cts adapts the CTS to syclone only; SYCL_IMPLEMENTATION is "
                      "'${SYCL_IMPLEMENTATION}'. Configure without conformance/cts in "
                      "CMAKE_MODULE_PATH to test another implementation.")
endif()
set(CANONICAL_SYCL_IMPLEMENTATION SYCLONE)

set(SYCLONE_ROOT "" CACHE PATH "syclone build tree or install prefix")
set(SYCLONE_TARGETS "host" CACHE STRING "syclone device targets of the CTS executables")
set(SYCLONE_CTS_CXX "${CMAKE_CURRENT_LIST_DIR}/syclone-cts-cxx" CACHE FILEPATH
    "compiler launcher for SYCL sources")
if(NOT EXISTS "${SYCLONE_ROOT}/bin/syclone++")
  message(FATAL_ERROR "SYCLONE_ROOT='${SYCLONE_ROOT}' holds no bin/syclone++; point it at a "
                      "syclone build tree (e.g. build) or install prefix")
endif()
if(EXISTS "${SYCLONE_ROOT}/include/sycl/sycl.hpp")
  set(syclone_include "${SYCLONE_ROOT}/include")
else()
  # A build tree: the headers are in the source tree next to this folder.
  get_filename_component(syclone_include "${CMAKE_CURRENT_LIST_DIR}/../../include" ABSOLUTE)
endif()

# No CMAKE_CXX_STANDARD: the CTS then builds as C++17, the oldest standard SYCL 2020 allows and
# the one syclone's headers must support.

# SYCL::SYCL: what sources without device code (the CTS's util library, main.cpp) need. A plain
# host compiler sees the headers with the host device only (include/sycl/detail/config.hpp).
add_library(SYCL::SYCL INTERFACE IMPORTED GLOBAL)
target_include_directories(SYCL::SYCL SYSTEM INTERFACE "${syclone_include}")
target_link_libraries(SYCL::SYCL INTERFACE "${SYCLONE_ROOT}/lib/libsyclone.so")
target_link_options(SYCL::SYCL INTERFACE "-Wl,-rpath,${SYCLONE_ROOT}/lib")

# SYCL sources and the links of executables with device code go through syclone++ (host object
# plus device bitcode; device link and image registration).
function(add_sycl_to_target)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET" "SOURCES")
  if(arg_SOURCES)
    target_sources(${arg_TARGET} PRIVATE ${arg_SOURCES})
  endif()
  set(launcher "${SYCLONE_CTS_CXX}" "${SYCLONE_ROOT}/bin/syclone++" "${SYCLONE_TARGETS}")
  set_property(TARGET ${arg_TARGET} PROPERTY CXX_COMPILER_LAUNCHER ${launcher})
  # tests/cuda_interop's .cu sources (CMakeDetermineCUDACompiler.cmake).
  set_property(TARGET ${arg_TARGET} PROPERTY CUDA_COMPILER_LAUNCHER ${launcher})
  get_target_property(type ${arg_TARGET} TYPE)
  if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    set_property(TARGET ${arg_TARGET} PROPERTY CXX_LINKER_LAUNCHER ${launcher})
  endif()
  target_link_libraries(${arg_TARGET} PUBLIC SYCL::SYCL)
endfunction()

# As the CTS's adapters for the other implementations do: one object library of the test
# sources, linked into the category's executable.
function(add_sycl_executable_implementation)
  cmake_parse_arguments(args "" "NAME;OBJECT_LIBRARY" "TESTS" ${ARGN})
  add_library(${args_OBJECT_LIBRARY} OBJECT ${args_TESTS})
  add_executable(${args_NAME} $<TARGET_OBJECTS:${args_OBJECT_LIBRARY}>)
  add_sycl_to_target(TARGET ${args_OBJECT_LIBRARY} SOURCES ${args_TESTS})
  add_sycl_to_target(TARGET ${args_NAME})
  if(SYCL_CTS_ENABLE_CUDA_INTEROP_TESTS)
    # With SYCL_BACKEND_CUDA (programs built for nvptx64) the CUDA interop tests include cuda.h
    # (cuda_interop, and host_task's CUDA case); the CTS links libcuda into its util library but
    # leaves the header to the implementation. cuda-api/ first: CUDA 13's cuda.h with the CUDA 12
    # cuCtxCreate the CTS calls.
    target_include_directories(${args_NAME} PRIVATE "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cuda-api"
                                                    "${CUDA_TOOLKIT_INCLUDE}")
    # Only the executables that call the driver need libcuda.so.1 (the CTS's util library links
    # it into all): the others still start on a machine without a driver, on the host device.
    target_link_options(${args_NAME} PRIVATE "-Wl,--as-needed")
  endif()
  set_target_properties(${args_OBJECT_LIBRARY} PROPERTIES
    INCLUDE_DIRECTORIES $<TARGET_PROPERTY:${args_NAME},INCLUDE_DIRECTORIES>
    COMPILE_DEFINITIONS $<TARGET_PROPERTY:${args_NAME},COMPILE_DEFINITIONS>
    COMPILE_OPTIONS     $<TARGET_PROPERTY:${args_NAME},COMPILE_OPTIONS>
    COMPILE_FEATURES    $<TARGET_PROPERTY:${args_NAME},COMPILE_FEATURES>
    POSITION_INDEPENDENT_CODE ON)
endfunction()

# The part of the CTS's cmake/AddSYCLExecutable.cmake every implementation shares.
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(SYCL_IMPLEMENTATION_DETECTION_MACRO "SYCL_CTS_COMPILING_WITH_${CANONICAL_SYCL_IMPLEMENTATION}")
target_compile_definitions(SYCL::SYCL INTERFACE "${SYCL_IMPLEMENTATION_DETECTION_MACRO}")
# tests/common/disabled_for_test_case.h stops with "#error Unknown SYCL implementation" unless
# one of the four implementations it knows is defined. Of those, ProtoSYCL is named by no test
# (no DISABLED_FOR_TEST_CASE list, no #if): defining its macro as well changes no test, it only
# lets the header compile. Checked here, so a newer CTS that starts naming ProtoSYCL is noticed.
file(GLOB_RECURSE cts_sources "${PROJECT_SOURCE_DIR}/tests/*.h" "${PROJECT_SOURCE_DIR}/tests/*.cpp"
     "${PROJECT_SOURCE_DIR}/tests/*.in" "${PROJECT_SOURCE_DIR}/util/*.h" "${PROJECT_SOURCE_DIR}/util/*.cpp")
foreach(f IN LISTS cts_sources)
  if(f MATCHES "disabled_for_test_case\\.h$")
    continue()
  endif()
  file(STRINGS "${f}" hits REGEX "COMPILING_WITH_PROTOSYCL|\\(ProtoSYCL|, *ProtoSYCL")
  if(hits)
    message(FATAL_ERROR "${f} names ProtoSYCL: conformance/cts can no longer borrow "
                        "SYCL_CTS_COMPILING_WITH_PROTOSYCL for tests/common/disabled_for_test_case.h")
  endif()
endforeach()
target_compile_definitions(SYCL::SYCL INTERFACE SYCL_CTS_COMPILING_WITH_PROTOSYCL)
target_link_libraries(SYCL::SYCL INTERFACE CTS::OpenCL_Proxy)

function(add_sycl_executable)
  cmake_parse_arguments(args "" "NAME;OBJECT_LIBRARY" "TESTS" ${ARGN})
  add_sycl_executable_implementation(
    NAME           "${args_NAME}"
    OBJECT_LIBRARY "${args_OBJECT_LIBRARY}"
    TESTS          "${args_TESTS}")
  target_compile_definitions(${args_NAME} PUBLIC "-D${SYCL_IMPLEMENTATION_DETECTION_MACRO}")
endfunction()
