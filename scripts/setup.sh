#!/usr/bin/env bash
# Installs every Debian package fbc needs to build, test and benchmark.
# Idempotent: re-running it on a machine that has everything is a no-op apart
# from the dpkg query. Must be run as root on Debian 12.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  llvm-14-dev libre2-dev libsimdjson-dev libcli11-dev
  libseccomp-dev libarchive-dev libcurl4-openssl-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev
  golang-starlark-dev golang-go strace python3
  chromium fonts-dejavu-core zstd
  libxml2-utils # xmllint: shard_e2e_tests validate --junit output against junit.xsd
  liburing-dev # tests/fixtures/nondet_fs.c: file I/O through io_uring
  libhttp-parser-dev # the fault proxy's HTTP/1.1 framing (runtime/protocols/proxy_http.cpp)
  libhiredis-dev redis-server libpq-dev postgresql-15
  libmariadb-dev mariadb-server # MySQL steps and probe (runtime/clients/mysql_step.cpp), e2e tests
  memcached # memcached steps, proxy codec and e2e tests (runtime/protocols/proto_memcached.cpp)
  # NATS: the real server of the NATS steps' and proxy codec's e2e tests, and
  # the NATS C client of their publisher/subscriber fixture (tests/fixtures/nats_orders.c)
  nats-server libnats-dev
  libnghttp2-dev # the proxy's HTTP/2 and gRPC (runtime/proxy/proxy_h2.cpp), the gRPC steps
  # gRPC: the real server and client of the gRPC e2e tests (tests/fixtures/grpc_orders.cc)
  libgrpc++-dev protobuf-compiler protobuf-compiler-grpc
  # libprotobuf (libgrpc++-dev pulls it in; named because fbc itself links it):
  # gRPC mocks' and clients' messages from a descriptor set (ir/grpc_protobuf.cpp)
  libprotobuf-dev
  nghttp2-server # nghttpd: the real HTTP/2 server of the http2 e2e tests
  # AMQP 0-9-1: RabbitMQ, the real broker of the AMQP proxy codec's e2e
  # tests (a private node per test run), and the RabbitMQ C client of their
  # publisher/consumer fixture (tests/fixtures/amqp_orders.c)
  rabbitmq-server librabbitmq-dev
  # Kafka: librdkafka's mock cluster is the broker of kafka mocks
  # (runtime/mock/kafka_broker.c, no broker is packaged), and librdkafka the
  # client of the kafka steps and of the tests' producer/consumer fixture
  librdkafka-dev
  libyaml-cpp-dev # load_yaml() (ir/builtins/loaders.cpp)
  libmicrohttpd-dev # fbc run's HTTP mock services (runtime/mock/mock_http.cpp)
  nettle-dev # jwt_keypair/jwt_sign: Ed25519 (ir/builtins/mock_jwt.cpp)
  # Container services (runtime/containers/): Podman's Docker-compatible API
  # (`podman system service`), runc as its OCI runtime (crun refuses a
  # hybrid cgroup layout), netavark + aardvark-dns for per-run networks where
  # containers reach each other by name, iptables for its port mappings.
  podman runc conmon netavark aardvark-dns iptables catatonit
  nginx-light # tests/fixtures/containers/build_images.py: nginx:1.27-alpine
  # tests/e2e/container_e2e_test.cpp: a registry of the test's own on
  # 127.0.0.1:15555 (no other is reachable) from which fbc pulls an image.
  docker-registry
  # tests/bazel: a real `bazel test` with shard_count = 2 (Bazel 4.2.3, with
  # OpenJDK 17 headless), run offline against the stand-ins in tests/bazel/stubs.
  bazel-bootstrap
)
# tests/mcp (fbc mcp driven by the official MCP TypeScript SDK, installed by
# `npm ci` from the npm registry into the build tree): Debian's Node.js and
# npm, unless a Node.js with its own npm is installed already (NodeSource's
# nodejs package bundles npm and conflicts with Debian's).
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

# Podman reads its OCI runtime from containers.conf (through the API,
# HostConfig.Runtime is not consulted). Its default ulimits (nproc 1048576)
# exceed the hard limits of machines like this one, where runc then fails
# with "setrlimit ...: operation not permitted": use the machine's own.
# fbc sets explicit ulimits per container as well (engine.cpp); this makes
# `podman run` by hand behave the same. Rewritten only when it differs.
configure_podman() {
  local conf=/etc/containers/containers.conf nofile nproc pidmax
  nofile=$(ulimit -Hn)
  nproc=$(ulimit -Hu)
  pidmax=$(cat /proc/sys/kernel/pid_max)
  # Podman lowers its own RLIMIT_NPROC to pid_max; a container asking
  # for more fails the same way.
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt "$pidmax" ]; then nproc=$pidmax; fi
  [ "$nofile" = unlimited ] && nofile=1048576
  local want
  want=$(printf '%s\n' '# Written by fbc scripts/setup.sh' '[containers]' \
    "default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]" \
    '[engine]' 'runtime = "runc"' 'cgroup_manager = "cgroupfs"' 'events_logger = "file"' \
    '[network]' 'network_backend = "netavark"')
  if [ "$(cat "$conf" 2>/dev/null)" != "$want" ]; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "setup: must run as root to write $conf" >&2
      exit 1
    fi
    mkdir -p /etc/containers
    printf '%s\n' "$want" > "$conf"
    echo "setup: wrote $conf (runc, ulimits nofile=$nofile nproc=$nproc)"
  fi
  # The tests' registry speaks plain HTTP: Podman pulls from it only when
  # registries.conf calls it insecure (read when an engine service starts).
  local reg=/etc/containers/registries.conf.d/50-fbc-test-registry.conf
  want=$(printf '%s\n' '# Written by fbc scripts/setup.sh (tests/e2e/container_e2e_test.cpp)' \
    '[[registry]]' 'location = "localhost:15555"' 'insecure = true')
  if [ "$(cat "$reg" 2>/dev/null)" != "$want" ]; then
    mkdir -p /etc/containers/registries.conf.d
    printf '%s\n' "$want" > "$reg"
    echo "setup: wrote $reg (the tests' registry)"
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  configure_podman
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: must run as root to install packages" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
configure_podman
