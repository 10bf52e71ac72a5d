"""The channel between the harness and a driver service process: frames, encoding, calls.

One Unix stream socket carries frames both ways. A frame is a 12-byte header
(body length, descriptor count), sent with its file descriptors attached as
``SCM_RIGHTS``, then the body. Bodies are pickles written by ``_Encoder`` and
read by ``_Decoder``, a restricted unpickler: it builds only the records and
enums of ``hal.types``, ``hal.memory.Memory``, ``hal.fmq.FmqDescriptor``,
numpy arrays and plain builtins, so a hostile driver cannot make the harness
run code by what it sends. Everything else crosses as a persistent reference:

* a ``NativeHandle`` as its descriptors (the receiver gets its own copies, in
  a ``ReceivedHandle`` that closes them when it is garbage-collected);
* an object implementing an interface of ``hal.interfaces`` (a callback, a
  prepared model, a burst context, a buffer, the device) as a remote object:
  the receiver gets a proxy (``isolation.proxy``), and a proxy sent back to its
  origin arrives as the original object;
* anything else a driver returns (which the harness would reject anyway) as an
  ``Opaque`` stand-in that only carries its type name and repr.

``Connection`` runs calls over the channel in both directions: the caller
waits for the answer with a timeout, the callee runs each call on a worker
thread (so a driver may call a harness callback from inside a call). When the
channel breaks, every waiting call ends with ``DriverCrashed`` and the owner
is told. Proxies that are garbage-collected release their remote object.
"""

from __future__ import annotations

import abc
import contextlib
import fcntl
import io
import itertools
import os
import pickle
import resource
import socket
import struct
import threading
import traceback
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, is_dataclass
from enum import Enum

import hal.interfaces as interfaces
import hal.types as types
from hal.memory import Memory, NativeHandle
from hal.workers import Workers

MAX_FDS = 253
"""SCM_MAX_FD: the most descriptors one frame may carry."""
MAX_FRAME = 1 << 30
"""The largest body accepted; a bigger announced length is a protocol violation."""
_HEADER = struct.Struct("<QI")
_OPAQUE_REPR = 200


