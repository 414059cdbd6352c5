# Every dependency comes from a Debian package installed by scripts/setup.sh.
# A missing one stops the configure step with a single line naming the package.

find_package(PkgConfig QUIET)

function(fbc_missing what package)
  message(FATAL_ERROR
    "fbc: ${what} not found: install Debian package '${package}' (run scripts/setup.sh as root)")
endfunction()

if(NOT PkgConfig_FOUND)
  fbc_missing("pkg-config" "pkg-config")
endif()

# pkg-config modules `ARGN` as <PREFIX>_* (and PkgConfig::<PREFIX> unless
# NO_TARGET), or the one-line stop naming `what` and its Debian `package`.
macro(fbc_require_pkg prefix what package)
  set(_fbc_args ${ARGN})
  if("NO_TARGET" IN_LIST _fbc_args)
    list(REMOVE_ITEM _fbc_args NO_TARGET)
    pkg_check_modules(${prefix} QUIET ${_fbc_args})
  else()
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${_fbc_args})
  endif()
  if(NOT ${prefix}_FOUND)
    fbc_missing("${what}" "${package}")
  endif()
endmacro()

# LLVM 14 ADT/Support.
find_package(LLVM 14 CONFIG QUIET PATHS /usr/lib/llvm-14/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_FOUND OR NOT EXISTS "${LLVM_LIBRARY_DIR}/libLLVMSupport.a")
  fbc_missing("LLVM 14 (ADT/Support)" "llvm-14-dev")
