#!/usr/bin/env bash
# Installs every Debian package fbc needs to build, test and benchmark.
# Idempotent: re-running it on a machine that has everything is a no-op apart
# from the dpkg query. Must be run as root on Debian 12.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  llvm-14-dev libre2-dev libsimdjson-dev libcli11-dev
  libseccomp-dev libarchive-dev libcurl4-openssl-dev libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev
  golang-starlark-dev golang-go strace python3
  chromium fonts-dejavu-core zstd
  libxml2-utils # xmllint: shard_e2e_tests validate --junit output against junit.xsd
  liburing-dev # tests/fixtures/nondet_fs.c: file I/O through io_uring
  libhttp-parser-dev # the fault proxy's HTTP/1.1 framing (runtime/protocols/proxy_http.cpp)
  libhiredis-dev redis-server libpq-dev postgresql-15
  libyaml-cpp-dev # load_yaml() (ir/builtins/loaders.cpp)
  libmicrohttpd-dev # fbc run's HTTP mock services (runtime/mock/mock_http.cpp)
  nettle-dev # jwt_keypair/jwt_sign: Ed25519 (ir/builtins/mock_jwt.cpp)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
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
