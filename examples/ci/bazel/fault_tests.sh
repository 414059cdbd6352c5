#!/bin/sh
# The test Bazel runs: fbc reads the sharding variables Bazel sets.
set -e
fbc run specs/checkout.star --seed 42 --no-bundle