endif()
add_library(fbc_llvm INTERFACE)
target_include_directories(fbc_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(fbc_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(fbc_llvm INTERFACE LLVMSupport)

# re2: path globs (runtime/rules/path_glob.cpp) and `fbc run -k ~regex` filters
# (tools/fbc/run_command.cpp); linked by those two libraries only.
fbc_require_pkg(RE2 "re2" "libre2-dev" re2)

# simdjson
find_package(simdjson CONFIG QUIET)
if(NOT simdjson_FOUND)
  fbc_missing("simdjson" "libsimdjson-dev")
endif()

# CLI11
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  fbc_missing("CLI11" "libcli11-dev")
endif()

# libseccomp
fbc_require_pkg(SECCOMP "libseccomp" "libseccomp-dev" libseccomp)

# libarchive: the bundle's tar + zstd (and the legacy tar.gz it reads).
fbc_require_pkg(LIBARCHIVE "libarchive" "libarchive-dev" libarchive)

# libcurl
fbc_require_pkg(CURL "libcurl" "libcurl4-openssl-dev" libcurl)

# liburing: only the fs-unmediated test fixture (tests/fixtures/nondet_fs.c)
# uses it, to do file I/O through io_uring as a service would.
fbc_require_pkg(URING "liburing" "liburing-dev" liburing)
# nodejs http-parser (Debian libhttp-parser-dev, no pkg-config file): the
# fault proxy's HTTP/1.1 request and response framing.
find_path(HTTP_PARSER_INCLUDE_DIR http_parser.h)
find_library(HTTP_PARSER_LIBRARY http_parser)
if(NOT HTTP_PARSER_INCLUDE_DIR OR NOT HTTP_PARSER_LIBRARY)
  fbc_missing("http-parser" "libhttp-parser-dev")
endif()
add_library(fbc_http_parser INTERFACE IMPORTED)
target_include_directories(fbc_http_parser INTERFACE ${HTTP_PARSER_INCLUDE_DIR})
target_link_libraries(fbc_http_parser INTERFACE ${HTTP_PARSER_LIBRARY})

# hiredis: the Redis step and readiness probe, and RESP framing for the
# proxy (runtime/clients/redis_step.cpp, runtime/protocols/proto_redis.cpp).
fbc_require_pkg(HIREDIS "hiredis" "libhiredis-dev" hiredis)

# libmicrohttpd: fbc run's HTTP mocks (runtime/mock/mock_http.cpp). Its header
# only: runtime/mock/mhd_loader.cpp loads the library on first use.
find_path(MHD_INCLUDE_DIR microhttpd.h)
if(NOT MHD_INCLUDE_DIR)
  fbc_missing("libmicrohttpd" "libmicrohttpd-dev")
endif()

# nettle: Ed25519 for jwt_keypair/jwt_sign (ir/builtins/mock_jwt.cpp). Its
# header only: libhogweed is loaded on first use.
find_path(NETTLE_INCLUDE_DIR nettle/eddsa.h)
if(NOT NETTLE_INCLUDE_DIR)
  fbc_missing("nettle" "nettle-dev")
endif()

# libpq: the Postgres step and readiness probe (runtime/clients/postgres_step.cpp).
fbc_require_pkg(LIBPQ "libpq" "libpq-dev" libpq)

# libmariadb (MariaDB Connector/C): the MySQL step and readiness probe
# (runtime/clients/mysql_step.cpp; headers only, loaded on first use).
fbc_require_pkg(MARIADB "libmariadb" "libmariadb-dev" libmariadb NO_TARGET)

# libnats (the NATS C client): tests only, the fixture that publishes and
# subscribes through fbc's proxy (tests/fixtures/nats_orders.c); fbc's own
# NATS steps are written over its socket helpers (docs/architecture.md).
fbc_require_pkg(LIBNATS "libnats" "libnats-dev" libnats)

# libnghttp2: the fault proxy's HTTP/2 (http2 and grpc interfaces:
# runtime/proxy/proxy_h2.cpp) and the gRPC steps (runtime/clients/grpc_step.cpp).
fbc_require_pkg(NGHTTP2 "libnghttp2" "libnghttp2-dev" libnghttp2)

# libprotobuf: gRPC mocks' and clients' messages, encoded and decoded with the
# FileDescriptorSet a spec names; linked only by the module fbc loads on first
# use, libfbc-protobuf.so (ir/grpc_protobuf.cpp).
fbc_require_pkg(PROTOBUF "libprotobuf" "libprotobuf-dev" protobuf)

# gRPC C++ (libgrpc++, protoc and its gRPC plugin): tests only, the real
# gRPC server and client of tests/fixtures/grpc_orders.cc; fbc speaks
# HTTP/2 and gRPC's framing itself over libnghttp2 (docs/architecture.md).
fbc_require_pkg(GRPCPP "gRPC C++" "libgrpc++-dev" grpc++ protobuf)
find_program(FBC_PROTOC protoc)
find_program(FBC_GRPC_CPP_PLUGIN grpc_cpp_plugin)
if(NOT FBC_PROTOC)
  fbc_missing("protoc" "protobuf-compiler")
endif()
if(NOT FBC_GRPC_CPP_PLUGIN)
  fbc_missing("grpc_cpp_plugin" "protobuf-compiler-grpc")
endif()

# librabbitmq (the RabbitMQ C client): the AMQP steps
# (runtime/clients/amqp_step.cpp; headers only, loaded on first use) and
# the fixture that publishes and consumes through fbc's proxy
# (tests/fixtures/amqp_orders.c, linked).
fbc_require_pkg(LIBRABBITMQ "librabbitmq" "librabbitmq-dev" librabbitmq)

# librdkafka: fbc-kafka-mock, the broker of kafka mocks (librdkafka's mock
# cluster, runtime/mock/kafka_broker.c), and the tests' Kafka producer and
# consumer (tests/fixtures/kafka_orders.c).
fbc_require_pkg(RDKAFKA "librdkafka" "librdkafka-dev" rdkafka)

# yaml-cpp: load_yaml() (ir/builtins/loaders.cpp).
find_package(yaml-cpp CONFIG QUIET)
if(NOT yaml-cpp_FOUND)
  fbc_missing("yaml-cpp" "libyaml-cpp-dev")
endif()

# GoogleTest
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  fbc_missing("GoogleTest" "libgtest-dev")
endif()
include(GoogleTest)

# Google Benchmark
if(FBC_BUILD_BENCH)
  find_package(benchmark CONFIG QUIET)
  if(NOT benchmark_FOUND)
    fbc_missing("Google Benchmark" "libbenchmark-dev")
  endif()
endif()
