"""The channel between the harness and a driver service process: frames, messages, calls.

One Unix stream socket carries frames both ways. A frame is a 12-byte header
(body length, descriptor count), sent with its file descriptors attached as
``SCM_RIGHTS``, then the body. A body is one message of ``isolation.codec``:
msgpack, read by a decoder that builds only the values of a fixed schema
(the records and enums of ``hal.types``, ``hal.memory.Memory``,
``hal.fmq.FmqDescriptor``, numbers, strings, bytes, containers, numpy arrays
of a few dtypes) through their constructors, with every size bounded. It
never looks a class up by a name the other process sent, so what a hostile
driver sends can neither run code in the harness nor change its objects.
Everything else crosses by reference:

* a ``NativeHandle`` as its descriptors (the receiver gets its own copies, in
  a ``ReceivedHandle`` that closes them when it is garbage-collected);
* an object implementing an interface of ``hal.interfaces`` (a callback, a
  prepared model, a burst context, a buffer, the device) as a remote object:
  the receiver gets a proxy (``isolation.proxy``), and a proxy sent back to its
  origin arrives as the original object;
* anything else a driver returns (which the harness would reject anyway) as an
  ``Opaque`` stand-in that only carries its type name and a bounded repr.

``Connection`` runs calls over the channel in both directions: the caller
reads the channel itself until its answer comes (with a timeout), and the
callee serves each call on its own thread, another thread reading on
meanwhile (so calls run side by side and a driver may call a harness
callback from inside a call). ``call_sequence`` sends several calls in one
frame, their shared arguments once; the callee runs them in order on one
thread and answers each as it ends. When the
channel breaks, every waiting call ends with ``DriverCrashed`` (or
``MalformedAnswer`` when the other end sent a frame or message that breaks
the format or its limits) and the owner is told. Proxies that are
garbage-collected release their remote object.
"""

from __future__ import annotations

import abc
import contextlib
import fcntl
import functools
import itertools
import math
import os
import resource
import select
import socket
import struct
import threading
import time
import traceback
import weakref
from collections import deque
from collections.abc import Callable, Sequence

import hal.interfaces as interfaces
import hal.levels as levels
from hal.memory import NativeHandle
from hal.workers import Workers
from isolation import codec
from isolation.codec import (
    LIMITS,
    ONEWAY_CALL,
    Batch,
    Call,
    Calls,
    Flush,
    Hello,
    Limits,
    MalformedMessage,
    Opaque,
    ProtocolError,
    Raise,
    Release,
    Return,
)

MAX_FDS = 253
"""SCM_MAX_FD: the most descriptors one frame may carry."""
MAX_FRAME = LIMITS.max_frame
"""The largest body accepted; a bigger announced length is a protocol violation."""
_HEADER = struct.Struct("<QI")
_ARMED = select.EPOLLIN | select.EPOLLONESHOT
_IDLE_WAIT = 1.0
"""Seconds a thread waits for bytes before it looks again whether the channel was closed."""
_CHUNK = 1 << 20
"""A body is read in pieces of at most this many bytes: memory follows the bytes that came,
never the length a header announced."""


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


class MalformedAnswer(DriverFault):
    """The driver's process sent a frame or message that breaks the wire format or one of
    its limits (a forged type, too deep, too big, truncated): the channel is dropped
    and the service restarted, like after a crash. The message names the rule."""

    kind = "crash"


class ChannelClosed(Exception):
    """The other end closed the channel (or it broke)."""


class RemoteError(Exception):
    """Base of the stand-ins for exceptions raised in the other process.

    Each stand-in class carries the remote exception's type name, so a message
    reads the same as in-process: ``Device.get_type raised ValueError: ...``.
    """


_REMOTE_ERRORS: dict[str, type[RemoteError]] = {"RemoteError": RemoteError}
MAX_REMOTE_ERRORS = 256
"""Stand-in exception classes kept for the run, one per type name met. Past this many, a
name not met before gets a class of its own that is not kept (it goes with its
exception): a driver raising ever new type names cannot grow the table."""
_REMOTE_ERRORS_LOCK = threading.Lock()


