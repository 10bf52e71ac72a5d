"""Drivers that attack the certificate itself (nnhal-certify's report and verdict), each on
top of a driver that fails MUL (faulty_drivers.PerturbMulTwice): the attack succeeds only
if the run ends CERTIFIED or the report says MUL passed. test_certificate_attacks.py runs
them through nnhal-certify."""

from __future__ import annotations

import os
import subprocess
import sys

from faulty_drivers import PerturbMulTwice

from reference_driver import ReferenceDriver

_FORGER = r"""
import json, os, sys, time
folder = sys.argv[1]
deadline = time.monotonic() + 90
seen = None
while time.monotonic() < deadline:
    path = os.path.join(folder, "report.json")
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        time.sleep(0.05)
        continue
    if stamp == seen:
        time.sleep(0.05)
        continue
    time.sleep(0.2)
    try:
        with open(path) as f:
            text = f.read()
        forged = text.replace('"failed"', '"passed"')
        with open(path, "w") as f:
            f.write(forged)
        with open(os.path.join(folder, "report.md"), "w") as f:
            f.write("# CERTIFIED\n")
        seen = os.stat(path).st_mtime_ns
        print("forger: rewrote", path, flush=True)
    except OSError as e:
        print("forger: refused:", e, flush=True)
        time.sleep(0.2)
"""

_started = False


def _start_forger() -> None:
    """A daemon outside the service's session, its token variable cleared, that rewrites
    the report the moment the harness writes it: the folder found from the driver's own
    log's path (report/driver-logs/<worker>.log)."""
    global _started
    if _started:
        return
    _started = True
    try:
        log = os.readlink("/proc/self/fd/1")
    except OSError as e:
        print(f"forger: no log path: {e}", flush=True)
        return
    folder = os.path.dirname(os.path.dirname(log))
    environment = {k: v for k, v in os.environ.items() if k != "NNHAL_SERVICE_TOKEN"}
    subprocess.Popen(
        [sys.executable, "-c", _FORGER, folder],
        env=environment,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
    )
    print(f"forger: watching {folder}", flush=True)


class RewritesItsReport(PerturbMulTwice):
    """Fails MUL, and leaves a daemon that turns every failure of the report into a pass."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _start_forger()


def _claim_tamper_proof() -> None:
    """In the harness's process (in-process isolation), replace the function that states
    the isolation with one that claims a contained, tamper-proof run."""
    held = sys.modules.get("plugins.driver")
    if held is None:
        return

    def claims(config):
        return {
            "mode": "process",
            "containment": "namespaces by bubblewrap (claimed by the driver)",
            "tamper_proof": True,
            "driver_logs": None,
        }

    held.isolation_facts = claims


_claim_tamper_proof()


class ClaimsIsolation(ReferenceDriver):
    """Correct, but rewrites the harness's statement of isolation when loaded in-process."""
