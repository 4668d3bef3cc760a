# libFuzzer target over the SPIR-V library (tests/spirv/fuzz_reader_validator.cpp), built from the
# library's own sources with the fuzzer and sanitizers, so a bug anywhere in reading, validating,
# disassembling, assembling, specializing or writing surfaces as a crash with its input.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(SYCLONE_FUZZ_DEFAULT ON)
else()
  set(SYCLONE_FUZZ_DEFAULT OFF)
endif()
option(SYCLONE_FUZZ "Build the SPIR-V libFuzzer target and its ctest spirv.fuzz (needs clang)"
       ${SYCLONE_FUZZ_DEFAULT})
if(NOT SYCLONE_FUZZ)
  return()
endif()

# The library's sources as its target lists them (generated grammar tables included), compiled
# again with the sanitizers rather than linked from the uninstrumented archive.
get_target_property(SYCLONE_FUZZ_LIB_SOURCES syclone_spirv SOURCES)
get_target_property(SYCLONE_FUZZ_LIB_DIR syclone_spirv SOURCE_DIR)
get_target_property(SYCLONE_FUZZ_LIB_INCLUDES syclone_spirv INCLUDE_DIRECTORIES)
set(SYCLONE_FUZZ_SOURCES)
foreach(src IN LISTS SYCLONE_FUZZ_LIB_SOURCES)
  if(src MATCHES "\\.cpp$")
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${SYCLONE_FUZZ_LIB_DIR}/${src}")
    endif()
    list(APPEND SYCLONE_FUZZ_SOURCES "${src}")
  endif()
endforeach()

set(SYCLONE_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
add_executable(spirv_fuzz_reader_validator fuzz_reader_validator.cpp ${SYCLONE_FUZZ_SOURCES})
target_include_directories(spirv_fuzz_reader_validator PRIVATE ${SYCLONE_FUZZ_LIB_INCLUDES})
target_compile_features(spirv_fuzz_reader_validator PRIVATE cxx_std_20)
target_compile_options(spirv_fuzz_reader_validator PRIVATE ${SYCLONE_FUZZ_FLAGS})
target_link_options(spirv_fuzz_reader_validator PRIVATE ${SYCLONE_FUZZ_FLAGS})
# The grammar tables are generated for syclone_spirv; build it first.
add_dependencies(spirv_fuzz_reader_validator syclone_spirv)

# Bounded for CI (2 cores): one minute, 1 GiB. New inputs go to the build tree's corpus; the
# committed seeds stay read-only.
set(SYCLONE_FUZZ_WORK ${CMAKE_CURRENT_BINARY_DIR}/fuzz_corpus)
add_test(NAME spirv.fuzz
         COMMAND sh -c "mkdir -p '${SYCLONE_FUZZ_WORK}' && exec \"$0\" -max_total_time=60 -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 '${SYCLONE_FUZZ_WORK}' '${CMAKE_CURRENT_SOURCE_DIR}/corpus'"
                 $<TARGET_FILE:spirv_fuzz_reader_validator>)
set_tests_properties(spirv.fuzz PROPERTIES LABELS spirv TIMEOUT 180)
