#!/usr/bin/env bash
# Install bubblewrap (Debian's bubblewrap: bwrap), with which --driver-isolation=process
# runs the driver in namespaces of its own (isolation/sandbox.py). Needs root or
# passwordless sudo; otherwise it says what to run and exits 1 (without it the driver is
# contained by unshare or a process group only, and under CI=true the containment tests
# fail).
set -uo pipefail
bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" install-bubblewrap bwrap bubblewrap
