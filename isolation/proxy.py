"""Proxies: driver objects the harness calls through a guard instead of directly.

A proxy implements the same interfaces of ``hal.interfaces`` as the object it
stands for (so ``device_level`` and every ``isinstance`` check of the suite see
the driver's real level), is named after that object's class (so messages read
``ReferenceDriver.get_type raised ...`` in every mode), and forwards each HAL
method through its link. Two guards use them:

* ``DriverService`` (``--driver-isolation=process``) runs the driver in a
  child process (``python -m isolation.service``) and talks to it over a Unix socket
  (``isolation.channel``): descriptors cross as SCM_RIGHTS, callbacks come back as
  messages, prepared models, burst contexts and buffers are remote objects.
  A call that does not return within the timeout kills the service
  (``DriverTimeout``); a service that dies ends every waiting call with
  ``DriverCrashed`` naming the signal or exit status and the method. Each
  fault is recorded in ``faults``; ``ensure_running`` starts a fresh service.
  The harness may also be waiting on the dead service outside any call: for a
  callback it handed over (an execution's or a preparation's notify) or for a
  burst's result. Those waits end too, by the means each wait has of ending:
  the callbacks are abandoned (``hal.callbacks``: their waits raise the
  ``DriverCrashed`` at once) and the burst queues are shut down (their waits
  raise ``FmqClosed``). Nothing is raised into the waiting thread from outside.
* ``InProcessGuard`` (``--driver-isolation=none``, the default) calls the
  driver in this process, each call on a worker thread waited for with the
  timeout: a hung call is abandoned in its thread and raises ``DriverTimeout``.

Both unwrap a proxy passed back to the driver (``allocate``'s prepared
models), so the driver always sees its own objects.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hal.fmq import FmqDescriptor, FmqError, MessageQueue
from hal.interfaces import IPreparedModelCallback
from hal.levels import LEVELS
from hal.loader import DriverLoadError, LoadedDriver
from hal.show import printable
from hal.types import HalVersion
from isolation.channel import (
    INTERFACES,
    Connection,
    DriverCrashed,
    DriverFault,
    DriverTimeout,
    RemoteError,
    Workers,
    interface_methods,
    interfaces_of,
    oneway_methods,
    remote_error,
)
from isolation.sandbox import (
    Cgroup,
    Sandbox,
    TreeWatch,
    View,
    descendants,
    kill_service,
    make_workdir,
    new_token,
    python_paths,
    remove_workdir,
    resident_mb_of,
    service_environment,
)

OUTPUT_LIMIT = 1000
"""Most bytes of the driver service's own output shown with one failed test."""
SETTLE_TIMEOUT = 2.0
"""Longest wait, after an item that failed, for the death of a service whose process has
exited to be recorded (``DriverService.settle``)."""
START_TIMEOUT = 60.0
"""Seconds a driver service may take to import and build its driver."""


@dataclass(frozen=True)
class Fault:
    """A crash or hang seen by a guard: the report outcome, the method, the sentence."""

    kind: str
    method: str
    message: str


class Proxy:
    """Base of every proxy class: holds the link its HAL methods go through."""

    def __init__(self, link: object) -> None:
        self._nnhal_link = link

    @staticmethod
    def _nnhal_sequence(calls: Sequence[tuple[object, str, tuple]]) -> list[tuple[bool, object]]:
        """Calls of proxies made in order, in one round trip where it can be (the suite's
        ``call_many`` finds it here, so the suite needs no import of this package)."""
        return invoke_sequence(calls)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} proxy ({self._nnhal_link.describe()})>"


MAX_PROXY_CLASSES = 256
"""Proxy classes kept, one per (interfaces, class name) met, the least recently used
dropped past this many (and made again if their name comes back). A driver has a
handful; one answer of 300,000 objects of distinct class names once made and kept a
class for each for the run (68 s, 2.8 GB). With the table bounded (and at most 4,096
remote objects in a message), such an answer costs a bounded amount, and every proxy
still bears its class's name."""


@functools.lru_cache(maxsize=MAX_PROXY_CLASSES)
def proxy_class(names: tuple[str, ...], class_name: str) -> type:
    """The proxy class for objects implementing the interfaces ``names``."""
    bases = tuple(INTERFACES[name] for name in names)
    namespace = {method: _forwarder(method, bases) for method in interface_methods(names)}
    namespace["__module__"] = __name__
    name = class_name if class_name.isidentifier() else "RemoteObject"
    return type(name, (Proxy, *bases), namespace)


def _forwarder(method: str, bases: tuple[type, ...]):
    declared = next(getattr(base, method) for base in bases if hasattr(base, method))
    signature = inspect.signature(declared)

    def forward(self, *args, **kwargs):
        if kwargs:
            args = signature.bind(self, *args, **kwargs).args[1:]
        return self._nnhal_link.invoke(method, args)

    forward.__name__ = forward.__qualname__ = method
    forward.__doc__ = declared.__doc__
    return forward


def is_proxy(obj: object) -> bool:
    return isinstance(obj, Proxy)


# ---------------------------------------------------------------------------
# Process isolation
# ---------------------------------------------------------------------------


