# cmake -DLIBRARY=<.so> -DSTRIP=<strip> -DLIMIT_MIB=<n> -P check_size.cmake
# Strips a copy of LIBRARY and fails when it exceeds LIMIT_MIB or needs a library that GPU
# machines lack (libLLVM, libz3, libxml2).
get_filename_component(name ${LIBRARY} NAME)
set(stripped ${CMAKE_CURRENT_BINARY_DIR}/${name}.stripped)
execute_process(COMMAND ${STRIP} --strip-all ${LIBRARY} -o ${stripped} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${STRIP} failed on ${LIBRARY}")
endif()
file(SIZE ${stripped} bytes)
math(EXPR mib "${bytes} / 1048576")
message(STATUS "${name} stripped: ${bytes} bytes (${mib} MiB)")
math(EXPR limit "${LIMIT_MIB} * 1048576")
if(bytes GREATER_EQUAL limit)
  message(FATAL_ERROR "${name} is ${mib} MiB stripped, over the ${LIMIT_MIB} MiB budget")
endif()
file(GET_RUNTIME_DEPENDENCIES LIBRARIES ${LIBRARY} RESOLVED_DEPENDENCIES_VAR resolved
     UNRESOLVED_DEPENDENCIES_VAR unresolved)
foreach(dependency IN LISTS resolved unresolved)
  if(dependency MATCHES "libLLVM|libz3|libxml2|libclang")
    message(FATAL_ERROR "${name} needs ${dependency}, which GPU machines do not have")
  endif()
endforeach()
