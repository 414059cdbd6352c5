#!/usr/bin/env bash
# Installs what fbc needs, builds it with the fixture services, and runs fbc's
# main jobs: `fbc plan` on the example specs, then `fbc run` on
# examples/kv_api.star against the real fixture processes, which leaves a
# run bundle (docs/bundle.md) and, where `fbc report` exists, its HTML report.
# Prints where they are. Idempotent; run as root on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target fbc fixture_kv_store fixture_http_api
fbc=./build/release/tools/fbc/fbc
out=build/demo
mkdir -p "$out"

echo "== fbc plan examples/checkout.star --coverage"
"$fbc" plan examples/checkout.star --coverage
echo
echo "== fbc plan examples/kv_api.star --coverage"
"$fbc" plan examples/kv_api.star --coverage
echo
echo "== fbc run examples/kv_api.star --seed 1"
bundle=$out/kv_api.fb
rc=0
"$fbc" run examples/kv_api.star --seed 1 --bundle "$bundle" || rc=$?
echo
echo "== fbc inspect $bundle"
"$fbc" inspect "$bundle"
report=""
if "$fbc" report --help >/dev/null 2>&1; then
  report=$out/kv_api.html
  "$fbc" report "$bundle" -o "$report"
fi
echo
echo "fbc run exit code: $rc"
echo "Bundle: $bundle   (tar --zstd -tf $bundle; fbc replay $bundle)"
if [ -n "$report" ]; then
  echo "Report: $report"
fi
