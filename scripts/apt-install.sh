#!/usr/bin/env bash
# apt-install.sh NAME "COMMAND..." PACKAGE...: install Debian PACKAGEs unless every COMMAND
# is already on PATH. Needs root or passwordless sudo; otherwise it says what to run and
# exits 1. Used by install-chromium.sh and install-bubblewrap.sh.
set -uo pipefail
name=$1 commands=$2
shift 2
packages=("$@")
missing=0
for command in $commands; do
  command -v "$command" >/dev/null || missing=1
done
if [ "$missing" -eq 0 ]; then
  echo "$name: already installed ($commands)"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "$name: not root and no passwordless sudo; run as root:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${packages[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "$name: no apt-get here; install ${packages[*]} another way" >&2
  exit 1
fi
echo "$name: installing ${packages[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
timeout 600 "${as_root[@]}" apt-get update -qq &&
  timeout 900 "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null ||
  { echo "$name: apt-get failed" >&2; exit 1; }
