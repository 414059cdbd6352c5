# Fails if a pipeline folder includes a header from a later folder:
# frontend <- ir <- passes <- backend <- runtime <- bundle <- tools;
# and, inside runtime/, if a room includes a later room (below).
set(layers frontend ir passes backend runtime bundle tools)
set(violations "")
list(LENGTH layers n)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  list(GET layers ${i} layer)
  file(GLOB_RECURSE files "${FBC_SOURCE_DIR}/${layer}/*.h" "${FBC_SOURCE_DIR}/${layer}/*.cpp")
  math(EXPR next "${i} + 1")
  if(next GREATER last)
    continue()
  endif()
  set(later "")
  foreach(j RANGE ${next} ${last})
    list(GET layers ${j} l)
    list(APPEND later ${l})
  endforeach()
  list(JOIN later "|" later_re)
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(${later_re})/")
    foreach(line ${lines})
      file(RELATIVE_PATH rel "${FBC_SOURCE_DIR}" "${f}")
      string(APPEND violations "  ${rel}: ${line}\n")
    endforeach()
  endforeach()
endforeach()

# An include `line` of <folder>/<room>/... in <folder>/<rel>, whose own room
# is number `own` of the rooms after it (-1: the folder's top, which may
# include none): appended to `violations` when it names no room or a later
# one.
function(check_room_include folder rel line own)
  string(REGEX MATCH "\"${folder}/([a-z_]+)/" _ "${line}")
  list(FIND ARGN ${CMAKE_MATCH_1} theirs)
  if(theirs EQUAL -1)
    string(APPEND violations "  ${folder}/${rel}: ${line} (not a room)\n")
  elseif(theirs GREATER own)
    if(own EQUAL -1)
      set(place "${folder}/'s top")
    else()
      list(GET ARGN ${own} place)
      set(place "${place}/")
    endif()
    string(APPEND violations "  ${folder}/${rel}: ${line} (room ${CMAKE_MATCH_1}/ comes after ${place})\n")
  endif()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

# runtime/ in rooms (docs/architecture.md "runtime/ in rooms"): every runtime
# file lives in a room, and a room includes only itself and rooms before it.
# The rooms up to supervisor/ know nothing of Starlark: of frontend/ they may
# include only frontend/support/. No runtime file includes passes/: the
# runtime reads the leaf program the backend lowered, it plans nothing, and
# it scans no AST (no frontend/syntax/).
set(rooms os rules trace protocols clients proxy supervisor explore containers mock values temporal driver body report)
set(starlark_free os rules trace protocols clients proxy supervisor explore containers)
list(JOIN rooms "|" rooms_re)
file(GLOB_RECURSE runtime_files RELATIVE "${FBC_SOURCE_DIR}/runtime"
     "${FBC_SOURCE_DIR}/runtime/*.h" "${FBC_SOURCE_DIR}/runtime/*.cpp")
foreach(rel ${runtime_files})
  if(NOT rel MATCHES "^(${rooms_re})/")
    string(APPEND violations "  runtime/${rel}: not in a room (${rooms})\n")
    continue()
  endif()
  string(REGEX MATCH "^[a-z]+" room "${rel}")
  list(FIND rooms ${room} own)
  file(STRINGS "${FBC_SOURCE_DIR}/runtime/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(runtime|frontend|passes)/")
  foreach(line ${lines})
    if(line MATCHES "\"runtime/([a-z]+)/")
      check_room_include(runtime "${rel}" "${line}" ${own} ${rooms})
    elseif(line MATCHES "\"runtime/")
      string(APPEND violations "  runtime/${rel}: ${line} (not a room)\n")
    elseif(line MATCHES "\"passes/")
      string(APPEND violations "  runtime/${rel}: ${line} (the runtime reads the leaf program, not passes/)\n")
    elseif(line MATCHES "\"frontend/syntax/")
      string(APPEND violations "  runtime/${rel}: ${line} (the runtime scans no AST: the leaf program carries what it needs)\n")
    elseif(NOT line MATCHES "\"frontend/support/")
      list(FIND starlark_free ${room} free)
      if(NOT free EQUAL -1)
        string(APPEND violations "  runtime/${rel}: ${line} (${room}/ knows no Starlark)\n")
      endif()
    endif()
  endforeach()
endforeach()

# What the lowering decided, the runtime does not decide again (issue #26):
# no runtime file expands a syscall keyword into its family or numbers
# (rules carry their numbers: ir::LoweredRule, backend::keywordSyscalls),
# looks an errno up by name (faults carry errnoNumber), normalises a
# protocol rule's target (ir::LoweredProxyRule::target; the codecs
# normalise their traffic with ir::sqlNormalizeQuery, which stays), or
# matches the passes' invented axis names ("choose#").
foreach(rel ${runtime_files})
  file(STRINGS "${FBC_SOURCE_DIR}/runtime/${rel}" lines
       REGEX "(syscallNumbers|syscallFamily|expandSyscallFamily|findErrno|normalizedTarget|sqlNormalizePattern|natsSubjectPattern|amqpRoutingKeyPattern)\\(|choose#")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    string(APPEND violations "  runtime/${rel}: ${line} (the leaf program carries this: lowered in backend/)\n")
  endforeach()
endforeach()

# ir/ in rooms (docs/architecture.md): the model at ir/'s top includes none
# of them; builtins/, print/, verify/ and load/, in that order, each include
# only the model and the rooms before them.
set(ir_rooms builtins print verify load)
list(JOIN ir_rooms "|" ir_rooms_re)
file(GLOB_RECURSE ir_files RELATIVE "${FBC_SOURCE_DIR}/ir"
     "${FBC_SOURCE_DIR}/ir/*.h" "${FBC_SOURCE_DIR}/ir/*.cpp")
foreach(rel ${ir_files})
  set(own -1)
  if(rel MATCHES "^(${ir_rooms_re})/")
    list(FIND ir_rooms ${CMAKE_MATCH_1} own)
  elseif(rel MATCHES "/")
    string(APPEND violations "  ir/${rel}: not in a room (${ir_rooms}) or the model\n")
  endif()
  file(STRINGS "${FBC_SOURCE_DIR}/ir/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"ir/[a-z_]+/")
  foreach(line ${lines})
    check_room_include(ir "${rel}" "${line}" ${own} ${ir_rooms})
  endforeach()
endforeach()

# frontend/ (docs/architecture.md "The Starlark frontend"): the object
# model in lib/ sits below the evaluator in eval/; of eval/ it includes only
# Thread (errors, allocation) and the step budget, which every builtin needs.
file(GLOB_RECURSE lib_files RELATIVE "${FBC_SOURCE_DIR}/frontend/lib"
     "${FBC_SOURCE_DIR}/frontend/lib/*.h" "${FBC_SOURCE_DIR}/frontend/lib/*.cpp")
foreach(rel ${lib_files})
  file(STRINGS "${FBC_SOURCE_DIR}/frontend/lib/${rel}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"frontend/eval/")
  foreach(line ${lines})
    if(NOT line MATCHES "\"frontend/eval/(thread|budget)\\.h\"")
      string(APPEND violations "  frontend/lib/${rel}: ${line} (the object model includes of eval/ only thread.h and budget.h)\n")
    endif()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering violations (a folder includes a later folder, or a runtime room a later room):\n${violations}")
endif()
message(STATUS "layering: ok")
