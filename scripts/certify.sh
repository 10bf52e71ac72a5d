#!/usr/bin/env bash
# Certify the bundled reference driver: the whole conformance suite against it.
# Extra arguments go to pytest (e.g. -k basic, --hal-version=1.1, --driver=pkg.mod:Factory).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 1
cd "$root"
.venv/bin/python -m pytest --pyargs conformance --driver=reference -n auto -p no:cacheprovider "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "certify: no test ran (pytest exit code 5): nothing was certified" >&2
  exit 1
fi
exit "$status"
