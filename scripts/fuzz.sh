#!/usr/bin/env bash
# Builds the libFuzzer target for the Starlark frontend (clang-14, ASan +
# UBSan, in build/fuzz) and runs it for SECONDS (default 600) from the seed
# corpus tests/fuzz/corpus. New interesting inputs go to build/fuzz/corpus,
# crashes to build/fuzz/artifacts/. Extra arguments go to the fuzzer, e.g.
#   scripts/fuzz.sh 0 build/fuzz/artifacts/crash-...   (re-run one input)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
dir=build/fuzz
CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFBC_BUILD_FUZZ=ON -DFBC_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" --target starlark_fuzz -j2
mkdir -p "$dir/corpus" "$dir/artifacts"
fuzzer=("$dir/tests/fuzz/starlark_fuzz" -max_len=8192 -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/")
if [[ $# -gt 0 && -f ${!#} ]]; then
  exec "${fuzzer[@]}" "$@" # reproduce: the last argument is an input file
fi
exec "${fuzzer[@]}" -max_total_time="$seconds" "$@" "$dir/corpus" tests/fuzz/corpus
