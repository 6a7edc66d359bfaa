#!/usr/bin/env bash
# Makes sure Debian's Chromium is there for the browser tests (playwright-core drives it;
# no browser is ever downloaded by a tool). Installs it with apt-get when run as root.
set -euo pipefail
browser=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "chromium: installing Debian's chromium with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
else
  echo "chromium: $browser missing. Run: sudo apt-get install -y chromium" >&2
  exit 1
fi