class RemoteLink:
    """A proxy's way to its object in the process at the other end of ``connection``."""

    def __init__(self, connection: Connection, remote_id: int) -> None:
        self.connection = connection
        self.remote_id = remote_id
        self.received = [1]
        self.origin: tuple[str, tuple] | None = None
        """For a prepared model: the prepare call that made it, to redo after a restart."""
        self._successor: Proxy | None = None
        self.oneway: frozenset[str] = frozenset()
        """Its ``oneway`` methods (a callback's notify): posted, not waited for."""

    def remote_target(self, connection: Connection) -> int | None:
        return self.remote_id if connection is self.connection else None

    def describe(self) -> str:
        return f"object {self.remote_id} of {self.connection.name}"

    def invoke(self, method: str, args: tuple) -> object:
        connection = self.connection
        owner = connection.owner
        if connection.closed and self.origin is not None and isinstance(owner, DriverService):
            self._prepare_again(owner)
            connection = self.connection
        if method in self.oneway:
            return connection.post(self.remote_id, method, args)
        if isinstance(owner, DriverService):
            if owner.admit is not None:
                owner.admit(method)
            if method in _QUEUE_METHODS:
                owner.handing_over(connection, args)
        try:
            return connection.call(self.remote_id, method, args, connection.timeout)
        except DriverTimeout as fault:
            if isinstance(owner, DriverService):
                owner.hung(connection, fault)
            raise
        except RemoteError as error:
            if type(error).__name__ == "MemoryError" and isinstance(owner, DriverService):
                owner.out_of_memory(connection, method)
            raise

    def _prepare_again(self, service: DriverService) -> None:
        """Rebind to the same model prepared again in the service running now.

        The suite keeps prepared models across tests; after a restart this keeps
        one crash from failing every later test that reuses a cached model. If
        there is no new service yet, or preparing fails, the call reports the
        original crash.
        """
        if not service.alive or service.connection is self.connection:
            return
        successor = service.prepare_again(*self.origin)
        if successor is not None:
            link = successor._nnhal_link
            self.connection, self.remote_id, self._successor = (
                link.connection,
                link.remote_id,
                successor,
            )


def invoke_sequence(calls: Sequence[tuple[object, str, tuple]]) -> list[tuple[bool, object]]:
    """Run ``calls`` (proxy, method, args) one after another: each call's (True, answer)
    or (False, what it raised). When every call goes to an object of the one running
    driver service, they cross in one frame and run in order on one thread of the
    service; otherwise they are made one by one. A DriverFault (hang, crash) ends the
    list: the calls after it are not made.
    """
    routed = [_route(proxy, method, args) for proxy, method, args in calls]
    connections = {id(route[0]) for route in routed if route is not None}
    if not calls or None in routed or len(connections) != 1:
        return _one_by_one(calls)
    connection = routed[0][0]
    owner = connection.owner if isinstance(connection.owner, DriverService) else None
    if owner is not None and owner.admit is not None:
        for _, method, _ in calls:
            owner.admit(method)
    if owner is not None:
        for _, _, method, args in routed:
            if method in _QUEUE_METHODS:
                owner.handing_over(connection, args)
    outcomes = connection.call_sequence(
        [(target, method, args) for _, target, method, args in routed], connection.timeout
    )
    for index, (ok, value) in enumerate(outcomes):
        if owner is not None and isinstance(value, DriverTimeout):
            owner.hung(connection, value)
        elif owner is not None and not ok and type(value).__name__ == "MemoryError":
            owner.out_of_memory(connection, calls[index][1])
        if isinstance(value, DriverFault):
            return outcomes[: index + 1]
    return outcomes


def _route(proxy: object, method: str, args: tuple) -> tuple[Connection, int, str, tuple] | None:
    """Where a call of a sequence goes (connection, object id, method, args); None if it
    cannot join one (not a remote object, a one-way method, a connection that broke)."""
    link = getattr(proxy, "_nnhal_link", None)
    if isinstance(link, _ServiceLink):
        service = link._service
        if service.connection is None or service.connection.closed:
            return None
        return service.connection, service.device_id, method, link.arguments(method, args)
    if isinstance(link, RemoteLink) and not link.connection.closed and method not in link.oneway:
        return link.connection, link.remote_id, method, args
    return None


def _one_by_one(calls: Sequence[tuple[object, str, tuple]]) -> list[tuple[bool, object]]:
    outcomes: list[tuple[bool, object]] = []
    for proxy, method, args in calls:
        try:
            outcomes.append((True, getattr(proxy, method)(*args)))
        except DriverFault as fault:
            outcomes.append((False, fault))
            break
        except Exception as error:
            outcomes.append((False, error))
    return outcomes


def make_remote_proxy(
    connection: Connection, remote_id: int, names: tuple[str, ...], class_name: str
) -> Proxy:
    """The proxy of remote object ``remote_id``; collecting it releases the object."""
    link = RemoteLink(connection, remote_id)
    link.oneway = oneway_methods(names)
    proxy = proxy_class(names, class_name)(link)
    finalizer = weakref.finalize(proxy, connection.forget_proxy, remote_id, link.received)
    finalizer.atexit = False
    return proxy


