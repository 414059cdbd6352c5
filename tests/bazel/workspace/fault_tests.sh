#!/bin/sh
# The test Bazel runs: fbc reads the sharding variables Bazel sets, touches
# TEST_SHARD_STATUS_FILE and writes XML_OUTPUT_FILE. The JSON report goes to
# $FBC_OUT, where run_bazel_test.py reads when each shard's kv listened.
set -e
"$FBC" run spec.star --seed 42 --no-bundle --format=json >"$FBC_OUT/shard-$TEST_SHARD_INDEX.json"
