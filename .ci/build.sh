#!/usr/bin/env bash
# Installs what is missing and builds everything: the native library and tests, and the
# WASM module copied into js/wasm/ (what `import 'simhash-wasm'` loads). Incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/packages.sh

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v g++ >/dev/null || missing+=(g++)
command -v em++ >/dev/null || missing+=(emscripten)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
install_missing build "${missing[@]}"

if [ -f package-lock.json ] && [ ! -d node_modules ] && grep -q '"devDependencies"' package.json; then
  npm ci --no-audit --no-fund --loglevel=error
fi

jobs=$(nproc 2>/dev/null || echo 2)
# Debian's Emscripten needs Debian's acorn for its JS optimizer.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# The presets of CMakePresets.json: native (core, Catch2, bench), wasm (the module js/
# loads; in bench/ the same with the benchmark-only bindings, in capped/ also at 32 MB of
# memory at most, for the out-of-memory tests; and the Catch2 suite for Node).
for preset in native wasm; do
  [ -f "build/$preset/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs" >/dev/null
done
mkdir -p js/wasm
cp -p build/wasm/simhash_core.mjs build/wasm/simhash_core.wasm js/wasm/
# The CommonJS helpers and .d.cts types, generated from the ES modules (npm pack runs it too).
node .ci/cjs.js
