#!/usr/bin/env bash
# Installs the corpora of the quality benchmark (tests/bench/quality.js) when missing:
# Debian's `fortunes` (English quotes; it pulls in `fortunes-min`) and `fortunes-zh`
# (its `chinese` file), both under /usr/share/games/fortunes. As root it runs apt-get;
# otherwise it prints the command to run and exits 1.
set -euo pipefail

dir=/usr/share/games/fortunes
missing=()
[ -f "$dir/computers" ] || missing+=(fortunes) # one of the category files of `fortunes`
[ -f "$dir/chinese" ] || missing+=(fortunes-zh)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "fetch-corpora: installing ${missing[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "fetch-corpora: missing ${missing[*]}. Run: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
