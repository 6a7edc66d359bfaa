#!/usr/bin/env bash
# Makes sure Debian's Chromium is there for the browser tests (playwright-core drives it;
# no browser is ever downloaded by a tool). Installs it with apt-get when run as root.
set -euo pipefail
browser=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$browser" ] && exit 0
source "$(dirname "$0")/packages.sh"
install_missing chromium chromium
