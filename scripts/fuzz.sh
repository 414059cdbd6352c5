#!/usr/bin/env bash
# Builds a libFuzzer target (clang-14, ASan + UBSan, in build/fuzz) and runs
# it for SECONDS (default 600) from its seed corpus. FUZZ_TARGET picks it:
# starlark_fuzz (default; the frontend, corpus tests/fuzz/corpus),
# bundle_fuzz (the bundle reader, corpus tests/fuzz/corpus_bundle), or one of
# the bundle's JSON parsers: manifest_fuzz, env_fuzz, plan_fuzz (plan.json as
# `fbc report` reads it), drift_fuzz (corpus tests/fuzz/corpus_<name>). New
# interesting inputs go to build/fuzz/corpus[_<name>], crashes to
# build/fuzz/artifacts/. Extra arguments go to the fuzzer, e.g.
#   scripts/fuzz.sh 0 build/fuzz/artifacts/crash-...   (re-run one input)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
dir=build/fuzz
CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFBC_BUILD_FUZZ=ON -DFBC_BUILD_BENCH=OFF >/dev/null
target=${FUZZ_TARGET:-starlark_fuzz}
case $target in
  starlark_fuzz) corpus=tests/fuzz/corpus work=$dir/corpus max_len=8192 ;;
  bundle_fuzz) corpus=tests/fuzz/corpus_bundle work=$dir/corpus_bundle max_len=65536 ;;
  manifest_fuzz | env_fuzz | plan_fuzz | drift_fuzz)
    name=${target%_fuzz}
    corpus=tests/fuzz/corpus_$name work=$dir/corpus_$name max_len=65536 ;;
  *) echo "fuzz.sh: unknown FUZZ_TARGET $target (starlark_fuzz, bundle_fuzz, manifest_fuzz, env_fuzz, plan_fuzz, drift_fuzz)" >&2; exit 1 ;;
esac
cmake --build "$dir" --target "$target" -j2
mkdir -p "$work" "$dir/artifacts"
fuzzer=("$dir/tests/fuzz/$target" -max_len=$max_len -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/")
if [[ $# -gt 0 && -f ${!#} ]]; then
  exec "${fuzzer[@]}" "$@" # reproduce: the last argument is an input file
fi
exec "${fuzzer[@]}" -max_total_time="$seconds" "$@" "$work" "$corpus"
