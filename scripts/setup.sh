#!/usr/bin/env bash
# Create .venv (if missing) and install this project into it, with its test tools.
# Sourced by the other scripts; safe to run again (pip skips what is there).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
if [ ! -x "$root/.venv/bin/python" ]; then
  echo "setup: creating $root/.venv with $("$python" --version 2>&1)"
  "$python" -m venv "$root/.venv"
fi
echo "setup: installing nnhal-conformance and its test tools into .venv"
"$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root[test]"
# Bytecode for the generated corpus (megabytes of data modules, loaded by every test
# process): written here once, also where PYTHONDONTWRITEBYTECODE keeps Python from it.
"$root/.venv/bin/python" -m compileall -q -j 0 "$root/conformance/generated" "$root/hal" \
  "$root/reference_driver" >/dev/null
