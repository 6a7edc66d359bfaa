#!/usr/bin/env bash
# Usage: .ci/sanitize.sh [--long | --build-only]   (npm run test:asan; npm run test:long passes
# --long; .ci/test.sh builds with --build-only beside the other suites)
#
# Builds the native Catch2 suite with AddressSanitizer + UndefinedBehaviorSanitizer into
# build/asan (CMakePresets.json: native-asan) and runs it with ctest; with --long, only the
# full-size checks of the long suite (Catch2 tag [.full]). Any sanitizer report fails the run.
# With Clang 14, which the WASM build installs (Emscripten's compiler) and compiles the
# instrumented core in 0.6x GCC's time: the whole build in 98 s against 130 s on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
case "${1:-}" in
  "") preset=native-asan ;;
  --long) preset=native-asan-long ;;
  --build-only) build_only=true ;;
  *) echo "usage: $0 [--long | --build-only]" >&2; exit 2 ;;
esac
source .ci/packages.sh

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v clang++-14 >/dev/null || missing+=(clang-14)
# Clang's sanitizer runtimes.
compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-$(uname -m).a" >/dev/null || missing+=(libclang-rt-14-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
install_missing sanitize "${missing[@]}"

jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset native-asan >/dev/null
cmake --build --preset native-asan -j "$jobs" >/dev/null
$build_only || ctest --preset "$preset" -j "$jobs"
