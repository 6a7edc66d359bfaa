#!/usr/bin/env bash
# `npm test`: builds what the suites run, then runs every suite in order, stopping at the first
# that fails. The sanitizer and fuzz builds and the Catch2 suite under the sanitizers
# (test:asan: .ci/sanitize.sh, .ci/fuzz.sh --build-only) run beside the other suites at the
# lowest priority, on the cores those leave idle (the browsers mostly wait; a suite's own
# processes take a core before them); test:fuzz, which runs for a time, runs last on cores
# of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/build.sh
# The suites' apt-get runs are over before the sanitizer and fuzz builds', which may have
# their own: dpkg takes one at a time.
bash .ci/redis.sh
bash .ci/chromium.sh
bash .ci/firefox.sh
mkdir -p build/logs
log=build/logs/sanitizers.log
# A process group of their own (stopped as one if a suite fails), in this session: a new
# session is a scheduling group of its own (Linux's autogroups), where nice would not hold.
# They start before the first suite, so that every suite's idle moments go to them: they
# need more time than the suites after test:js leave idle.
set -m
nice -n 19 bash -c 'bash .ci/sanitize.sh --build-only && bash .ci/fuzz.sh --build-only && bash .ci/sanitize.sh' >"$log" 2>&1 &
sanitizers=$!
set +m
trap 'kill -- "-$sanitizers" 2>/dev/null || true' EXIT
npm run test:cpp
npm run test:js
npm run test:redis
npm run test:types
npm run test:browser
npm run test:runtimes
if ! wait "$sanitizers"; then
  echo "test: the sanitizer and fuzz builds or test:asan failed; the end of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo "test:asan (beside the suites above; $log): $(grep -E 'tests passed' "$log")"
npm run test:fuzz
