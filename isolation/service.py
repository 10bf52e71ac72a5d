"""The driver service: hosts one driver in its own process, for process isolation.

``python -m isolation.service --driver SPEC --socket FD-or-PATH [--timeout S]``
loads the driver through ``hal.loader`` (the same loader as the plugin),
greets the harness on the socket with the device's level and interfaces, and
then serves calls (``isolation.channel``) until the harness closes the channel. A
driver that fails to load is reported in the greeting with the loader's
one-line message. The harness (``isolation.proxy.DriverService``) starts it with an
inherited socket descriptor; a path connects to a listening Unix socket
instead, for running a service by hand.

When the channel closes the process exits at once, without waiting for driver
threads that may be stuck. faulthandler is on, so a crash leaves a traceback
on stderr.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import socket
import sys
import threading

from hal.callbacks import DEFAULT_TIMEOUT
from hal.loader import DriverLoadError, load_driver
from isolation.channel import Connection, interfaces_of
from isolation.proxy import make_remote_proxy


def _connect(target: str) -> socket.socket:
    if target.isdigit():
        return socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, fileno=int(target))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(target)
    return sock


def serve(sock: socket.socket, spec: str | None, timeout: float, folder: str | None = None) -> None:
    """Load the driver, greet, and serve until the channel closes."""
    done = threading.Event()
    connection = Connection(
        sock,
        f"harness of service pid {os.getpid()}",
        make_remote_proxy,
        lambda _connection, reason: done.set() or reason,
        timeout,
        deltas="accept",
    )
    try:
        loaded = load_driver(spec, folder)
    except DriverLoadError as e:
        connection.send_hello(("error", str(e)))
        connection.close()
        return
    connection.send_hello(
        (
            "ok",
            {
                "spec": loaded.spec,
                "level": int(loaded.level),
                "is_default": loaded.is_default,
                "interfaces": interfaces_of(loaded.device),
                "class_name": type(loaded.device).__name__,
                "pid": os.getpid(),
                "device": loaded.device,
            },
        )
    )
    connection.start()
    done.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m isolation.service", description="Host an NN HAL driver in this process."
    )
    parser.add_argument("--driver", metavar="SPEC", default=None, help="module:Factory or name")
    parser.add_argument(
        "--socket", required=True, metavar="FD-OR-PATH", help="inherited socket fd or socket path"
    )
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="call timeout (s)")
    parser.add_argument(
        "--folder",
        default=None,
        help="the harness's folder: searched for the driver's module as the harness would "
        "(default: this process's current folder)",
    )
    args = parser.parse_args(argv)
    faulthandler.enable()
    sock = _connect(args.socket)
    serve(sock, args.driver, args.timeout, args.folder)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # driver threads may be stuck; nothing of theirs is worth waiting for


if __name__ == "__main__":
    sys.exit(main())
