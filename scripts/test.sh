#!/usr/bin/env bash
# Installs what fbc needs, builds it (release preset) and runs the whole test
# suite with CTest. Idempotent; run from anywhere inside a clone, as root on a
# fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
preset=${FBC_PRESET:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" -j2 "$@"
