# Fails if a protocol name is compared as a string outside the protocol
# table (issue #28: "no protocol name compared as a string outside the
# table"): what a protocol is or does is read from ir/protocols.h's entries
# (or a table attached to them by name), never `protocol == "redis"`.
set(names "http|http2|redis|postgres|mysql|memcached|tcp|udp|grpc|kafka|nats|amqp|mongodb|cassandra|clickhouse")
set(compare "(==|!=)[ \t]*\"(${names})\"|\"(${names})\"[ \t]*(==|!=)")
set(violations "")
foreach(layer frontend ir passes backend runtime bundle tools)
  file(GLOB_RECURSE files "${FBC_SOURCE_DIR}/${layer}/*.h" "${FBC_SOURCE_DIR}/${layer}/*.cpp")
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "${compare}")
    foreach(line ${lines})
      file(RELATIVE_PATH rel "${FBC_SOURCE_DIR}" "${f}")
      string(APPEND violations "  ${rel}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "protocol names compared outside ir/protocols.h's table:\n${violations}")
endif()
