# Determinism of `fbc ir` and `fbc plan`: two runs over the same spec give
# byte-identical output (stdout, stderr and exit code) in every format.
#   FBC_COMMAND=ir   every spec of tests/golden/ir/, tests/golden/ir/docs/ and
#                examples/; --format=text and json.
#   FBC_COMMAND=plan every spec of tests/golden/plan/ and examples/;
#                --format=text, json and dot, and text with --suggest.
# Each run is a separate process; the second gets a different environment
# size, which moves the stack and the heap, so output that depended on
# addresses or hash seeds would differ. A JSON output of a run that exits 0
# must also parse (schema_version 1).
#
#   cmake -DFBC=<fbc binary> -DFBC_SOURCE_DIR=<repo> [-DFBC_COMMAND=ir|plan] -P ir_determinism.cmake
if(NOT FBC OR NOT FBC_SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DFBC=<fbc> -DFBC_SOURCE_DIR=<repo> [-DFBC_COMMAND=ir|plan] -P ir_determinism.cmake")
endif()
if(NOT FBC_COMMAND)
  set(FBC_COMMAND ir)
endif()

if(FBC_COMMAND STREQUAL "ir")
  file(GLOB specs "${FBC_SOURCE_DIR}/tests/golden/ir/*.star"
       "${FBC_SOURCE_DIR}/tests/golden/ir/docs/*.star" "${FBC_SOURCE_DIR}/examples/*.star")
  set(variants "--format=text" "--format=json")
elseif(FBC_COMMAND STREQUAL "plan")
  file(GLOB specs "${FBC_SOURCE_DIR}/tests/golden/plan/*.star" "${FBC_SOURCE_DIR}/examples/*.star")
  set(variants "--format=text" "--format=json" "--format=dot" "--suggest")
else()
  message(FATAL_ERROR "FBC_COMMAND must be ir or plan, got ${FBC_COMMAND}")
endif()
list(SORT specs)
list(LENGTH specs count)
if(count LESS 10)
  message(FATAL_ERROR "expected the ${FBC_COMMAND} golden specs, found ${count} spec(s)")
endif()

string(REPEAT "x" 4099 padding)
set(failures "")
set(runs 0)
set(clean 0)
foreach(spec ${specs})
  get_filename_component(dir "${spec}" DIRECTORY)
  get_filename_component(name "${spec}" NAME)
  foreach(variant ${variants})
    execute_process(COMMAND "${FBC}" ${FBC_COMMAND} "${name}" ${variant}
      WORKING_DIRECTORY "${dir}"
      RESULT_VARIABLE rc1 OUTPUT_VARIABLE out1 ERROR_VARIABLE err1)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "FBC_DETERMINISM_PADDING=${padding}"
      "${FBC}" ${FBC_COMMAND} "${name}" ${variant}
      WORKING_DIRECTORY "${dir}"
      RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
    math(EXPR runs "${runs} + 2")
    if(FBC_COMMAND STREQUAL "ir" AND NOT rc1 EQUAL 0)
      string(APPEND failures "  ${name} (${variant}): exit ${rc1}: ${err1}\n")
    elseif(out1 STREQUAL "" AND err1 STREQUAL "")
      string(APPEND failures "  ${name} (${variant}): no output\n")
    elseif(NOT rc1 EQUAL rc2 OR NOT out1 STREQUAL out2 OR NOT err1 STREQUAL err2)
      string(APPEND failures "  ${name} (${variant}): the two runs differ\n")
    elseif(rc1 EQUAL 0)
      math(EXPR clean "${clean} + 1")
      if(variant STREQUAL "--format=json")
        # The JSON form parses, and says which schema it follows.
        string(JSON version ERROR_VARIABLE json_error GET "${out1}" schema_version)
        if(json_error OR NOT version EQUAL 1)
          string(APPEND failures "  ${name} (json): not valid JSON: ${json_error}\n")
        endif()
      endif()
    endif()
  endforeach()
endforeach()

# Most specs must run cleanly (a plan spec may be an error golden on purpose).
math(EXPR half "${runs} / 4")
if(clean LESS half)
  string(APPEND failures "  only ${clean} of ${runs} runs exited 0\n")
endif()
if(failures)
  message(FATAL_ERROR "fbc ${FBC_COMMAND}: determinism check failed:\n${failures}")
endif()
message(STATUS "fbc ${FBC_COMMAND}: ${count} specs, ${runs} runs, ${clean} pairs exited 0, byte-identical")
