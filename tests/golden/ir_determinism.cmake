# L0 determinism of `fbc ir`: two runs over the same spec give byte-identical
# IR text and byte-identical IR JSON. Runs every spec of tests/golden/ir/,
# tests/golden/ir/docs/ and examples/, each twice per format, in separate
# processes; the second run gets a different environment size, which moves
# the stack and the heap, so output that depended on addresses or hash seeds
# would differ. The JSON output must also parse (schema_version 1).
#
#   cmake -DFBC=<fbc binary> -DFBC_SOURCE_DIR=<repo> -P ir_determinism.cmake
if(NOT FBC OR NOT FBC_SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DFBC=<fbc> -DFBC_SOURCE_DIR=<repo> -P ir_determinism.cmake")
endif()

file(GLOB specs "${FBC_SOURCE_DIR}/tests/golden/ir/*.star" "${FBC_SOURCE_DIR}/tests/golden/ir/docs/*.star"
     "${FBC_SOURCE_DIR}/examples/*.star")
list(SORT specs)
list(LENGTH specs count)
if(count LESS 10)
  message(FATAL_ERROR "expected the IR golden specs, found ${count} spec(s)")
endif()

string(REPEAT "x" 4099 padding)
set(failures "")
set(runs 0)
foreach(spec ${specs})
  get_filename_component(dir "${spec}" DIRECTORY)
  get_filename_component(name "${spec}" NAME)
  foreach(format text json)
    execute_process(COMMAND "${FBC}" ir "${name}" --format=${format}
      WORKING_DIRECTORY "${dir}"
      RESULT_VARIABLE rc1 OUTPUT_VARIABLE out1 ERROR_VARIABLE err1)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "FBC_DETERMINISM_PADDING=${padding}"
      "${FBC}" ir "${name}" --format=${format}
      WORKING_DIRECTORY "${dir}"
      RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
    math(EXPR runs "${runs} + 2")
    if(NOT rc1 EQUAL 0)
      string(APPEND failures "  ${name} (${format}): exit ${rc1}: ${err1}\n")
    elseif(out1 STREQUAL "")
      string(APPEND failures "  ${name} (${format}): empty output\n")
    elseif(NOT rc1 EQUAL rc2 OR NOT out1 STREQUAL out2 OR NOT err1 STREQUAL err2)
      string(APPEND failures "  ${name} (${format}): the two runs differ\n")
    elseif(format STREQUAL "json")
      # The JSON form parses, and says which schema it follows.
      string(JSON version ERROR_VARIABLE json_error GET "${out1}" schema_version)
      if(json_error OR NOT version EQUAL 1)
        string(APPEND failures "  ${name} (json): not valid IR JSON: ${json_error}\n")
      endif()
    endif()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "fbc ir: determinism check failed:\n${failures}")
endif()
message(STATUS "fbc ir: ${count} specs, ${runs} runs, text and JSON byte-identical")
