#!/usr/bin/env bash
# Makes sure Debian's redis-server is there for the shared text index's tests, which start
# their own server on a free loopback port (tests/redis/server.js); never a system service.
# Installs it with apt-get when run as root.
set -euo pipefail
[ -x "${REDIS_SERVER_PATH:-/usr/bin/redis-server}" ] && exit 0
source "$(dirname "$0")/packages.sh"
install_missing redis redis-server
