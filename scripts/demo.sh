#!/usr/bin/env bash
# Installs what fbc needs, builds it and runs fbc's main job on the bundled
# example spec. Idempotent; run as root on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target fbc
./build/release/tools/fbc/fbc plan examples/checkout.star --coverage
