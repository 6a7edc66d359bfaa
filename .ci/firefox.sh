#!/usr/bin/env bash
# Makes sure Debian's Firefox ESR is there for the browser tests (puppeteer-core drives it
# over WebDriver BiDi; no browser is ever downloaded by a tool). Installs it with apt-get
# when run as root.
set -euo pipefail
browser=${FIREFOX_PATH:-/usr/bin/firefox-esr}
[ -x "$browser" ] && exit 0
source "$(dirname "$0")/packages.sh"
install_missing firefox firefox-esr
