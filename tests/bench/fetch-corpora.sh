#!/usr/bin/env bash
# Installs the corpora of the quality benchmark (tests/bench/quality.js) when missing:
# Debian's `fortunes` (English quotes; it pulls in `fortunes-min`) and `fortunes-zh`
# (its `chinese` file), both under /usr/share/games/fortunes, and `postgresql-doc-15`
# (its HTML manual: the long documents of the similarity benchmarks, quality/corpora.js),
# `manpages-ja` (Japanese one-line texts: its sentences) and `debian-reference-ja` and
# `debian-reference-zh-cn` (Japanese and Chinese documents) for the light-edit protocol
# (tests/bench/light-edits.js).
# Also, for `dedup.js --natural`, apt's English package descriptions (Translation-en, which
# Debian's container images do not fetch: tests/bench/natural-collections.js).
# With --tests, only what tests/js reads: fortunes and fortunes-zh.
# As root it runs apt-get;
# otherwise it prints the command to run and exits 1. `npm run test:js` runs it with --tests
# (the worker-pool and fingerprint tests read real fortunes).
set -euo pipefail

dir=/usr/share/games/fortunes
missing=()
[ -f "$dir/computers" ] || missing+=(fortunes) # one of the category files of `fortunes`
[ -f "$dir/chinese" ] || missing+=(fortunes-zh)
if [ "${1:-}" != --tests ]; then
  [ -f /usr/share/doc/postgresql-doc-15/html/index.html ] || missing+=(postgresql-doc-15)
  [ -d /usr/share/man/ja/man1 ] || missing+=(manpages-ja)
  [ -f /usr/share/debian-reference/ch01.ja.html ] || missing+=(debian-reference-ja)
  [ -f /usr/share/debian-reference/ch01.zh-cn.html ] || missing+=(debian-reference-zh-cn)
fi
source "$(dirname "$0")/../../.ci/packages.sh"
install_missing fetch-corpora "${missing[@]}"
if [ "${1:-}" != --tests ] && ! ls /var/lib/apt/lists/*_i18n_Translation-en* >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "fetch-corpora: fetching apt's English package descriptions" >&2
    apt-get update -qq -o Acquire::Languages=en >/dev/null
  else
    echo "fetch-corpora: no English package descriptions. Run: sudo apt-get update -o Acquire::Languages=en" >&2
    exit 1
  fi
fi