class _ServiceLink:
    """The device proxy's link: to the device of whichever service is running now."""

    def __init__(self, service: DriverService) -> None:
        self._service = service

    def remote_target(self, connection: Connection) -> int | None:
        current = self._service.connection
        return self._service.device_id if connection is current else None

    def describe(self) -> str:
        return f"device of driver service pid {self._service.pid}"

    def arguments(self, method: str, args: tuple) -> tuple:
        """``args`` as sent: a prepare callback tagged with the call that prepares."""
        if method in _PREPARE_METHODS and args and isinstance(args[-1], IPreparedModelCallback):
            return (*args[:-1], _OriginCallback(args[-1], (method, _undated(method, args[:-1]))))
        return args

    def invoke(self, method: str, args: tuple) -> object:
        return RemoteLink(self._service.connection, self._service.device_id).invoke(
            method, self.arguments(method, args)
        )


_PREPARE_METHODS = frozenset(record.prepare for record in LEVELS)

_DEADLINES = {
    record.prepare: position
    for record in LEVELS
    if callable(getattr(record.device, record.prepare, None))
    for position, name in enumerate(
        list(inspect.signature(getattr(record.device, record.prepare)).parameters)[1:]
    )
    if name == "deadline"
}
"""The position of the deadline among a prepare method's arguments (1.3's), by method."""


def _undated(method: str, args: tuple) -> tuple:
    """A prepare call's arguments as redone after a restart: without its deadline, long
    past by then (a prepared model the suite kept is prepared again as it was, but late)."""
    position = _DEADLINES.get(method)
    if position is None or position >= len(args):
        return args
    return (*args[:position], None, *args[position + 1 :])


class _Origin:
    """Stands in for the harness's prepare callback: tags the prepared model it gets
    with the call that made it, then hands both on (``_OriginCallback`` adds one method
    per notify method of ``IPreparedModelCallback``)."""

    def __init__(self, inner: IPreparedModelCallback, origin: tuple[str, tuple]) -> None:
        self._inner = inner
        self._origin = origin

    def _tag(self, prepared: object) -> None:
        link = getattr(prepared, "_nnhal_link", None)
        if isinstance(link, RemoteLink):
            link.origin = self._origin


def _tagging(name: str):
    def notify(self: _Origin, status, prepared_model) -> None:
        self._tag(prepared_model)
        return getattr(self._inner, name)(status, prepared_model)

    notify.__name__ = notify.__qualname__ = name
    return notify


_OriginCallback = type(
    "_OriginCallback",
    (_Origin, IPreparedModelCallback),
    {
        "__module__": __name__,
        # Every notify method of the interface (one per level that has its own).
        **{name: _tagging(name) for name in sorted(IPreparedModelCallback.__abstractmethods__)},
    },
)


_QUEUE_METHODS = frozenset({"configure_execution_burst"})
"""The calls that hand the service burst queues (``FmqDescriptor`` arguments)."""


class _SentQueue:
    """A burst queue handed to a service: its descriptor (the harness's own descriptors)
    and the identity of its ring, to tell the queue from a later file under its numbers."""

    def __init__(self, descriptor: FmqDescriptor, identity: tuple[int, int]) -> None:
        self.descriptor = descriptor
        self.identity = identity

    @classmethod
    def of(cls, descriptor: FmqDescriptor) -> _SentQueue | None:
        identity = _file_identity(descriptor.handle.fds[0]) if descriptor.handle.fds else None
        return cls(descriptor, identity) if identity is not None else None

    @property
    def open(self) -> bool:
        """Whether the harness still holds the queue (its ring under the same number)."""
        return _file_identity(self.descriptor.handle.fds[0]) == self.identity

    def attach(self) -> MessageQueue | None:
        """An end of the queue of this process's own (None if it was closed meanwhile)."""
        if not self.open:
            return None
        try:
            return MessageQueue.attach(self.descriptor)
        except FmqError:
            return None


def _file_identity(fd: object) -> tuple[int, int] | None:
    try:
        status = os.fstat(fd)
    except (OSError, TypeError, ValueError):
        return None
    return status.st_dev, status.st_ino


