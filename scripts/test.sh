#!/usr/bin/env bash
# The project's own tests: its unit tests plus the suite against the reference driver.
# Extra arguments go to pytest.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 1
cd "$root"
.venv/bin/python -m ruff check . || exit 1
.venv/bin/nnhal-generate --check || exit 1
.venv/bin/python -m pytest -n auto -p no:cacheprovider --nnhal-profile=ci "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "test: no test ran (pytest exit code 5)" >&2
  exit 1
fi
exit "$status"