class DriverFault(BaseException):
    """The driver died, hung or broke the channel: the current test ends with this.

    Derives from BaseException so no ``except Exception`` in the harness mistakes
    it for an answer of the driver. ``kind`` is the report outcome (``crash`` or
    ``timeout``), ``method`` the HAL method the fault happened in or after.
    """

    kind = "crash"

    def __init__(self, message: str, method: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.method = method


class DriverCrashed(DriverFault):
    """The driver's process died, or the channel to it broke."""

    kind = "crash"


class DriverTimeout(DriverFault):
    """A driver call did not return within the run's timeout."""

    kind = "timeout"


class ChannelClosed(Exception):
    """The other end closed the channel (or it broke)."""


class ProtocolError(Exception):
    """The other end sent something that is not a valid frame or message."""


class RemoteError(Exception):
    """Base of the stand-ins for exceptions raised in the other process.

    Each stand-in class carries the remote exception's type name, so a message
    reads the same as in-process: ``Device.get_type raised ValueError: ...``.
    """


_REMOTE_ERRORS: dict[str, type[RemoteError]] = {}


def remote_error(type_name: str, message: str, remote_traceback: str) -> RemoteError:
    """A RemoteError subclass instance named ``type_name``, with the remote traceback as a note."""
    name = type_name if type_name.isidentifier() else "RemoteError"
    cls = _REMOTE_ERRORS.get(name)
    if cls is None:
        cls = _REMOTE_ERRORS.setdefault(name, type(name, (RemoteError,), {}))
    error = cls(message)
    if remote_traceback:
        error.add_note("raised in the driver process:\n" + remote_traceback.rstrip())
    return error


@dataclass(frozen=True)
class Opaque:
    """A value the other process sent that is not a HAL type: its type name and repr only."""

    type_name: str
    text: str

    def __repr__(self) -> str:
        return self.text


class ReceivedHandle(NativeHandle):
    """A NativeHandle whose descriptors came over the channel; they close with it.

    The receiver owns its copies: a driver that wants to keep one past the call
    duplicates it, as a HAL driver must.
    """

    def __init__(self, fds: list[int], ints: list[int], owned: Sequence[int] = ()) -> None:
        super().__init__(fds, ints)
        self._owned = frozenset(owned)

    def __del__(self) -> None:
        # Only what arrived: a stand-in number for a descriptor that was not open is not ours.
        for fd in self.fds:
            if fd in self._owned:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.fds = []


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------


class Channel:
    """Frames over a connected AF_UNIX stream socket; sending is safe from many threads."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._send_lock = threading.Lock()

    def send(self, body: bytes, fds: Sequence[int] = ()) -> None:
        if len(fds) > MAX_FDS:
            raise ProtocolError(f"{len(fds)} file descriptors in one message; at most {MAX_FDS}")
        header = _HEADER.pack(len(body), len(fds))
        try:
            with self._send_lock:
                if fds:
                    # One system call; the descriptors ride on the frame's first byte.
                    sent = socket.send_fds(self.sock, [header, body], list(fds))
                    self.sock.sendall((header + body)[sent:])
                else:
                    self.sock.sendall(header + body)
        except OSError as e:
            raise ChannelClosed(f"sending failed: {e.strerror or e}") from None

    def receive(self) -> tuple[bytes, list[int]]:
        try:
            head, fds, flags, _ = socket.recv_fds(self.sock, _HEADER.size, MAX_FDS)
        except ConnectionResetError:
            head, fds, flags = b"", [], 0
        except OSError as e:
            raise ChannelClosed(f"receiving failed: {e.strerror or e}") from None
        if not head:
            raise ChannelClosed("the other end closed the channel")
        try:
            if flags & socket.MSG_CTRUNC:
                raise ProtocolError("a frame carried more file descriptors than allowed")
            head += self._exactly(_HEADER.size - len(head))
            length, count = _HEADER.unpack(head)
            if count != len(fds):
                raise ProtocolError(f"a frame announced {count} descriptors and carried {len(fds)}")
            if length > MAX_FRAME:
                raise ProtocolError(f"a frame announced {length} bytes; at most {MAX_FRAME}")
            return self._exactly(length), fds
        except BaseException:
            _close_fds(fds)
            raise

    def _exactly(self, length: int) -> bytes:
        buffer = bytearray(length)
        view = memoryview(buffer)
        got = 0
        while got < length:
            try:
                n = self.sock.recv_into(view[got:])
            except OSError as e:
                raise ChannelClosed(f"receiving failed: {e.strerror or e}") from None
            if n == 0:
                raise ChannelClosed("the other end closed the channel in the middle of a frame")
            got += n
        return bytes(buffer)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def _close_fds(fds: Sequence[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------

_PLAIN = frozenset(
    {
        type(None),
        bool,
        int,
        float,
        complex,
        str,
        bytes,
        bytearray,
        list,
        tuple,
        dict,
        set,
        frozenset,
    }
)


def _hal_records() -> frozenset[type]:
    records = {
        value
        for value in vars(types).values()
        if isinstance(value, type)
        and value.__module__ == types.__name__
        and (is_dataclass(value) or issubclass(value, Enum))
    }
    records.add(Memory)
    with contextlib.suppress(ImportError):
        from hal.fmq import FmqDescriptor

        records.add(FmqDescriptor)
    return frozenset(records)


_RECORDS = _hal_records()
_ALLOWED_GLOBALS = {(cls.__module__, cls.__qualname__): cls for cls in _RECORDS} | {
    ("builtins", name): getattr(__import__("builtins"), name)
    for name in ("complex", "set", "frozenset", "bytearray", "bytes", "list", "tuple", "dict")
}
_NUMPY_GLOBALS = {
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("numpy._core.numeric", "_frombuffer"),
    ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.core.multiarray", "scalar"),
}

INTERFACES: dict[str, type] = {
    name: value
    for name, value in vars(interfaces).items()
    if isinstance(value, type) and value.__module__ == interfaces.__name__ and name.startswith("I")
}
"""Every interface of hal.interfaces by name: what may cross as a remote object."""


_INTERFACES_BY_TYPE: dict[type, tuple[str, ...]] = {}
_interfaces_token: list[object] = [None]


def interfaces_of(obj: object) -> tuple[str, ...]:
    """The most derived interfaces ``obj`` implements (``IDevice_1_2``, not also ``IDevice``).

    The interfaces are ABCs, so the answer depends on the type alone: it is
    kept per type until an ABC registers a new subclass (``abc.get_cache_token``).
    """
    token = abc.get_cache_token()
    if _interfaces_token[0] != token:
        _INTERFACES_BY_TYPE.clear()
        _interfaces_token[0] = token
    kind = type(obj)
    names = _INTERFACES_BY_TYPE.get(kind)
    if names is None:
        found = [cls for cls in INTERFACES.values() if issubclass(kind, cls)]
        names = _INTERFACES_BY_TYPE[kind] = tuple(
            cls.__name__
            for cls in found
            if not any(other is not cls and issubclass(other, cls) for other in found)
        )
    return names


def interface_methods(names: Sequence[str]) -> frozenset[str]:
    """The HAL methods of the named interfaces: the only ones a remote caller may call."""
    methods: set[str] = set()
    for name in names:
        for cls in INTERFACES[name].__mro__:
            methods.update(getattr(cls, "__abstractmethods__", ()))
    return frozenset(methods)


class _Encoder(pickle.Pickler):
    def __init__(self, file: io.BytesIO, connection: Connection) -> None:
        super().__init__(file, protocol=5)
        self.fds: list[int] = []
        self._connection = connection

    def persistent_id(self, obj: object) -> object:
        kind = type(obj)
        if kind in _PLAIN or kind in _RECORDS:
            return None
        if isinstance(obj, NativeHandle):
            # A descriptor that is not open cannot be sent; it arrives as a number that
            # is not open there either, so the driver's own check answers (not the channel).
            slots = []
            for fd in obj.fds:
                if _is_open(fd):
                    slots.append(len(self.fds))
                    self.fds.append(int(fd))
                else:
                    slots.append(-1)
            return ("handle", slots, [int(i) for i in obj.ints])
        if _is_allowed_global(obj):
            return None  # a class or function pickled by name; the receiver checks it again
        reference = self._connection.reference(obj)
        if reference is not None:
            return reference
        module = getattr(kind, "__module__", "")
        if module == "numpy" or module.startswith("numpy."):
            return None
        if isinstance(obj, int) and not isinstance(obj, Enum):
            return ("int", int(obj))
        text = _safe_repr(obj)
        return ("opaque", kind.__qualname__, text)


def _is_open(fd: object) -> bool:
    if type(fd) is not int or fd < 0:
        return False
    try:
        fcntl.fcntl(fd, fcntl.F_GETFD)
    except OSError:
        return False
    return True


def _closed_fd_number() -> int:
    """A descriptor number not open in this process, high enough not to be reused soon."""
    limit = min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1 << 16)
    for fd in range(limit - 1, 2, -1):
        if not _is_open(fd):
            return fd
    return -1


def _is_allowed_global(obj: object) -> bool:
    try:
        key = (obj.__module__, obj.__qualname__)
    except AttributeError:
        return False
    return (
        key in _ALLOWED_GLOBALS
        or key in _NUMPY_GLOBALS
        or (isinstance(obj, type) and (key[0] == "numpy" or key[0].startswith("numpy.")))
    )


def _safe_repr(obj: object) -> str:
    try:
        text = repr(obj)
    except Exception as e:  # a driver's __repr__ may fail in any way
        text = f"<{type(obj).__qualname__} object (repr raised {type(e).__name__})>"
    return text if len(text) <= _OPAQUE_REPR else text[: _OPAQUE_REPR - 3] + "..."


class _Decoder(pickle.Unpickler):
    def __init__(self, body: bytes, fds: list[int], connection: Connection) -> None:
        super().__init__(io.BytesIO(body))
        self._fds = fds
        self._claimed: set[int] = set()
        self._connection = connection

    def find_class(self, module: str, name: str) -> object:
        allowed = _ALLOWED_GLOBALS.get((module, name))
        if allowed is not None:
            return allowed
        if (module, name) in _NUMPY_GLOBALS:
            return super().find_class(module, name)
        raise ProtocolError(f"the other process sent a {module}.{name}, which is not a HAL type")

    def persistent_load(self, pid: object) -> object:
        if not (isinstance(pid, tuple) and pid and isinstance(pid[0], str)):
            raise ProtocolError(f"malformed reference {pid!r}")
        tag = pid[0]
        if tag == "handle" and len(pid) == 3 and isinstance(pid[1], list):
            _, slots, ints = pid
            carried = [i for i in slots if i != -1]
            if any(
                type(i) is not int or not 0 <= i < len(self._fds) or i in self._claimed
                for i in carried
            ) or len(set(carried)) != len(carried):
                raise ProtocolError("a handle names descriptors the frame did not carry")
            self._claimed.update(carried)
            fds = [_closed_fd_number() if i == -1 else self._fds[i] for i in slots]
            return ReceivedHandle(fds, list(ints), [self._fds[i] for i in carried])
        if tag == "int" and len(pid) == 2 and type(pid[1]) is int:
            return pid[1]
        if tag == "opaque" and len(pid) == 3:
            return Opaque(str(pid[1]), str(pid[2]))
        if tag in ("obj", "peer"):
            return self._connection.resolve(pid)
        raise ProtocolError(f"malformed reference {pid!r}")

    def unclaimed(self) -> list[int]:
        return [fd for i, fd in enumerate(self._fds) if i not in self._claimed]


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------


class _Pending:
    __slots__ = ("event", "method", "ok", "value")

    def __init__(self, method: str) -> None:
        self.method = method
        self.event = threading.Event()
        self.ok = False
        self.value: object = None


Proxies = Callable[["Connection", int, tuple[str, ...], str], object]
"""Makes the proxy of remote object (connection, id, interface names, class name)."""


class Connection:
    """Calls in both directions over one channel, with remote objects by id.

    ``make_proxy`` builds the local stand-in of a remote object (isolation.proxy
    provides it); ``on_lost(connection, reason)`` runs once when the channel breaks and
    returns the sentence waiting calls report (e.g. naming the signal that
    killed the other process).
    """

    def __init__(
        self,
        sock: socket.socket,
        name: str,
        make_proxy: Proxies,
        on_lost: Callable[[Connection, str], str] | None = None,
        timeout: float | None = None,
        owner: object = None,
    ) -> None:
        self.name = name
        self.timeout = timeout
        """Seconds a call made through a proxy of this connection may take."""
        self.owner = owner
        """Whoever supervises the other end (isolation.proxy.DriverService), told of hangs."""
        self._channel = Channel(sock)
        self._make_proxy = make_proxy
        self._on_lost = on_lost
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._exports: dict[int, list] = {}  # id -> [object, sent count, method names]
        self._export_ids: dict[int, int] = {}  # id(object) -> export id
        self._imports: dict[int, weakref.ref] = {}  # remote id -> proxy
        self._pending: dict[int, _Pending] = {}
        self._releases: deque[tuple[int, int]] = deque()
        self._workers = Workers(f"{name}-call")
        self.lost: str | None = None
        """Why the channel broke (the sentence calls report), None while it works."""
        self.last_method = ""
        """The last method called through this connection (for faults between calls)."""
        self.hello: object = None
        self._hello = threading.Event()
        self._losing = False
        self._reader = threading.Thread(target=self._read, name=f"{name}-reader", daemon=True)
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._started = True
            self._reader.start()

    # -- remote objects -----------------------------------------------------

    def export(self, obj: object) -> int:
        """Keep ``obj`` callable by the other end; returns its id (counted as sent once)."""
        names = interfaces_of(obj)
        with self._lock:
            export_id = self._export_ids.get(id(obj))
            if export_id is None:
                export_id = next(self._ids)
                self._export_ids[id(obj)] = export_id
                self._exports[export_id] = [obj, 0, interface_methods(names), names]
            self._exports[export_id][1] += 1
        return export_id

    def reference(self, obj: object) -> tuple | None:
        """How ``obj`` crosses: ("peer", id) for our proxy of the other end's object,
        ("obj", ...) for our own interface object, None for data."""
        link = getattr(obj, "_nnhal_link", None)
        if link is not None:
            target = link.remote_target(self)
            if target is not None:
                return ("peer", target)
        names = interfaces_of(obj)
        if not names:
            return None
        export_id = self.export(obj)
        return ("obj", export_id, names, type(obj).__name__)

    def resolve(self, pid: tuple) -> object:
        if pid[0] == "peer" and len(pid) == 2:
            with self._lock:
                entry = self._exports.get(pid[1])
            if entry is None:
                raise ProtocolError(f"the other process named object {pid[1]}, which is unknown")
            return entry[0]
        if len(pid) != 4 or not isinstance(pid[1], int) or not isinstance(pid[2], tuple):
            raise ProtocolError(f"malformed reference {pid!r}")
        _, remote_id, names, class_name = pid
        if not names or not all(isinstance(n, str) and n in INTERFACES for n in names):
            raise ProtocolError(f"remote object {remote_id} claims unknown interfaces {names!r}")
        with self._lock:
            existing = self._imports.get(remote_id)
            proxy = existing() if existing is not None else None
            if proxy is not None:
                proxy._nnhal_link.received[0] += 1
                return proxy
            proxy = self._make_proxy(self, remote_id, names, str(class_name))
            self._imports[remote_id] = weakref.ref(proxy)
        return proxy

    def forget_proxy(self, remote_id: int, received: list[int]) -> None:
        """A proxy was collected: release what it received (sent with the next message)."""
        self._releases.append((remote_id, received[0]))

    def _release(self, items: list) -> None:
        with self._lock:
            for export_id, count in items:
                entry = self._exports.get(export_id)
                if entry is None:
                    continue
                entry[1] -= count
                if entry[1] <= 0:
                    del self._exports[export_id]
                    self._export_ids.pop(id(entry[0]), None)
            for export_id, _ in items:
                ref = self._imports.get(export_id)
                if ref is not None and ref() is None:
                    del self._imports[export_id]

    @property
    def exported(self) -> int:
        """How many local objects the other end holds (for leak checks in tests)."""
        with self._lock:
            return len(self._exports)

    # -- sending ------------------------------------------------------------

    def _send(self, message: tuple) -> None:
        if self._releases:
            items = []
            while self._releases:
                items.append(self._releases.popleft())
            self._send_one(("release", items))
        self._send_one(message)

    def _send_one(self, message: tuple) -> None:
        file = io.BytesIO()
        encoder = _Encoder(file, self)
        encoder.dump(message)
        self._channel.send(file.getvalue(), encoder.fds)

    def call(self, target: int, method: str, args: tuple, timeout: float | None) -> object:
        """Call ``method`` of the other end's object ``target``; its answer or its exception.

        DriverCrashed when the channel breaks before the answer, DriverTimeout
        when none comes within ``timeout`` seconds.
        """
        self.last_method = method
        call_id = next(self._ids)
        pending = _Pending(method)
        with self._lock:  # checked and registered at once: _lose then sees this call
            if self.lost is not None:
                raise DriverCrashed(f"{self.lost} before {method}", method)
            self._pending[call_id] = pending
        try:
            try:
                self._send(("call", call_id, target, method, args))
            except ChannelClosed as e:
                self._lose(str(e))
            if not pending.event.wait(timeout):
                raise DriverTimeout(
                    f"driver call {method} did not return within {timeout:g} s (hang)", method
                )
        finally:
            with self._lock:
                self._pending.pop(call_id, None)
        if pending.ok:
            return pending.value
        raise pending.value

    # -- receiving ----------------------------------------------------------

    def _read(self) -> None:
        try:
            while True:
                body, fds = self._channel.receive()
                decoder = _Decoder(body, fds, self)
                try:
                    message = decoder.load()
                except ProtocolError:
                    _close_fds(fds)
                    raise
                except Exception as e:
                    _close_fds(fds)
                    raise ProtocolError(f"undecodable message: {type(e).__name__}: {e}") from None
                _close_fds(decoder.unclaimed())
                self._dispatch(message)
                del message, decoder  # hold no proxy while waiting for the next frame
        except ChannelClosed as e:
            self._lose(str(e))
        except ProtocolError as e:
            self._lose(f"protocol violation: {e}")
        except BaseException as e:  # the reader must always report why it stopped
            self._lose(f"channel reader failed: {type(e).__name__}: {e}")

    def _dispatch(self, message: object) -> None:
        if not (isinstance(message, tuple) and message and isinstance(message[0], str)):
            raise ProtocolError(f"malformed message {_safe_repr(message)}")
        tag = message[0]
        if tag == "call" and len(message) == 5:
            self._workers.submit(lambda: self._serve(*message[1:]))
        elif tag in ("return", "raise") and len(message) >= 3:
            with self._lock:
                pending = self._pending.get(message[1])
            if pending is None:
                return  # the caller gave up (timeout): drop the late answer
            if tag == "return":
                pending.ok, pending.value = True, message[2]
            else:
                pending.value = remote_error(*(str(part) for part in message[2:5]))
            pending.event.set()
        elif tag == "release" and len(message) == 2 and isinstance(message[1], list):
            self._release(message[1])
        elif tag == "hello" and len(message) == 2:
            self.hello = message[1]
            self._hello.set()
        else:
            raise ProtocolError(f"unknown message {_safe_repr(message)[:80]}")

    def wait_hello(self, timeout: float) -> object:
        """The other end's first message; None if the channel broke before it came."""
        if not self._hello.wait(timeout):
            raise DriverTimeout(f"the driver service did not start within {timeout:g} s", "start")
        self._hello.clear()
        hello, self.hello = self.hello, None
        return hello

    def send_hello(self, value: object) -> None:
        self._send(("hello", value))

    def _serve(self, call_id: int, target: int, method: str, args: tuple) -> None:
        with self._lock:
            entry = self._exports.get(target)
        try:
            if entry is None:
                raise LookupError(f"object {target} is unknown here (released?)")
            if not (isinstance(method, str) and method in entry[2] and isinstance(args, tuple)):
                raise LookupError(f"{method!r} is not a method of {', '.join(entry[3])}")
            value = getattr(entry[0], method)(*args)
        except BaseException as e:  # SystemExit in a driver thread is an escaped exception too
            answer = ("raise", call_id, type(e).__name__, str(e), traceback.format_exc())
        else:
            answer = ("return", call_id, value)
        try:
            self._send(answer)
        except ChannelClosed:
            return
        except Exception as e:  # an answer that cannot be encoded (say, a closed fd)
            with contextlib.suppress(ChannelClosed):
                self._send(
                    (
                        "raise",
                        call_id,
                        "EncodingError",
                        f"the answer of {method} cannot be sent: {type(e).__name__}: {e}",
                        "",
                    )
                )

    # -- the end ------------------------------------------------------------

    def _lose(self, reason: str) -> None:
        with self._lock:
            if self._losing:
                return
            self._losing = True
        lost = reason
        if self._on_lost is not None:
            with contextlib.suppress(Exception):
                lost = self._on_lost(self, reason) or reason
        with self._lock:
            self.lost = lost  # published only now: a closed connection has its fault recorded
            pending = list(self._pending.values())
            self._exports.clear()
            self._export_ids.clear()
        for waiter in pending:
            waiter.value = DriverCrashed(f"{lost} during {waiter.method}", waiter.method)
            waiter.event.set()
        self._hello.set()
        self._channel.close()

    def pending_methods(self) -> list[str]:
        """The methods of the calls waiting for an answer, oldest first."""
        with self._lock:
            return [waiter.method for _, waiter in sorted(self._pending.items())]

    def close(self) -> None:
        """Close the channel: calls still waiting end with DriverCrashed."""
        self._lose("the connection to the driver service was closed")

    @property
    def closed(self) -> bool:
        return self.lost is not None