class _Waits:
    """What the harness may wait on from one service process outside a call: the callbacks
    sent to it (objects with ``abandon``, ``hal.callbacks``), the burst queues handed
    to it and the sync fences it handed back (``execute_fenced``'s). ``end`` ends those
    waits when the service is gone: each callback is abandoned (its wait raises the
    error at once), each queue still open is shut down (its waits raise ``FmqClosed``,
    which the burst reports as a shut-down channel), each fence still active is put
    into the error state (no one is left to signal it: its waits end at once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: weakref.WeakSet = weakref.WeakSet()
        self._queues: list[_SentQueue] = []
        self._fences: weakref.WeakSet = weakref.WeakSet()
        self._ended = False

    def fences_received(self, fences: list) -> None:
        """``Connection.on_fences``: the service sent these fences."""
        with self._lock:
            if not self._ended:
                self._fences.update(fences)

    def exported(self, obj: object) -> None:
        """``Connection.on_export``: ``obj`` was sent to the service."""
        if isinstance(obj, _OriginCallback):
            obj = obj._inner  # the harness's own callback, which the wrapper may not outlive
        if callable(getattr(obj, "abandon", None)):
            with self._lock:
                if not self._ended:
                    self._callbacks.add(obj)

    def queues_sent(self, args: Sequence) -> None:
        sent = [_SentQueue.of(arg) for arg in args if isinstance(arg, FmqDescriptor)]
        with self._lock:
            if not self._ended:
                # Forget the queues the harness closed since (a queue lives one burst).
                self._queues = [q for q in self._queues if q.open]
                self._queues += [q for q in sent if q is not None]

    def end(self, error: Callable[[], BaseException]) -> None:
        """The service is gone: end every wait on it, each with a fresh ``error()``."""
        with self._lock:
            self._ended = True
            callbacks, self._callbacks = list(self._callbacks), weakref.WeakSet()
            queues, self._queues = self._queues, []
            fences, self._fences = list(self._fences), weakref.WeakSet()
        for fence in fences:
            with contextlib.suppress(Exception):  # closed by the harness meanwhile
                fence.signal_error()
        # Our own ends first: once a wait ends, the harness may close its queues and the
        # numbers may be reused.
        ends = [end for end in (queue.attach() for queue in queues) if end is not None]
        for callback in callbacks:
            with contextlib.suppress(Exception):
                callback.abandon(error())
        for end in ends:
            with contextlib.suppress(Exception):
                end.shutdown()
            end.close()


class _Spawner:
    """Starts service processes from one long-lived thread.

    The kernel's parent-death signal follows the *thread* that forked a child: a
    service started from a thread that later ends would be killed with it. One
    daemon thread that lives as long as the harness starts them all.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def run(self, start: Callable[[], subprocess.Popen]) -> subprocess.Popen:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name="nnhal-service-spawner", daemon=True
                )
                self._thread.start()
        done = threading.Event()
        answer: list = []
        self._tasks.put((start, answer, done))
        done.wait()
        if isinstance(answer[0], BaseException):
            raise answer[0]
        return answer[0]

    def _serve(self) -> None:
        while True:
            start, answer, done = self._tasks.get()
            try:
                answer.append(start())
            except BaseException as e:  # handed back to the caller's thread
                answer.append(e)
            done.set()


_SPAWNER = _Spawner()


