# Sourced by the .ci scripts. install_missing [--no-recommends] WHO PACKAGE... installs the
# Debian packages named (a script's list of what it found missing) with apt-get when run as
# root, and otherwise stops with the exact command to run. Without packages it does nothing.
# With --no-recommends the packages' Recommends are left out, so the caller's list must name
# every package it uses.
install_missing() {
  local options=()
  if [ "${1:-}" = --no-recommends ]; then
    options+=(--no-install-recommends)
    shift
  fi
  local who=$1
  shift
  [ $# -gt 0 ] || return 0
  local packages
  mapfile -t packages < <(printf '%s\n' "$@" | sort -u)
  if [ "$(id -u)" = 0 ]; then
    echo "$who: installing ${packages[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # dpkg syncs each package's files as it unpacks them unless told not to: 40% of the
    # install's time for the WASM build's 1.3 GB on a fresh Debian 12. The risk is files
    # left empty if the machine stops before the kernel has written them out.
    apt-get install -y -qq -o Dpkg::Options::=--force-unsafe-io "${options[@]}" "${packages[@]}" >/dev/null
  else
    echo "$who: missing ${packages[*]}. Run: sudo apt-get update && sudo apt-get install -y ${options[*]}${options[*]:+ }${packages[*]}" >&2
    exit 1
  fi
}
