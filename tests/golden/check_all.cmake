# `fbc check` on every example and golden spec: one line per spec with its
# exit code and its findings' codes (counted), compared with
# tests/golden/check_all.expected. A spec is either clean, or gives the
# findings recorded there (the load errors of tests/golden/ir_errors, the
# vacuity warnings of the plan goldens, ...). FBC_UPDATE_GOLDEN=1 rewrites
# the golden file.
#
#   cmake -DFBC=<fbc binary> -DFBC_SOURCE_DIR=<repo> -P check_all.cmake
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
if(NOT FBC OR NOT FBC_SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DFBC=<fbc> -DFBC_SOURCE_DIR=<repo> -P check_all.cmake")
endif()

file(GLOB_RECURSE specs RELATIVE "${FBC_SOURCE_DIR}"
     "${FBC_SOURCE_DIR}/examples/*.star"
     "${FBC_SOURCE_DIR}/tests/golden/check/*.star"
     "${FBC_SOURCE_DIR}/tests/golden/ir/*.star"
     "${FBC_SOURCE_DIR}/tests/golden/ir_errors/*.star"
     "${FBC_SOURCE_DIR}/tests/golden/leaves/*.star"
     "${FBC_SOURCE_DIR}/tests/golden/plan/*.star")
list(SORT specs)
list(LENGTH specs count)
if(count LESS 300)
  message(FATAL_ERROR "expected the golden specs and examples, found ${count}")
endif()

set(summary "")
foreach(spec ${specs})
  get_filename_component(dir "${FBC_SOURCE_DIR}/${spec}" DIRECTORY)
  get_filename_component(name "${spec}" NAME)
  # A load budget well under the default 2048 MiB: no spec here needs more,
  # and ir_errors/load_memory_budget.star (a 100M-element list) is then its
  # located error instead of 800 MB built for nothing.
  execute_process(COMMAND "${FBC}" check "${name}" --format=json --max-load-memory 256
    WORKING_DIRECTORY "${dir}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(JSON n ERROR_VARIABLE json_error LENGTH "${out}" findings)
  if(json_error)
    string(APPEND summary "${spec}: exit ${rc}; no JSON: ${json_error}\n")
    continue()
  endif()
  set(codes "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON code GET "${out}" findings ${i} code)
      string(JSON severity GET "${out}" findings ${i} severity)
      list(APPEND codes "${severity}:${code}")
    endforeach()
  endif()
  list(SORT codes)
  set(line "")
  set(seen "")
  foreach(c ${codes})
    if(c IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${c}")
    set(k 0)
    foreach(d ${codes})
      if(d STREQUAL c)
        math(EXPR k "${k} + 1")
      endif()
    endforeach()
    if(line)
      string(APPEND line ", ")
    endif()
    string(APPEND line "${c} x${k}")
  endforeach()
  if(NOT line)
    set(line "clean")
  endif()
  string(APPEND summary "${spec}: exit ${rc}; ${line}\n")
endforeach()

set(golden "${FBC_SOURCE_DIR}/tests/golden/check_all.expected")
if("$ENV{FBC_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${golden}" "${summary}")
  message(STATUS "wrote ${golden} (${count} specs)")
  return()
endif()
file(READ "${golden}" expected)
if(NOT expected STREQUAL summary)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/check_all.actual" "${summary}")
  message(FATAL_ERROR "fbc check findings differ from ${golden}; actual output in "
                      "${CMAKE_CURRENT_BINARY_DIR}/check_all.actual (diff them; "
                      "FBC_UPDATE_GOLDEN=1 rewrites)")
endif()
message(STATUS "fbc check: ${count} specs as recorded")
