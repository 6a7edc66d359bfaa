#!/usr/bin/env bash
# Usage: .ci/fuzz.sh [--seeds] [SECONDS] | --build-only   (npm run fuzz; npm run test:fuzz runs 5 s
# per target from the seeds, test:long 120 s; .ci/test.sh builds with --build-only beside the
# other suites)
#
# Builds the libFuzzer targets of tests/fuzz with Clang 14 under ASan + UBSan into
# build/fuzz (CMakePresets.json: fuzz) and runs each for SECONDS (default 60), and beside
# them the JS targets (tests/fuzz/fuzz_*.js: the records' keys, the look-alike rule). The
# checked-in seeds in tests/fuzz/corpus/<target> are only read; what the fuzzer finds
# accumulates in build/fuzz/corpus/<target>, so later runs continue from there. With --seeds, a
# run starts from the checked-in seeds alone and keeps nothing, so that it costs the same in
# every checkout (replaying an accumulated corpus can take a minute).
# Exits 1 when any target crashes, leaks, hangs or fails a check, after naming the input
# that did it (under build/fuzz/crashes/<target>/) and the command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/packages.sh

seeds_only=false build_only=false
if [ "${1:-}" = --build-only ]; then
  build_only=true
  shift
elif [ "${1:-}" = --seeds ]; then
  seeds_only=true
  shift
fi
seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [--seeds] [SECONDS per target, default 60]" >&2
  exit 2
fi

# libclang-rt-14-dev has the sanitizer and libFuzzer runtimes and FuzzedDataProvider.h.
llvm=/usr/lib/llvm-14
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v clang++-14 >/dev/null || missing+=(clang-14)
compgen -G "$llvm/lib/clang/*/lib/linux/libclang_rt.fuzzer-$(uname -m).a" >/dev/null || missing+=(libclang-rt-14-dev)
compgen -G "$llvm/lib/clang/*/include/fuzzer/FuzzedDataProvider.h" >/dev/null || missing+=(libclang-rt-14-dev)
[ -f "$llvm/lib/libFuzzer.a" ] || missing+=(libfuzzer-14-dev)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
install_missing fuzz "${missing[@]}"

targets=(fuzz_fingerprint fuzz_index fuzz_idf fuzz_text_index fuzz_short fuzz_record_keys fuzz_look_alikes)
jobs=$(nproc 2>/dev/null || echo 2)
# Builds exactly the targets it runs, and the seed writer.
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs" >/dev/null
$build_only && exit 0

# Runs one target for $seconds; its log and what it found go under build/fuzz/.
run_target() {
  local target=$1
  local corpus=build/fuzz/corpus/$target crashes=build/fuzz/crashes/$target
  $seeds_only && corpus=$scratch/$target
  mkdir -p "$corpus" "$crashes" build/fuzz/logs
  touch "build/fuzz/logs/$target.started"
  if [ -f "tests/fuzz/$target.js" ]; then
    # A JS target is a script of its own (tests/fuzz/js-fuzz.js), from a fixed seed with
    # --seeds, else from one it draws and prints.
    local seed=()
    $seeds_only && seed=(--seed=1)
    node "tests/fuzz/$target.js" "$seconds" "${seed[@]}" >"build/fuzz/logs/$target.log" 2>&1
    return
  fi
  # -timeout: one input taking 10 s is a hang; the issue asks for none.
  build/fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" "tests/fuzz/corpus/$target" >"build/fuzz/logs/$target.log" 2>&1
}

# Reports a target's run from its log and exit status; returns the status.
report_target() {
  local target=$1 code=$2
  local crashes=build/fuzz/crashes/$target log=build/fuzz/logs/$target.log
  if [ -f "tests/fuzz/$target.js" ]; then
    [ "$code" = 0 ] && tail -n 1 "$log" >&2 && return 0
    echo "fuzz: $target FAILED:" >&2
    tail -n 5 "$log" >&2
    return 1
  fi
  if [ "$code" = 0 ]; then
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    echo "fuzz: $target ok: $runs runs, $rate exec/s, $(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9A-Za-z]+' <<<"$last")" >&2
    return 0
  fi
  echo "fuzz: $target FAILED; end of $log:" >&2
  grep -vE '^#[0-9]+|^"|Uses: ' "$log" | tail -n 40 >&2
  found=$(find "$crashes" -type f -newer "build/fuzz/logs/$target.started" | sort)
  if [ -n "$found" ]; then
    echo "fuzz: failing input(s); replay with build/fuzz/$target FILE:" >&2
    echo "$found" | sed 's/^/  /' >&2
  fi
  return 1
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# As many targets at once as there are cores (each fuzzer is one process on one core),
# so every target still gets $seconds of a core.
status=0
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
  batch=("${targets[@]:first:jobs}")
  pids=()
  for target in "${batch[@]}"; do
    echo "fuzz: $target for ${seconds}s (log: build/fuzz/logs/$target.log)" >&2
    run_target "$target" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    code=0
    wait "${pids[k]}" || code=$?
    report_target "${batch[k]}" "$code" || status=1
  done
done
exit $status
