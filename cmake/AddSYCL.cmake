# add_sycl_to_target(TARGET <target> [SOURCES <source>...] [TARGETS <device target>...])
#
# Compiles the target's C++ sources with syclone++ (host object + embedded device code) and, for
# executables and shared libraries, links it with syclone++ (device link + image registration +
# libsyclone). TARGETS picks the device targets as -fsycl-targets does: nvptx64 (default), host.
# A static library built this way carries its device code to whatever links it; that executable
# or shared library needs add_sycl_to_target too.
#
# syclone++ takes over through the target's CXX_COMPILER_LAUNCHER and CXX_LINKER_LAUNCHER
# ("syclone++ --launcher <compiler> <args>" drops the compiler), which the Ninja and Makefile
# generators honor.
#
# Expects SYCLONE_CXX (the driver), SYCLONE_RUNTIME_TARGET (the runtime library target) and
# SYCLONE_DRIVER_DEPENDENCY (a target to build first, or empty), set by sycloneConfig.cmake or by
# the syclone build itself.
function(add_sycl_to_target)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET" "SOURCES;TARGETS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_sycl_to_target: unexpected arguments ${arg_UNPARSED_ARGUMENTS}; "
                        "usage: add_sycl_to_target(TARGET <target> [SOURCES ...] [TARGETS ...])")
  endif()
  if(NOT arg_TARGET OR NOT TARGET ${arg_TARGET})
    message(FATAL_ERROR "add_sycl_to_target: TARGET '${arg_TARGET}' is not a target; create it "
                        "with add_executable or add_library first")
  endif()
  if(NOT CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    message(FATAL_ERROR "add_sycl_to_target: the ${CMAKE_GENERATOR} generator ignores compiler "
                        "launchers; use Ninja or a Makefile generator")
  endif()

  set(launcher "${SYCLONE_CXX}" --launcher)
  if(arg_TARGETS)
    list(JOIN arg_TARGETS "," targets)
    list(APPEND launcher "-fsycl-targets=${targets}")
  endif()

  if(arg_SOURCES)
    target_sources(${arg_TARGET} PRIVATE ${arg_SOURCES})
  endif()
  set_property(TARGET ${arg_TARGET} PROPERTY CXX_COMPILER_LAUNCHER ${launcher})
  get_target_property(type ${arg_TARGET} TYPE)
  if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    set_property(TARGET ${arg_TARGET} PROPERTY LINKER_LANGUAGE CXX)
    set_property(TARGET ${arg_TARGET} PROPERTY CXX_LINKER_LAUNCHER ${launcher})
  endif()
  # The headers for tools that read compile_commands.json; syclone++ adds them itself, and links
  # libsyclone itself.
  target_link_libraries(${arg_TARGET} PRIVATE ${SYCLONE_RUNTIME_TARGET})
  if(SYCLONE_DRIVER_DEPENDENCY)
    add_dependencies(${arg_TARGET} ${SYCLONE_DRIVER_DEPENDENCY})
  endif()
endfunction()
