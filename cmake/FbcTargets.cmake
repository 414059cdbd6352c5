# Library targets per pipeline folder, and the check that keeps the link
# directions honest: a folder may link only folders before it.

set(FBC_LAYERS frontend ir passes backend runtime bundle tools)

# fbc_layer_index(<layer> <out>) — position of a layer in FBC_LAYERS.
function(fbc_layer_index layer out)
  list(FIND FBC_LAYERS ${layer} idx)
  set(${out} ${idx} PARENT_SCOPE)
endfunction()

# fbc_library(<layer> SOURCES ... [DEPS ...]) declares the library fbc_<layer>.
function(fbc_library layer)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  set(target fbc_${layer})
  if(ARG_SOURCES)
    add_library(${target} STATIC ${ARG_SOURCES})
    target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR})
    target_link_libraries(${target} PUBLIC ${ARG_DEPS})
  else()
    # A folder whose code has not landed yet: headers only.
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${CMAKE_SOURCE_DIR})
    target_link_libraries(${target} INTERFACE ${ARG_DEPS})
  endif()
  set_property(GLOBAL APPEND PROPERTY FBC_LAYER_TARGETS ${target})
  set_target_properties(${target} PROPERTIES FBC_LAYER ${layer})
endfunction()

define_property(TARGET PROPERTY FBC_LAYER
  BRIEF_DOCS "pipeline folder of an fbc library"
  FULL_DOCS "pipeline folder of an fbc library")

# Fails configuration if a library links a library of a later folder.
function(fbc_check_layering)
  get_property(targets GLOBAL PROPERTY FBC_LAYER_TARGETS)
  foreach(target ${targets})
    get_target_property(layer ${target} FBC_LAYER)
    fbc_layer_index(${layer} own)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
    else()
      get_target_property(deps ${target} LINK_LIBRARIES)
    endif()
    if(NOT deps)
      continue()
    endif()
    foreach(dep ${deps})
      if(dep MATCHES "^fbc_(.*)$" AND TARGET ${dep})
        get_target_property(dep_layer ${dep} FBC_LAYER)
        if(dep_layer)
          fbc_layer_index(${dep_layer} theirs)
          if(theirs GREATER own)
            message(FATAL_ERROR
              "fbc: layering violation: ${target} (${layer}/) links ${dep} (${dep_layer}/); "
              "a folder may link only folders before it: ${FBC_LAYERS}")
          endif()
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()
