#!/usr/bin/env bash
# Install headless Chromium and ChromeDriver (Debian's chromium, chromium-driver) for the
# browser test of the HTML report (tests/plugin/test_report_browser.py). Needs root or
# passwordless sudo; otherwise it says what to run and exits 1 (under CI=true the
# browser test then fails, elsewhere it skips).
set -uo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/apt-install.sh" install-chromium "chromium chromedriver" \
  chromium chromium-driver fonts-liberation || exit 1
chromium --version 2>/dev/null | head -1
