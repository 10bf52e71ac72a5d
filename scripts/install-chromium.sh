#!/usr/bin/env bash
# Install headless Chromium and ChromeDriver (Debian's chromium, chromium-driver) for the
# browser test of the HTML report (tests/test_report_browser.py). Needs root or
# passwordless sudo; otherwise it says what to run and exits 1 (under CI=true the
# browser test then fails, elsewhere it skips).
set -uo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  echo "install-chromium: $(chromium --version 2>/dev/null | head -1) already installed"
  exit 0
fi
packages=(chromium chromium-driver fonts-liberation)
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "install-chromium: not root and no passwordless sudo; run as root:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${packages[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "install-chromium: no apt-get here; install Chromium and ChromeDriver another way" >&2
  exit 1
fi
echo "install-chromium: installing ${packages[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
timeout 600 "${as_root[@]}" apt-get update -qq &&
  timeout 900 "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null ||
  { echo "install-chromium: apt-get failed" >&2; exit 1; }
chromium --version 2>/dev/null | head -1
