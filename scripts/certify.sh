#!/usr/bin/env bash
# Certify the bundled reference driver: the whole conformance suite against it, through
# nnhal-certify, which writes the report to nnhal-certification/ (report.html, .json, .md),
# prints the verdict and exits 0 only on CERTIFIED.
# Extra arguments go to nnhal-certify and, those it does not know, to pytest
# (e.g. -k basic, --hal-version=1.1, --driver=pkg.mod:Factory, --jobs=2, --profile=thorough).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit 1
# The driver runs in a contained process; bubblewrap gives it namespaces of its own.
bash "$root/scripts/install-bubblewrap.sh" ||
  echo "certify: no bubblewrap; the run header says which containment is in effect" >&2
cd "$root"
exec .venv/bin/nnhal-certify --driver=reference --out="$root/nnhal-certification" "$@"
