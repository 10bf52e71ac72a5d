"""A pool of daemon threads that run calls: used by burst listeners and the isolation channel."""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable


class Workers:
    """Daemon threads that run calls; a new one starts whenever none is idle.

    Daemon threads, not a ThreadPoolExecutor: a driver call that never returns
    must not keep the interpreter from exiting.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = 0
        self._lock = threading.Lock()
        self._count = itertools.count(1)

    def submit(self, task: Callable[[], None]) -> None:
        with self._lock:
            start = self._idle == 0
            if not start:
                self._idle -= 1
        if start:
            threading.Thread(
                target=self._work,
                args=(task,),
                name=f"{self._name}-{next(self._count)}",
                daemon=True,
            ).start()
        else:
            self._tasks.put(task)

    def _work(self, task: Callable[[], None]) -> None:
        while True:
            task()
            task = None
            with self._lock:
                self._idle += 1
            task = self._tasks.get()