def remote_error(type_name: str, message: str, remote_traceback: str) -> RemoteError:
    """A RemoteError subclass instance named ``type_name``, with the remote traceback as a note."""
    name = type_name if type_name.isidentifier() and len(type_name) <= 100 else "RemoteError"
    cls = _REMOTE_ERRORS.get(name)
    if cls is None:
        with _REMOTE_ERRORS_LOCK:
            cls = _REMOTE_ERRORS.get(name)
            if cls is None:
                cls = type(name, (RemoteError,), {})
                if len(_REMOTE_ERRORS) < MAX_REMOTE_ERRORS:
                    _REMOTE_ERRORS[name] = cls
    error = cls(message)
    if remote_traceback:
        error.add_note("raised in the driver process:\n" + remote_traceback.rstrip())
    return error


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
    """Frames over a connected AF_UNIX stream socket; sending is safe from many threads.

    Receiving is done by one thread at a time, the one holding ``reading``.
    A received body is read in pieces as its bytes arrive: a header announcing
    a gigabyte and then nothing costs nothing, and a body over ``max_frame``
    bytes is refused from its header alone. ``receive`` takes a deadline: when
    it passes in the middle of a frame, what came is kept for the next reader.
    """

    def __init__(self, sock: socket.socket, max_frame: int = MAX_FRAME) -> None:
        self.sock = sock
        self.max_frame = max_frame
        self._send_lock = threading.Lock()
        self.reading = threading.RLock()
        """Held by the thread receiving frames (re-entrant: a one-way call served while
        reading may itself make a call and read its answer)."""
        self.closed = False
        self._poll = select.poll()  # the holder of ``reading``'s, to look without waiting
        self._poll.register(sock, select.POLLIN)
        # Every thread that waits for bytes waits in this one epoll (see "waking" below).
        self._epoll = select.epoll()
        self._epoll.register(sock, _ARMED)
        self._end = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
        """Made readable by ``close``: level-triggered, so it wakes every waiter in turn."""
        self._epoll.register(self._end, select.EPOLLIN)
        self._waiters = 0
        self._waiters_lock = threading.Lock()
        self._released = False
        self._quiet = False
        """While a caller reads (``hush``), the epoll is not armed: readers sleep."""
        self._reset()

    def _reset(self) -> None:
        self._head = b""
        self._fds: list[int] = []
        self._body: bytearray | None = None
        self._length = 0
        self._got = 0

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

    # -- waking -------------------------------------------------------------
    #
    # Idle readers wait in one epoll, on the socket registered one-shot: the kernel
    # wakes one waiter per arrival, the one that began waiting last (epoll's wait queue
    # is last in, first out), and no other until the socket is armed again. So a
    # reader that serves a call and waits again is woken for the next one while a
    # standby reader sleeps on. While a caller reads for itself (it waits on its own
    # poll), the epoll is not armed (``hush``): its answer wakes it alone. Every thread
    # that stops reading arms the socket again (``kick``), so what came after the frame
    # it read wakes a reader.

    def kick(self) -> None:
        """Arm the socket (unless hushed): bytes there now or later wake a reader."""
        with self._waiters_lock:
            if not self._quiet and not self._released:
                with contextlib.suppress(OSError, ValueError):  # closed meanwhile
                    self._epoll.modify(self.sock, _ARMED)

    def hush(self) -> None:
        """A caller reads from now on, waiting on its own: wake no reader for what comes."""
        with self._waiters_lock:
            self._quiet = True
            if not self._released:
                with contextlib.suppress(OSError, ValueError):
                    self._epoll.modify(self.sock, 0)

    def unhush(self) -> None:
        """No caller reads any longer: what comes (or came) wakes a reader."""
        with self._waiters_lock:
            self._quiet = False
        self.kick()

    def _epoll_wait(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the socket to be readable (or the channel
        to close), the socket armed first; False on timeout or if already closed."""
        with self._waiters_lock:
            if self._released:
                return False
            self._waiters += 1
        try:
            self.kick()
            if self.closed:
                return False
            try:
                events = self._epoll.poll(timeout, 2)
            except InterruptedError:
                return False
            return bool(events)
        finally:
            with self._waiters_lock:
                self._waiters -= 1
                if self.closed and not self._waiters:
                    self._release()

    def _release(self) -> None:
        """Close the epoll and the end signal (with ``_waiters_lock`` held, no waiter left)."""
        if not self._released:
            self._released = True
            self._epoll.close()
            os.close(self._end)

    def wait_readable(self, timeout: float) -> bool:
        """Whether bytes (or the end) came within ``timeout`` seconds; needs no ``reading``."""
        if self.closed:
            return False
        return self._epoll_wait(max(0.0, timeout))

    def receive(self, deadline: float | None = None) -> tuple[bytearray, list[int]] | None:
        """The next frame (body, descriptors), or None if ``deadline`` (``time.monotonic``)
        passes before all of it came. The caller holds ``reading``."""
        if self.closed:
            raise ChannelClosed("the channel is closed")
        try:
            while True:
                if self._body is not None and self._got == self._length:
                    frame = (self._body, self._fds)
                    self._reset()
                    return frame
                if self._body is None:  # a header: wait for it, it is seldom there yet
                    if not self._wait(deadline):
                        return None
                    self._receive_head()
                elif not self._receive_body() and not self._wait(deadline):
                    return None  # a body mostly comes with its header: read, wait if not
        except BaseException:
            _close_fds(self._fds)
            self._reset()
            raise

    def _wait(self, deadline: float | None) -> bool:
        """Wait for bytes as the holder of ``reading``, on its own poll (the readers'
        epoll is hushed while a caller reads)."""
        if deadline is None:
            timeout = -1
        else:
            timeout = max(0, math.ceil((deadline - time.monotonic()) * 1000))
        return bool(self._poll.poll(timeout))

    def _receive_head(self) -> None:
        missing = _HEADER.size - len(self._head)
        try:
            if not self._head:
                piece, fds, flags, _ = socket.recv_fds(
                    self.sock, missing, MAX_FDS, socket.MSG_DONTWAIT
                )
                self._fds = fds
                if flags & socket.MSG_CTRUNC:
                    raise ProtocolError(f"carries more than {MAX_FDS} file descriptors in a frame")
            else:
                piece = self.sock.recv(missing, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return
        except ConnectionResetError:
            piece = b""
        except OSError as e:
            raise ChannelClosed(f"receiving failed: {e.strerror or e}") from None
        if not piece:
            if self._head:
                raise ChannelClosed(
                    f"the other end closed the channel in the middle of a frame header "
                    f"({len(self._head)} of {_HEADER.size} bytes came)"
                )
            raise ChannelClosed("the other end closed the channel")
        self._head += piece
        if len(self._head) < _HEADER.size:
            return
        length, count = _HEADER.unpack(self._head)
        if count != len(self._fds):
            raise ProtocolError(
                f"announces {count} descriptors in a frame that carries {len(self._fds)}"
            )
        if length > self.max_frame:
            raise ProtocolError(
                f"announces a frame of {length} bytes, over the max frame size {self.max_frame}"
            )
        self._length = length
        self._body = bytearray(min(length, _CHUNK))

    def _receive_body(self) -> bool:
        """Read what came of the body; False if nothing had."""
        body = self._body
        if self._got == len(body):  # grows only as bytes come, a piece at a time
            body.extend(bytes(min(self._length - self._got, _CHUNK)))
        try:
            with memoryview(body) as view, view[self._got :] as rest:
                n = self.sock.recv_into(rest, 0, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError as e:
            raise ChannelClosed(f"receiving failed: {e.strerror or e}") from None
        if n == 0:
            raise ChannelClosed(
                f"the other end closed the channel in the middle of a frame "
                f"({self._got} of {self._length} bytes came)"
            )
        self._got += n
        return True

    def close(self) -> None:
        """Shut the socket down and wake every thread waiting on it, then close it once no
        thread is reading (at most 2 s later: a reader wakes on the shutdown)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with self._waiters_lock:
            if not self._released:
                os.eventfd_write(self._end, 1)
        got = self.reading.acquire(timeout=2.0)
        try:
            if not self.closed:
                self.closed = True
                _close_fds(self._fds)
                self._reset()
                with self._waiters_lock:
                    if not self._waiters:
                        self._release()
                self.sock.close()
        finally:
            if got:
                self.reading.release()


def _close_fds(fds: Sequence[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


# ---------------------------------------------------------------------------
# Remote objects
# ---------------------------------------------------------------------------

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


@functools.cache
def oneway_methods(names: tuple[str, ...]) -> frozenset[str]:
    """The methods of the named interfaces the HAL declares ``oneway`` (asked for every
    proxy made and every one-way call served: kept per tuple of names)."""
    methods: set[str] = set()
    for name in names:
        for cls in INTERFACES[name].__mro__:
            methods.update(levels.ONEWAY_METHODS.get(cls.__name__, ()))
    return frozenset(methods)


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


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------


_MAX_ERROR = 4000
"""Characters of an exception's message sent back (the rest is cut)."""
_MAX_TRACEBACK = 16000
_SPARE_READERS = 2
"""Readers that wait for bytes at most, besides the one that just served: a reader that
finishes a call with as many waiting ends."""
_SERVED = frozenset({Call, Calls})
"""What a reader serves on its own thread (one-way calls are run as they are read)."""
_HELD = frozenset({Return, Raise, Call})
"""What a thread serving a sequence holds back for one frame: answers and one-way calls
(a call that waits for an answer is sent at once, after what was held)."""
_MAX_HELD = 1 << 20
"""Bytes held back at most: a message that would pass it sends what is held first; one
carrying descriptors or larger than a tenth of it is not held. (Every value of a message
takes a byte at least, so a batch stays far below the decoder's limit on values.)"""
assert LIMITS.max_items > _MAX_HELD and LIMITS.max_frame > _MAX_HELD


class _Held(list):
    """Encoded messages held back, oldest first, and their bytes."""

    size = 0

    def take(self) -> list[bytes]:
        """What is held, now no longer (under the connection's ``_held_lock``)."""
        taken = self[:]
        self.clear()
        self.size = 0
        return taken


_SWEEP_IMPORTS = 1024
"""Entries of the table of received objects below which it is never swept."""
_FLUSH_GRACE = 5.0
"""Seconds a sequence's caller waits, past its timeout, for the answers it asked for."""


def _hang(method: str, timeout: float | None) -> DriverTimeout:
    return DriverTimeout(f"driver call {method} did not return within {timeout:g} s (hang)", method)


def _message_of(error: BaseException) -> str:
    try:
        return str(error)
    except Exception as e:  # a driver's exception may fail to format
        return f"<message not printable: {type(e).__name__}>"


class _Pending:
    """A call sent and its answer once it came (``done``: set under the connection's
    ``_turn``, whose waiters are then woken)."""

    __slots__ = ("done", "method", "ok", "value")

    def __init__(self, method: str) -> None:
        self.method = method
        self.done = False
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
        limits: Limits = LIMITS,
        deltas: str | None = None,
    ) -> None:
        self.name = name
        self._deltas = deltas
        """``"send"``: models after the first of a message go as changes to it (the harness);
        ``"accept"``: such messages are welcome (the service); None: neither."""
        self.timeout = timeout
        """Seconds a call made through a proxy of this connection may take."""
        self.owner = owner
        """Whoever supervises the other end (isolation.proxy.DriverService), told of hangs;
        a connection with an owner is the harness's, so its faults speak of the driver."""
        self._limits = limits
        self._channel = Channel(sock, limits.max_frame)
        self._make_proxy = make_proxy
        self._on_lost = on_lost
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._exports: dict[int, list] = {}  # id -> [object, sent count, method names]
        self._export_ids: dict[int, int] = {}  # id(object) -> export id
        self._imports: dict[int, weakref.ref] = {}  # remote id -> proxy
        self._imports_swept = _SWEEP_IMPORTS
        """The size of ``_imports`` at which the collected proxies' entries are dropped."""
        self._pending: dict[int, _Pending] = {}
        self._releases: deque[tuple[int, int]] = deque()
        self._local = threading.local()
        """``held``: the encoded messages the thread serving a sequence holds back (see
        _serve_all), oldest first."""
        self._held_lock = threading.Lock()
        self._held: dict[int, _Held] = {}  # thread ident -> its ``held``
        self._workers = Workers(f"{name}-call")
        # Who reads (see "receiving" below), under one lock: the threads waiting in a call
        # (they read for themselves).
        state = threading.Lock()
        self._turn = threading.Condition(state)
        """Callers wait here for their answer or for the reading to be free."""
        self._callers = 0
        self._idle_readers = 0
        """Reader threads not serving a call (waiting for bytes)."""
        self.lost: str | None = None
        """Why the channel broke (the sentence calls report), None while it works."""
        self.last_method = ""
        """The last method called through this connection (for faults between calls)."""
        self.late_decode = ""
        """Why a caller's wait ran out while it decoded a message (``_receive``): said in
        the hang it reports. The message is lost, so the connection is done for (its
        owner kills the service after a hang)."""
        self.hello: object = None
        self.on_fences: Callable[[list], None] | None = None
        """Called with the open sync fences each message from the other end brought (the
        owner ends them when the other process dies, ``isolation.proxy``)."""
        self.on_export: Callable[[object], None] | None = None
        """Called with each local object the first time it is sent to the other end (the
        owner keeps the callbacks it may have to abandon, ``isolation.proxy``)."""
        self._hello = threading.Event()
        self._losing = False
        self._started = False

    def start(self) -> None:
        """Start reading what no caller reads (calls to serve, notifications, the end)."""
        if not self._started:
            self._started = True
            with self._turn:
                self._idle_readers += 1
            threading.Thread(target=self._reader, name=f"{self.name}-reader", daemon=True).start()

    # -- remote objects -----------------------------------------------------

    def export(self, obj: object) -> int:
        """Keep ``obj`` callable by the other end; returns its id (counted as sent once)."""
        names = interfaces_of(obj)
        new = False
        with self._lock:
            export_id = self._export_ids.get(id(obj))
            if export_id is None:
                new = True
                export_id = next(self._ids)
                self._export_ids[id(obj)] = export_id
                self._exports[export_id] = [obj, 0, interface_methods(names), names]
            self._exports[export_id][1] += 1
        if new and self.on_export is not None:
            self.on_export(obj)
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
                raise MalformedMessage(f"names object {pid[1]}, which is unknown here")
            return entry[0]
        _, remote_id, names, class_name = pid
        if not names or not all(isinstance(n, str) and n in INTERFACES for n in names):
            raise MalformedMessage(
                f"holds remote object {remote_id} claiming unknown interfaces "
                f"{codec.safe_repr(names, 120)}"
            )
        with self._lock:
            existing = self._imports.get(remote_id)
            proxy = existing() if existing is not None else None
            if proxy is not None:
                proxy._nnhal_link.received[0] += 1
                return proxy
            proxy = self._make_proxy(self, remote_id, names, str(class_name))
            self._imports[remote_id] = weakref.ref(proxy)
            if len(self._imports) >= self._imports_swept:
                self._sweep_imports()
        return proxy

    def _sweep_imports(self) -> None:
        """Drop the entries of proxies that were collected (under ``_lock``). Each remote
        object received leaves one until the sweep, which runs whenever the table has
        doubled since the last: a driver answering with thousands of new objects per call
        cannot grow it without bound, and the sweeps cost O(1) per object received."""
        for remote_id in [k for k, ref in self._imports.items() if ref() is None]:
            del self._imports[remote_id]
        self._imports_swept = max(_SWEEP_IMPORTS, 2 * len(self._imports))

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

    def _send(self, message: object, hold: bool = True) -> None:
        body, fds = codec.encode(message, self, self._limits, _is_open, self._deltas == "send")
        held = getattr(self._local, "held", None)
        if held is not None:
            small = not fds and len(body) <= _MAX_HELD // 10
            keep = hold and small and type(message) in _HELD
            with self._held_lock:
                earlier = None
                if not keep or held.size + len(body) > _MAX_HELD:
                    earlier = held.take()
                if keep:
                    held.append(body)
                    held.size += len(body)
                    body = None
            if earlier:
                self._send_held(earlier)  # in order, before this message
            if body is None:
                return
        self._send_frame(body, fds)

    def flush(self) -> None:
        """Send what every thread serving a sequence holds back, at once."""
        with self._held_lock:
            batches = [held.take() for held in self._held.values() if held]
        for batch in batches:
            self._send_held(batch)

    def _send_held(self, bodies: list[bytes]) -> None:
        if bodies:
            self._send_frame(bodies[0] if len(bodies) == 1 else codec.batch(bodies), ())

    def _send_frame(self, body: bytes, fds: list[int]) -> None:
        if self._releases:
            items = []
            while self._releases:
                items.append(self._releases.popleft())
            release, release_fds = codec.encode(Release(items), self, self._limits, _is_open)
            self._channel.send(release, release_fds)
        self._channel.send(body, fds)

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
        self._calling(1)  # before the call goes: its answer must not wake a reader
        try:
            try:
                self._send(Call(call_id, target, method, tuple(args)), hold=False)
            except ChannelClosed as e:
                self._lose(str(e))
            if not self._await(pending, None if timeout is None else time.monotonic() + timeout):
                raise self._hang(method, timeout)
        finally:
            self._calling(-1)
            with self._lock:
                self._pending.pop(call_id, None)
        if pending.ok:
            return pending.value
        raise pending.value

    def call_sequence(
        self, calls: list[tuple[int, str, tuple]], timeout: float | None
    ) -> list[tuple[bool, object]]:
        """Run ``calls`` (target, method, args) one after another on one thread of the
        other end, sent in one frame: each call's (True, answer) or (False, exception),
        in order. A call that breaks the channel ends it and every later one with
        DriverCrashed. When one call's answer does not come within ``timeout`` seconds
        of the previous one's, the list ends with that call's (False, DriverTimeout).
        """
        if not calls:
            return []
        self.last_method = calls[0][1]
        pendings = [(next(self._ids), _Pending(method)) for _, method, _ in calls]
        with self._lock:
            if self.lost is not None:
                raise DriverCrashed(f"{self.lost} before {calls[0][1]}", calls[0][1])
            self._pending.update(pendings)
        outcomes: list[tuple[bool, object]] = []
        self._calling(1)
        try:
            values: list = []
            positions: dict[int, int] = {}  # id(argument) -> its place in values
            listed = []
            for (call_id, _), (target, method, args) in zip(pendings, calls, strict=True):
                places = []
                for arg in args:
                    if id(arg) not in positions:
                        positions[id(arg)] = len(values)
                        values.append(arg)
                    places.append(positions[id(arg)])
                listed.append((call_id, target, method, places))
            try:
                self._send(Calls(values, listed))
            except ChannelClosed as e:
                self._lose(str(e))
            for _, pending in pendings:
                self.last_method = pending.method
                if not self._await_held(pending, timeout):
                    outcomes.append((False, self._hang(pending.method, timeout)))
                    break
                outcomes.append((pending.ok, pending.value))
        finally:
            self._calling(-1)
            with self._lock:
                for call_id, _ in pendings:
                    self._pending.pop(call_id, None)
        return outcomes

    def _calling(self, change: int) -> None:
        """Count a thread in (1) or out (-1) of waiting for answers it reads itself: the
        readers' epoll is hushed while any does."""
        with self._turn:
            self._callers += change
            if change > 0 and self._callers == 1:
                self._channel.hush()
            elif not self._callers:
                self._channel.unhush()  # the readers read on

    def _await_held(self, pending: _Pending, timeout: float | None) -> bool:
        """Wait for the answer of a call of a sequence, whose answers the other end holds
        back until the sequence ends: when ``timeout`` runs out, ask for what it holds,
        and give up if this answer is not among it. So a call is given up only once
        ``timeout`` passed with no answer of it or of the call before it (the one before
        has answered by then: the call has run for at least that long)."""
        if timeout is None:
            return self._await(pending, None)
        if self._await(pending, time.monotonic() + timeout):
            return True
        if self.late_decode:  # the answers were in the message dropped: none will come
            return False
        try:
            self._send(Flush(), hold=False)
        except ChannelClosed as e:
            self._lose(str(e))
        return self._await(pending, time.monotonic() + min(timeout, _FLUSH_GRACE))

    def _hang(self, method: str, timeout: float | None) -> DriverTimeout:
        """The hang of ``method``; says so when its time ran out decoding a message."""
        fault = _hang(method, timeout)
        if self.late_decode:
            fault.message = f"{fault.message}: the {self.late_decode}"
            fault.args = (fault.message,)
        return fault

    def post(self, target: int, method: str, args: tuple) -> None:
        """Call a ``oneway`` method of the other end's object ``target``: sent, never
        answered. The other end runs it before it reads anything sent after it."""
        if self.lost is not None:
            raise DriverCrashed(f"{self.lost} before {method}", method)
        self.last_method = method
        try:
            self._send(Call(ONEWAY_CALL, target, method, tuple(args)))
        except ChannelClosed as e:
            self._lose(str(e))
            raise DriverCrashed(f"{self.lost or e} during {method}", method) from None

    # -- receiving ----------------------------------------------------------
    #
    # Each hop between threads costs a wake-up: about 0.1 ms of wall time when a
    # core is idle, and CPU time on both sides when none is (a certification
    # keeps both cores busy). So a call's answer reaches its caller with no hop:
    #
    # * a caller reads the channel itself until its answer comes, handing on
    #   what is not its own (answers of other callers, one-way calls, calls to
    #   serve, which go to a worker thread); a caller that finds another
    #   thread reading waits for its answer or for the reading to be free;
    # * the reader thread reads while no caller waits (a late notification,
    #   a call from the other end, the end of the channel). When bytes come
    #   while a caller waits, the caller alone is woken (the readers' epoll
    #   is not armed meanwhile); a Python thread that wakes takes the GIL
    #   from the thread doing the work;
    # * a reader that reads a call serves it on its own thread and then reads
    #   on, while a standby reader (started the first time none waits) waits
    #   for what comes meanwhile: calls run side by side and a served call can
    #   wait for a later message, yet a call and its answer wake one thread at
    #   each end (before, two or three: about 0.15 ms of CPU per call).
    #
    # A sequence of calls (``call_sequence``) crosses as one frame and is
    # served in order by one thread: one hop for the lot.

    def _await(self, pending: _Pending, deadline: float | None) -> bool:
        """Wait for ``pending``'s answer, reading the channel while no other thread does;
        False if ``deadline`` passed first. The caller is counted in (``_calling``)."""
        channel = self._channel
        while True:
            with self._turn:
                while True:
                    if pending.done:
                        return True
                    if channel.reading.acquire(blocking=False):
                        break
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        return False
                    self._turn.wait(remaining)  # an answer came, or the reading is free
            try:
                while not pending.done and not channel.closed:
                    message = self._receive(deadline, deadline)
                    if message is None:
                        if self._losing:
                            break  # the loss ends this call: it is done, with the fault
                        if deadline is not None and time.monotonic() >= deadline:
                            return pending.done
                    elif type(message) in _SERVED:
                        self._workers.submit(lambda served=message: self._serve_any(served))
            finally:
                self._release_reading()
            if channel.closed and not pending.done:
                return False

    def _release_reading(self) -> None:
        """Let go of the reading and wake the callers waiting for it. The socket is armed
        again: bytes this thread did not read (the next frame) wake a waiter."""
        with self._turn:
            self._channel.reading.release()
            self._turn.notify_all()
        self._channel.kick()

    def _finish(self, pending: _Pending) -> None:
        with self._turn:
            pending.done = True
            self._turn.notify_all()

    def _reader(self) -> None:
        """Read while no caller does; serve a call read here on this thread, a standby
        reader waiting meanwhile, then read on."""
        channel = self._channel
        idle = True
        try:
            while not (channel.closed or self._losing):
                if not channel.wait_readable(_IDLE_WAIT):
                    continue
                with self._turn:
                    if self._callers:  # woken just before a caller came: the bytes are its
                        continue
                channel.reading.acquire()
                try:
                    decode_by = None if self.timeout is None else time.monotonic() + self.timeout
                    message = None if channel.closed else self._receive(0.0, decode_by, False)
                finally:
                    self._release_reading()
                if type(message) in _SERVED and not self._serve_reading(message):
                    idle = False  # uncounted already
                    return
        finally:
            if idle:
                with self._turn:
                    self._idle_readers -= 1

    def _serve_reading(self, served: Call | Calls) -> bool:
        """Serve a call on the reader that read it, with another reader waiting meanwhile
        (started if none is: a served call may wait for a later message, and calls run
        side by side). Whether this thread should read on (False: enough others do)."""
        with self._turn:
            self._idle_readers -= 1
            standby = self._idle_readers == 0
            if standby:
                self._idle_readers += 1
        if standby:
            self._workers.submit(self._reader)
        try:
            self._serve_any(served)
        finally:
            with self._turn:
                stay = self._idle_readers < _SPARE_READERS
                if stay:
                    self._idle_readers += 1
        return stay

    def _serve_any(self, served: Call | Calls) -> None:
        if type(served) is Calls:
            self._serve_all(served)
        else:
            self._serve(served)

    def _receive(
        self, deadline: float | None, decode_by: float | None, caller: bool = True
    ) -> object:
        """Read one message (holding the channel's ``reading``) and act on it, but for a
        call to serve, which is returned. None if ``deadline`` passed first or the
        channel broke (the loss is recorded).

        Decoding stops at ``decode_by`` (a caller's: its call's deadline; the reader's:
        the connection's timeout from now): a message that takes longer to build (a
        driver's answer of 300,000 remote objects) is dropped where it was. A caller's
        call then ends as a hang naming it (``late_decode``); for the reader it is a
        protocol violation."""
        try:
            frame = self._channel.receive(deadline)
            if frame is None:
                return None
            body, fds = frame
            decoder = codec.Decoder(
                fds,
                self,
                self._limits,
                ReceivedHandle,
                _closed_fd_number,
                self._deltas == "accept",
                decode_by,
            )
            try:
                message = decoder.decode(body)
            except BaseException:
                _close_fds(fds)
                raise
            del body
            _close_fds(decoder.unclaimed())
            if decoder.fences and self.on_fences is not None:
                self.on_fences(list(decoder.fences.values()))
            if type(message) is Calls or (type(message) is Call and message.call_id != ONEWAY_CALL):
                return message
            self._dispatch(message)
            return True
        except ChannelClosed as e:
            self._lose(str(e))
        except codec.DecodeTimeout as e:
            subject = "driver answer" if self.owner is not None else "message"
            if caller:
                self.late_decode = f"{subject} {e}"
            else:
                self._lose(f"protocol violation: {subject} {e}", malformed=True)
        except ProtocolError as e:
            subject = "driver answer" if self.owner is not None else "message"
            self._lose(f"protocol violation: {subject} {e}", malformed=True)
        except BaseException as e:  # the reader must always report why it stopped
            self._lose(f"channel reader failed: {type(e).__name__}: {e}")
        return None

    def _dispatch(self, message: object) -> None:
        kind = type(message)
        if kind is Call:
            self._serve_oneway(message)
        elif kind is Return or kind is Raise:
            with self._lock:
                pending = self._pending.get(message.call_id)
            if pending is None:
                return  # the caller gave up (timeout): drop the late answer
            if kind is Return:
                pending.ok, pending.value = True, message.value
            else:
                pending.value = remote_error(
                    message.type_name,
                    codec.bounded(message.message, _MAX_ERROR),
                    codec.bounded(message.traceback, _MAX_TRACEBACK),
                )
            self._finish(pending)
        elif kind is Release:
            self._release(message.items)
        elif kind is Batch:
            for part in message.messages:
                self._dispatch(part)
        elif kind is Flush:
            with contextlib.suppress(ChannelClosed):
                self.flush()
        else:  # Hello: the codec builds nothing else at the top
            self.hello = message.value
            self._hello.set()

    def wait_hello(self, timeout: float) -> object:
        """The other end's first message; None if the channel broke before it came."""
        if not self._hello.wait(timeout):
            raise DriverTimeout(f"the driver service did not start within {timeout:g} s", "start")
        self._hello.clear()
        hello, self.hello = self.hello, None
        return hello

    def send_hello(self, value: object) -> None:
        self._send(Hello(value))

    def _serve(self, call: Call) -> None:
        call_id, target, method, args = call.call_id, call.target, call.method, call.args
        with self._lock:
            entry = self._exports.get(target)
        try:
            if entry is None:
                raise LookupError(f"object {target} is unknown here (released?)")
            if method not in entry[2]:
                raise LookupError(
                    f"{codec.safe_repr(method, 80)} is not a method of {', '.join(entry[3])}"
                )
            value = getattr(entry[0], method)(*args)
        except BaseException as e:  # SystemExit in a driver thread is an escaped exception too
            answer: object = Raise(
                call_id,
                type(e).__name__,
                codec.bounded(_message_of(e), _MAX_ERROR),
                codec.bounded(traceback.format_exc(), _MAX_TRACEBACK),
            )
        else:
            answer = Return(call_id, value)
        try:
            self._send(answer)
        except ChannelClosed:
            return
        except Exception as e:  # an answer that cannot be encoded (say, nested too deep)
            with contextlib.suppress(ChannelClosed):
                self._send(
                    Raise(
                        call_id,
                        "EncodingError",
                        f"the answer of {method} cannot be sent: {type(e).__name__}: "
                        f"{codec.bounded(_message_of(e), _MAX_ERROR)}",
                        "",
                    )
                )

    def _serve_all(self, sequence: Calls) -> None:
        """Serve a sequence on this thread, holding back what it sends (answers, one-way
        calls) until the sequence ends, or the caller asks (``Flush``), or ``_MAX_HELD``
        are held: one frame for the lot, as one frame brought the calls."""
        ident = threading.get_ident()
        held = _Held()
        with self._held_lock:
            self._held[ident] = held
        self._local.held = held
        try:
            self._serve_each(sequence)
        finally:
            self._local.held = None
            with self._held_lock:
                del self._held[ident]
                rest = held.take()
            with contextlib.suppress(ChannelClosed):
                self._send_held(rest)

    def _serve_each(self, sequence: Calls) -> None:
        values = sequence.values
        for call_id, target, method, places in sequence.calls:
            if call_id == ONEWAY_CALL or self.lost is not None:
                return  # a sequence is of answered calls; none is run after the end
            if not all(type(i) is int and 0 <= i < len(values) for i in places):
                args: tuple = ()  # no such argument: the call is refused as it stands
                method = f"{method} (malformed arguments)"
            else:
                args = tuple(values[i] for i in places)
            self._serve(Call(call_id, target, method, args))

    def _serve_oneway(self, call: Call) -> None:
        """A one-way call, run here on the reader (in order with what follows it): only a
        ``oneway`` method of an object we exported; nothing is answered, and what it
        raises is dropped (its caller is not waiting)."""
        with self._lock:
            entry = self._exports.get(call.target)
        if entry is None or call.method not in oneway_methods(entry[3]):
            return
        with contextlib.suppress(Exception):
            getattr(entry[0], call.method)(*call.args)

    # -- the end ------------------------------------------------------------

    def _lose(self, reason: str, malformed: bool = False) -> None:
        with self._lock:
            if self._losing:
                return
            self._losing = True
        if malformed:  # the other process is alive: show it the end of its channel at
            # once (a service exits on it) while the owner works out what happened
            with contextlib.suppress(OSError):
                self._channel.sock.shutdown(socket.SHUT_RDWR)
        lost = reason
        if self._on_lost is not None:
            with contextlib.suppress(Exception):
                lost = self._on_lost(self, reason) or reason
        with self._lock:
            self.lost = lost  # published only now: a closed connection has its fault recorded
            pending = list(self._pending.values())
            self._exports.clear()
            self._export_ids.clear()
        fault = MalformedAnswer if malformed else DriverCrashed
        for waiter in pending:
            waiter.value = fault(f"{lost} during {waiter.method}", waiter.method)
            self._finish(waiter)
        self._hello.set()
        self._channel.close()
        with self._turn:  # waiting callers end now
            self._turn.notify_all()

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


__all__ = [
    "INTERFACES",
    "MAX_FDS",
    "MAX_FRAME",
    "Channel",
    "ChannelClosed",
    "Connection",
    "DriverCrashed",
    "DriverFault",
    "DriverTimeout",
    "MalformedAnswer",
    "MalformedMessage",
    "Opaque",
    "ProtocolError",
    "ReceivedHandle",
    "RemoteError",
    "interface_methods",
    "interfaces_of",
    "oneway_methods",
    "remote_error",
]
