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
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j "$jobs" >/dev/null

# Debian's Emscripten needs Debian's acorn for its JS optimizer.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j "$jobs" >/dev/null
mkdir -p js/wasm
cp -p build/wasm/simhash_core.mjs build/wasm/simhash_core.wasm js/wasm/
# The same module with 32 MB of memory at most, for the out-of-memory tests.
if [ ! -f build/wasm-capped/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm-capped -DCMAKE_BUILD_TYPE=Release -DSIMHASH_WASM_MAXIMUM_MEMORY=33554432 >/dev/null
fi
cmake --build build/wasm-capped -j "$jobs" >/dev/null
