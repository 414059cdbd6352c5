#!/usr/bin/env bash
# Installs the MCP TypeScript SDK and conformance suite for tests/mcp/ into the build
# tree (never into the repository): `npm ci` from the committed
# package-lock.json, from the npm registry; skipped when that exact lock is
# already installed there. Copies the test scripts beside node_modules/ so
# that their imports resolve there.
set -euo pipefail
src=$1
dest=$2
mkdir -p "$dest"
cp "$src/sdk_e2e.mjs" "$src/conformance.mjs" "$src/conformance_bridge.mjs" "$dest/"
if ! cmp -s "$src/package-lock.json" "$dest/.installed-lock.json" ||
  [ ! -d "$dest/node_modules/@modelcontextprotocol/sdk" ]; then
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$src/package-lock.json" "$dest/.installed-lock.json"
fi
echo "MCP SDK $(node -p "require('$dest/node_modules/@modelcontextprotocol/sdk/package.json').version") in $dest (node $(node --version))"
