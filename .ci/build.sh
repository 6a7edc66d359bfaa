#!/usr/bin/env bash
# Installs what is missing and builds what `npm test` runs: the WASM module copied into js/wasm/
# (what `import 'simhash-wasm'` loads), its test builds, and the generated CommonJS files.
# Incremental. The suites run the Catch2 suite natively under ASan + UBSan (.ci/sanitize.sh
# builds it), so a plain native build would only repeat it.
# With --native, also the native build: the core, its Catch2 suite and the benchmark programs
# (tests/bench/ runs build/native/simhash_bench; `npm run test:long` the full-size suite).
# With --module, only what the ES modules and the CLI run (`npm start`): the WASM modules in
# js/wasm/, with no test builds, no npm dependencies and no CommonJS files.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/packages.sh

module_only=false native=false
case "${1:-}" in
  '') ;;
  --native) native=true ;;
  --module) module_only=true ;;
  *) echo "usage: .ci/build.sh [--native | --module]" >&2; exit 2 ;;
esac

# What the builds need, without Recommends (clang's llvm-14-dev, Emscripten's numpy, cmake's
# gcc: nothing they use, yet 104 of 316 MB of downloads and 40% of the install's time on a
# fresh Debian 12), so make, which runs the presets' default generator, is named. Configuring
# the WASM build declares its Catch2 suite too, so Catch2's header is needed even for the
# module alone: one configuration of build/wasm serves both modes, and a full build after
# --module only adds to it.
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v make >/dev/null || missing+=(make)
command -v em++ >/dev/null || missing+=(emscripten)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
# The native build.
$native && ! command -v g++ >/dev/null && missing+=(g++)
install_missing --no-recommends build "${missing[@]}"

# The CLI and the ES modules import no npm package; the tests, benchmarks and .ci/cjs.js do.
# npm ci runs while the core and the Catch2 suite build, which need none of them; the
# modules wait for it, since their glue goes through the Closure Compiler package
# (.ci/write-glue.js).
installing=
if ! $module_only && [ -f package-lock.json ] && [ ! -d node_modules ] && grep -q '"devDependencies"' package.json; then
  npm ci --no-audit --no-fund --loglevel=error &
  installing=$!
fi

jobs=$(nproc 2>/dev/null || echo 2)
# Debian's Emscripten needs Debian's acorn for its JS optimizer.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# The presets of CMakePresets.json: native (core, Catch2, bench), wasm (the module js/
# loads; in bench/ the same with the benchmark-only bindings, in capped/ also at 32 MB of
# memory at most, for the out-of-memory tests; and the Catch2 suite for Node), and the build
# preset wasm-module (the modules js/ loads alone, in the wasm preset's build/wasm).
configure=(wasm) build=(wasm)
$module_only && build=(wasm-module)
$native && configure+=(native) build+=(native)
for preset in "${configure[@]}"; do
  [ -f "build/$preset/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
done
if [ -n "$installing" ]; then
  cmake --build --preset wasm --target simhash_tests -j "$jobs" >/dev/null
  wait "$installing"
fi
for preset in "${build[@]}"; do
  cmake --build --preset "$preset" -j "$jobs" >/dev/null
done
# The module every entry loads, and in shared/ the one simhash-wasm/redis loads (CMakeLists.txt).
mkdir -p js/wasm/shared
cp -p build/wasm/simhash_core.mjs build/wasm/simhash_core.wasm cpp/src/text/han_variants.bin js/wasm/
cp -p build/wasm/shared/simhash_core.mjs build/wasm/shared/simhash_core.wasm js/wasm/shared/
# The CommonJS helpers and .d.cts types, generated from the ES modules (npm pack runs it too).
$module_only || node .ci/cjs.js
