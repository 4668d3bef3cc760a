# ctest script: syclone-spirv dis --raw-id prints what spirv-dis --raw-id prints, byte for byte,
# for every committed module in DATA (dis_*.spv) and for the modules syclone-spirv as makes from
# DATA's dis_*.spvasm files that spirv-dis can read (those without instructions it predates).
#   cmake -DTOOL=syclone-spirv -DSPIRV_DIS=spirv-dis -DDATA=dir -DWORK=dir -P this
file(MAKE_DIRECTORY ${WORK})
file(GLOB modules ${DATA}/dis_*.spv)
file(GLOB texts ${DATA}/dis_*.spvasm)
foreach(text IN LISTS texts)
  get_filename_component(name ${text} NAME_WE)
  file(READ ${text} contents)
  if(contents MATCHES "INTEL")
    continue() # seed 003 / cache controls: spirv-dis 2023.1 cannot print them
  endif()
  execute_process(COMMAND ${TOOL} as -o ${WORK}/${name}.spv ${text} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "syclone-spirv as ${text} failed: ${err}")
  endif()
  list(APPEND modules ${WORK}/${name}.spv)
endforeach()
list(LENGTH modules count)
if(count LESS 2)
  message(FATAL_ERROR "only ${count} modules to compare in ${DATA}")
endif()
foreach(module IN LISTS modules)
  get_filename_component(name ${module} NAME_WE)
  execute_process(COMMAND ${SPIRV_DIS} --raw-id ${module} OUTPUT_VARIABLE expected RESULT_VARIABLE rc1)
  execute_process(COMMAND ${TOOL} dis --raw-id ${module} OUTPUT_VARIABLE actual RESULT_VARIABLE rc2
                  ERROR_VARIABLE err)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${module}: spirv-dis exit ${rc1}, syclone-spirv dis exit ${rc2}: ${err}")
  endif()
  if(NOT expected STREQUAL actual)
    file(WRITE ${WORK}/${name}.expected.txt "${expected}")
    file(WRITE ${WORK}/${name}.actual.txt "${actual}")
    message(FATAL_ERROR "${module}: syclone-spirv dis differs from spirv-dis; compare "
                        "${WORK}/${name}.expected.txt and ${WORK}/${name}.actual.txt")
  endif()
  message(STATUS "${name}: identical")
endforeach()
