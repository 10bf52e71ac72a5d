#!/usr/bin/env bash
# The project's own tests: its unit tests plus the suite against the reference driver.
# Extra arguments go to pytest.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 1
cd "$root"
.venv/bin/python -m ruff check . || exit 1
.venv/bin/nnhal-generate --check || exit 1
# --dist worksteal: a worker that runs out of tests takes queued ones from the other, so
# the slow pytester runs of the project's tests, collected last, do not pile up on one
# worker while the other idles (xdist's default hands each worker its share up front).
.venv/bin/python -m pytest -n auto --dist worksteal -p no:cacheprovider --nnhal-profile=ci "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "test: no test ran (pytest exit code 5)" >&2
  exit 1
fi
exit "$status"