class DriverService:
    """The driver under test, hosted in a child process and restarted after a fault.

    ``start`` launches ``python -m isolation.service`` with the harness's import path
    and returns the ``LoadedDriver`` whose device is a proxy; that one proxy
    stays valid across restarts (prepared models and other remote objects of
    a dead service raise ``DriverCrashed``).
    """

    def __init__(
        self,
        spec: str | None,
        timeout: float,
        start_timeout: float = START_TIMEOUT,
        sandbox: Sandbox | None = None,
        log_path: str | None = None,
        folder: str | None = None,
        hidden: Sequence[str] = (),
    ):
        self.spec = spec
        self.folder = os.path.abspath(folder or os.getcwd())
        """The driver's folder: where its module is looked for; visible to it, read-only."""
        self.hidden = tuple(hidden)
        """Paths the driver's view shows empty (the suite, the reports, the harness's folder)."""
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.sandbox = sandbox or Sandbox()
        """The containment every service process of this driver runs in."""
        self.log_path = log_path
        """Where the services' stdout and stderr go (appended; a temporary file if None)."""
        self._workdir: str | None = None
        self._workdir_end: Callable[[], object] = _nothing
        self._log: int | None = None
        self._log_end: Callable[[], object] = _nothing
        self._token: str | None = None
        self._cgroup: Cgroup | None = None
        self._oom_seen: dict[int, int] = {}
        self._watch: TreeWatch | None = None
        self._own_log = False
        self.faults: list[Fault] = []
        self.admit: Callable[[str], None] | None = None
        """Called with the method's name before each call into the driver; it may raise
        to refuse the call (the plugin's hang breaker)."""
        self.on_hang: Callable[[str, str], None] | None = None
        """Called with the method's name and the fault's message when a driver call hangs
        (the plugin's hang breaker counts it at once)."""
        self.connection: Connection | None = None
        self.process: subprocess.Popen | None = None
        self.device_id = 0
        self.restarts = 0
        self._device_proxy: Proxy | None = None
        self._device_remote: object = None
        self._ending: dict[int, str] = {}  # id(connection) -> why we are killing it
        self._waits: dict[int, _Waits] = {}  # id(connection) -> what may wait on its service
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self) -> LoadedDriver:
        """Launch the service and load the driver in it; DriverLoadError if that fails."""
        hello = self._launch()
        names, class_name = hello["interfaces"], hello["class_name"]
        self._device_proxy = proxy_class(tuple(names), class_name)(_ServiceLink(self))
        return LoadedDriver(
            hello["spec"], self._device_proxy, HalVersion(hello["level"]), hello["is_default"]
        )

    def _launch(self) -> dict:
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        command = [sys.executable, "-m", "isolation.service", "--socket", str(child.fileno())]
        command += ["--timeout", repr(self.timeout), "--folder", self.folder]
        if self.spec is not None:
            command += ["--driver", self.spec]
        self._end_tree()
        self._end_workdir()
        workdir = self._workdir = make_workdir()
        # Run by close or the next launch, else when this object goes or the interpreter
        # exits: a service never closed leaves no folder behind.
        self._workdir_end = weakref.finalize(self, remove_workdir, workdir)
        token = self._token = new_token()
        # The service imports the driver exactly as the harness would, and nothing of the
        # harness's environment but what a driver needs (sandbox.service_environment).
        pythonpath = os.pathsep.join(path or os.getcwd() for path in sys.path)
        environment = service_environment(workdir, token, pythonpath)
        view = View(workdir, keep=(self.folder, *python_paths()), hidden=self.hidden)
        cgroup = self._cgroup = self.sandbox.cgroup(token)
        log = self._log_fd()  # before the view: the log's folder may be one it hides
        try:
            process = _SPAWNER.run(
                lambda: subprocess.Popen(
                    self.sandbox.command(command, view),
                    pass_fds=[child.fileno()],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=workdir,
                    env=environment,
                    # Its own session: the harness's signals and Ctrl-C do not reach it, and
                    # the group is killed as one.
                    start_new_session=True,
                    preexec_fn=functools.partial(self.sandbox.preexec, cgroup),
                )
            )
        finally:
            child.close()
        connection = Connection(
            parent,
            f"driver service pid {process.pid}",
            make_remote_proxy,
            self._lost,
            self.timeout,
            self,
            deltas="send",
        )
        waits = _Waits()
        connection.on_export = waits.exported
        connection.on_fences = waits.fences_received
        with self._lock:
            self._waits[id(connection)] = waits
        self.process, self.connection = process, connection
        if cgroup is None:
            self._watch = TreeWatch(
                process.pid,
                token,
                self.sandbox.limits,
                functools.partial(self._overgrown, connection),
            )
        connection.start()
        try:
            hello = connection.wait_hello(self.start_timeout)
        except DriverTimeout:
            self._kill(connection, "the driver service did not start in time")
            raise DriverLoadError(
                f"--driver={self._spec_text()}: the driver service did not answer within "
                f"{self.start_timeout:g} s of starting"
            ) from None
        if hello is None:
            raise DriverLoadError(
                f"--driver={self._spec_text()}: the driver service failed to start: "
                f"{connection.lost}"
            )
        if not (isinstance(hello, tuple) and len(hello) == 2 and isinstance(hello[1], dict | str)):
            self._kill(connection, "the driver service sent a malformed greeting")
            raise DriverLoadError(f"--driver={self._spec_text()}: malformed service greeting")
        if hello[0] == "error":
            self._kill(connection, "the driver could not be loaded")
            raise DriverLoadError(str(hello[1]))
        self._device_remote = hello[1]["device"]
        self.device_id = self._device_remote._nnhal_link.remote_id
        return hello[1]

    def _spec_text(self) -> str:
        return self.spec if self.spec is not None else "reference"

    def ensure_running(self) -> bool:
        """Start a fresh service if the current one died or was killed; True if it did."""
        if self.connection is not None and not self.connection.closed:
            return False
        self._launch()
        self.restarts += 1
        return True

    @property
    def alive(self) -> bool:
        return self.connection is not None and not self.connection.closed

    def settle(self, timeout: float = SETTLE_TIMEOUT) -> None:
        """When the service's process has exited but its channel's end is not yet seen (a
        wait ended by another sign of the death, such as a burst's result queue closing),
        wait up to ``timeout`` seconds for it, so that the crash is recorded in the item
        that met it, not in the next one."""
        process, connection = self.process, self.connection
        if process is None or connection is None or connection.closed:
            return
        if process.poll() is None:
            return
        deadline = time.monotonic() + timeout
        while not connection.closed and time.monotonic() < deadline:
            time.sleep(0.005)

    def prepare_again(self, method: str, args: tuple) -> Proxy | None:
        """``method(*args)`` on the running service's device: its prepared model, or None."""
        from hal.callbacks import CallbackTimeout, PreparedModelCallback

        callback = PreparedModelCallback()
        device = RemoteLink(self.connection, self.device_id)
        try:
            device.invoke(method, (*args, callback))
            notification = callback.wait(self.timeout)
        except (DriverFault, CallbackTimeout, Exception):
            return None
        prepared = notification.prepared_model
        return prepared if isinstance(getattr(prepared, "_nnhal_link", None), RemoteLink) else None

    def restart_now(self, why: str) -> None:
        """Kill the running service; the next ``ensure_running`` starts a fresh one."""
        if self.connection is not None:
            self._kill(self.connection, why)

    def hung(self, connection: Connection, fault: DriverTimeout) -> None:
        """A call on ``connection`` timed out: record it and kill that service."""
        message = f"{fault.message}; the driver service was killed and is restarted"
        self._record(Fault("timeout", fault.method, message))
        if self.on_hang is not None:
            self.on_hang(fault.method, message)
        self._kill(connection, f"driver service killed after driver call {fault.method} hung")

    def out_of_memory(self, connection: Connection, method: str) -> None:
        """A call on ``connection`` hit the address-space limit: record it, restart."""
        limit = self.sandbox.limits.address_space_mb
        self._record(
            Fault(
                "memory",
                method,
                f"driver memory: the driver service ran out of its address-space limit of "
                f"{limit:g} MB during {method} (--driver-memory-limit); the service was "
                "restarted",
            )
        )
        self._kill(connection, f"driver service killed after {method} ran out of memory")

    def _kill(self, connection: Connection, why: str) -> None:
        with self._lock:
            self._ending.setdefault(id(connection), why)
        process = self.process if connection is self.connection else None
        if process is not None:
            kill_service(process.pid, self._token, self._cgroup)
        connection.close()
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
            self._end_tree()

    def _overgrown(self, connection: Connection, what: str, problem: str) -> None:
        """The tree watch found the service's process tree over a limit (``what``: memory or
        processes): record it, restart."""
        method = connection.last_method or ""
        during = f" during {method}" if connection.pending_methods() else ""
        option = " (--driver-memory-limit)" if what == "memory" else ""
        self._record(
            Fault(
                "memory",
                method,
                f"driver {what}: the driver service's process tree held {problem}{during}"
                f"{option}; the service was killed and is restarted",
            )
        )
        self._kill(connection, f"driver service killed for its process tree's {what}")

    def tree_fault(self) -> Fault | None:
        """A Fault when the kernel killed processes of the service's tree for going over its
        memory limit since the last question (known where a control group bounds it)."""
        cgroup = self._cgroup
        if cgroup is None:
            return None
        killed = cgroup.oom_kills()
        seen, self._oom_seen = self._oom_seen.get(id(cgroup), 0), {id(cgroup): killed}
        if killed <= seen:
            return None
        limit = self.sandbox.limits.address_space_mb
        return Fault(
            "memory",
            "",
            f"driver memory: the kernel killed {killed - seen} process(es) of the driver "
            f"service's tree for going over its memory limit of {limit:g} MB over the whole "
            "tree (--driver-memory-limit)",
        )

    def _end_tree(self) -> None:
        """Stop the tree watch and remove the control groups of the service that ended."""
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.stop()
        cgroup, self._cgroup = self._cgroup, None
        if cgroup is not None:
            cgroup.remove()

    def _lost(self, connection: Connection, reason: str) -> str:
        """The sentence for a broken channel; records a crash unless we ended it."""
        with self._lock:
            deliberate = self._ending.pop(id(connection), None)
            waits = self._waits.pop(id(connection), None)
        if deliberate is not None:
            if waits is not None:
                method = connection.last_method
                waits.end(lambda: DriverCrashed(deliberate, method))
            return deliberate
        process = self.process if connection is self.connection else None
        status = _exit_status(process, self.sandbox.kind in ("bubblewrap", "unshare"))
        description = (
            f"driver process died ({status})" if status else f"driver channel broke ({reason})"
        )
        if "protocol violation" in reason:
            description = f"driver process broke the channel ({reason})"
        pending = connection.pending_methods()
        if pending:
            method, message = pending[0], f"{description} during {pending[0]}"
        elif connection.last_method:
            method = connection.last_method
            message = f"{description} after {method} returned"
        else:
            method, message = "", f"{description} between calls"
        fault = Fault("crash", method, message)
        self._record(fault)  # before any wait ends: the test's report finds the fault
        if waits is not None:
            waits.end(lambda: DriverCrashed(fault.message, fault.method))
        return description

    def handing_over(self, connection: Connection, args: tuple) -> None:
        """A call on ``connection`` hands the service the burst queues among ``args``."""
        with self._lock:
            waits = self._waits.get(id(connection))
        if waits is not None:
            waits.queues_sent(args)

    def _record(self, fault: Fault) -> None:
        with self._lock:
            self.faults.append(fault)

    def close(self) -> None:
        """Stop the service (it exits when its channel closes; killed if it does not), and
        remove its working directory and its temporary log if the driver wrote nothing."""
        connection, process = self.connection, self.process
        if connection is not None:
            with self._lock:
                self._ending.setdefault(id(connection), "the driver service was shut down")
            connection.close()
        if process is not None:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
            # Whatever it forked goes with it.
            kill_service(process.pid, self._token, self._cgroup)
        self._end_tree()
        self._end_workdir()
        if self._log is not None:
            self._log = None
            self._log_end()
            if self._own_log and not os.path.exists(self.log_path or ""):
                self.log_path = None

    def output_mark(self) -> int:
        """Where the services' log ends now: ``output_since`` reads what comes after."""
        if self._log is None:
            return 0
        try:
            return os.fstat(self._log).st_size
        except OSError:
            return 0

    def output_since(self, mark: int, limit: int = OUTPUT_LIMIT) -> str:
        """What the driver service wrote to its stdout and stderr since ``mark``: its last
        ``limit`` bytes at most (saying how many came before), decoded leniently and made
        printable (a driver's text cannot draw on the terminal)."""
        if self._log is None or self.log_path is None:
            return ""
        try:
            end = os.fstat(self._log).st_size
            if end <= mark:
                return ""
            start = max(mark, end - limit)
            fd = os.open(self.log_path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                data = os.pread(fd, end - start, start)
            finally:
                os.close(fd)
        except OSError:
            return ""
        text = printable(data.decode("utf-8", "replace"), keep="\n\t").rstrip("\n")
        if start > mark:
            text = f"[{start - mark} earlier bytes left out]\n{text}"
        return text

    def _log_fd(self) -> int:
        """The services' log, opened once (appended to by every restart)."""
        if self._log is None:
            if self.log_path is None:
                fd, self.log_path = tempfile.mkstemp(prefix="nnhal-driver-", suffix=".log")
                self._log, self._own_log = fd, True
            else:
                os.makedirs(os.path.dirname(self.log_path) or ".", exist_ok=True)
                flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
                self._log = os.open(self.log_path, flags, 0o644)
            # Run by close, else when this object goes or the interpreter exits.
            temporary = self.log_path if self._own_log else None
            self._log_end = weakref.finalize(self, _close_log, self._log, temporary)
        return self._log

    def _end_workdir(self) -> None:
        self._workdir_end()
        self._workdir = None


def _nothing() -> None:
    return None


def _close_log(fd: int, temporary: str | None) -> None:
    """Close the services' log; remove it if it is ``temporary`` and the driver wrote
    nothing to it (not worth keeping)."""
    with contextlib.suppress(OSError):
        empty = os.fstat(fd).st_size == 0
        os.close(fd)
        if temporary is not None and empty:
            os.unlink(temporary)


_SIGNAL_NUMBERS = frozenset(int(number) for number in signal.Signals)


def _exit_status(process: subprocess.Popen | None, signal_codes: bool = False) -> str:
    """``signal 11 SIGSEGV`` or ``exit status 3``; kills a process that lingers.

    ``signal_codes``: the process is a sandbox launcher that reports its child's
    death by signal N as exit status 128 + N (bubblewrap does, and so does
    ``isolation.confine`` under unshare).
    """
    if process is None:
        return ""
    try:
        code = process.wait(2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
        return "it closed its channel and was killed"
    if signal_codes and code > 128 and code - 128 in _SIGNAL_NUMBERS:
        code = 128 - code
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown signal"
        return f"signal {-code} {name}"
    return f"exit status {code}"


# ---------------------------------------------------------------------------
# In-process guard
# ---------------------------------------------------------------------------


class _LocalLink:
    """A guarded proxy's link: the driver's own object, called on a worker thread."""

    def __init__(self, guard: InProcessGuard, target: object) -> None:
        self.guard = guard
        self.target = target

    def remote_target(self, connection: Connection) -> None:
        return None

    def describe(self) -> str:
        return "in-process, guarded"

    def invoke(self, method: str, args: tuple) -> object:
        return self.guard.call(self.target, method, args)


class _CallbackLink:
    """What the driver holds instead of a harness callback: wraps what it passes back."""

    def __init__(self, guard: InProcessGuard, target: object) -> None:
        self.guard = guard
        self.target = target

    def remote_target(self, connection: Connection) -> None:
        return None

    def describe(self) -> str:
        return "harness callback"

    def invoke(self, method: str, args: tuple) -> object:
        return getattr(self.target, method)(*self.guard.outward(args))


class _Answer:
    """One call's outcome; ``done`` is a lock held until the worker thread has answered
    (a bare lock hands over in a fraction of an Event's cost)."""

    __slots__ = ("done", "ok", "value")

    def __init__(self) -> None:
        self.done = threading.Lock()
        self.done.acquire()
        self.ok = False
        self.value: object = None


class InProcessGuard:
    """Calls an in-process driver on worker threads, each waited for with ``timeout``."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.faults: list[Fault] = []
        self.admit: Callable[[str], None] | None = None
        """As ``DriverService.admit``."""
        self.on_hang: Callable[[str, str], None] | None = None
        """As ``DriverService.on_hang``."""
        self.memory_reported = False
        self._workers = Workers("nnhal-driver")
        self._lock = threading.Lock()
        self._proxies: dict[int, weakref.ref] = {}

    def wrap(self, loaded: LoadedDriver) -> LoadedDriver:
        """``loaded`` with its device behind this guard."""
        return LoadedDriver(
            loaded.spec, self._proxy(loaded.device), loaded.level, loaded.is_default
        )

    def _proxy(self, obj: object) -> Proxy:
        with self._lock:
            ref = self._proxies.get(id(obj))
            proxy = ref() if ref is not None else None
            if proxy is None or proxy._nnhal_link.target is not obj:
                names = interfaces_of(obj)
                proxy = proxy_class(names, type(obj).__name__)(_LocalLink(self, obj))
                self._proxies[id(obj)] = weakref.ref(proxy)
        return proxy

    def outward(self, values: Sequence) -> tuple:
        """Driver -> harness: the driver's objects become guarded proxies."""
        return tuple(self._out(value) for value in values)

    def _out(self, value: object) -> object:
        if isinstance(value, list | tuple):
            return type(value)(self._out_one(item) for item in value)
        return self._out_one(value)

    def _out_one(self, value: object) -> object:
        link = getattr(value, "_nnhal_link", None)
        if isinstance(link, _CallbackLink):
            return link.target
        if link is None and interfaces_of(value):
            return self._proxy(value)
        return value

    def inward(self, values: Sequence) -> tuple:
        """Harness -> driver: guarded proxies become the driver's objects again, the
        harness's own callbacks become proxies that guard what the driver passes them."""
        return tuple(self._in(value) for value in values)

    def _in(self, value: object) -> object:
        if isinstance(value, list | tuple):
            return type(value)(self._in_one(item) for item in value)
        return self._in_one(value)

    def _in_one(self, value: object) -> object:
        link = getattr(value, "_nnhal_link", None)
        if isinstance(link, _LocalLink) and link.guard is self:
            return link.target
        if link is None:
            names = interfaces_of(value)
            if names:
                return proxy_class(names, type(value).__name__)(_CallbackLink(self, value))
        return value

    def call(self, target: object, method: str, args: tuple) -> object:
        if self.admit is not None:
            self.admit(method)
        args = self.inward(args)
        answer = _Answer()

        def run() -> None:
            try:
                answer.value, answer.ok = getattr(target, method)(*args), True
            except BaseException as e:  # re-raised in the caller's thread
                answer.value = e
            answer.done.release()

        self._workers.submit(run)
        if not answer.done.acquire(timeout=self.timeout):
            fault = DriverTimeout(
                f"driver call {method} did not return within {self.timeout:g} s (hang); "
                "its thread was abandoned",
                method,
            )
            with self._lock:
                self.faults.append(Fault("timeout", method, fault.message))
            if self.on_hang is not None:
                self.on_hang(method, fault.message)
            raise fault
        if answer.ok:
            return self._out(answer.value)
        error = answer.value
        if isinstance(error, Exception | DriverFault):
            raise error
        raise remote_error(type(error).__name__, str(error), "")


# ---------------------------------------------------------------------------
# Memory and crash watches
# ---------------------------------------------------------------------------


def resident_mb(pid: int | str = "self") -> float | None:
    """A process's resident memory in MB (from /proc), None if it cannot be read."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory_fault(guard: DriverService | InProcessGuard, limit_mb: float) -> Fault | None:
    """A Fault if the driver holds more than ``limit_mb`` MB of resident memory.

    A service over the limit is killed (the next test gets a fresh one). In
    process the memory cannot be taken back, so the overrun is reported once.
    """
    if isinstance(guard, DriverService):
        if not guard.alive or guard.pid is None:
            return None
        used = resident_mb_of(descendants(guard.pid))
        where, after = "the driver service's", "the service was restarted"
    else:
        if guard.memory_reported:
            return None
        used = resident_mb()
        where = "this process's (driver in-process)"
        after = "in-process it cannot be reclaimed, so this is reported once"
    if used is None or used <= limit_mb:
        return None
    message = (
        f"driver memory: {where} resident memory is {used:.0f} MB, over "
        f"--driver-memory-limit={limit_mb:g} MB (a leak?); {after}"
    )
    if isinstance(guard, DriverService):
        guard.restart_now("killed for using too much memory")
    else:
        guard.memory_reported = True
    return Fault("memory", "", message)


class CrashWatch:
    """Says which test was running if this process dies without saying goodbye.

    The running test's id is rewritten in place in a small file (one ``pwrite``
    per test: no pipe traffic, no child woken). A tiny ``sh`` child blocks on a
    pipe only this process holds; when the pipe closes and the file does not
    hold the end marker (a segfault, os._exit or SIGKILL took this process), it
    prints the hint with the last test id to the shared stderr.
    """

    _END = "--nnhal-end--"

    def __init__(self, process: subprocess.Popen, fd: int, file_fd: int) -> None:
        self._process = process
        self._fd = fd
        self._file_fd = file_fd

    @classmethod
    def start(cls, hint: str) -> CrashWatch | None:
        """The watch, or None where no ``sh`` can be started (the hint is then lost)."""
        script = (
            'cat >/dev/null; last=$(cat "$2" 2>/dev/null); rm -f "$2"; '
            f'if [ "$last" != "{cls._END}" ]; then '
            'printf "\nnnhal: the test process died while running %s (a driver crash?); %s\n" '
            '"$last" "$1" >&2; fi'
        )
        file_fd, path = tempfile.mkstemp(prefix="nnhal-running-", suffix=".txt")
        read_end, write_end = os.pipe()
        try:
            process = subprocess.Popen(
                ["sh", "-c", script, "nnhal-crash-watch", hint, path],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            os.close(write_end)
            os.close(file_fd)
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        finally:
            os.close(read_end)
        return cls(process, write_end, file_fd)

    def running(self, test_id: str) -> None:
        data = test_id.replace("\n", " ").encode()
        with contextlib.suppress(OSError):
            os.pwrite(self._file_fd, data, 0)
            os.ftruncate(self._file_fd, len(data))

    def finish(self) -> None:
        self.running(self._END)
        with contextlib.suppress(OSError):
            os.close(self._file_fd)
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(5)


__all__ = [
    "DriverCrashed",
    "DriverFault",
    "DriverService",
    "DriverTimeout",
    "Fault",
    "InProcessGuard",
    "Proxy",
    "is_proxy",
    "proxy_class",
]
