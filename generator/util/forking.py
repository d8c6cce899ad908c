"""Work shared with one forked child: whether a process may fork, the two ends of a list of
items the process and its child take from, and the child itself.

The process takes items in order from the first, the child from the last backwards, and
whoever reaches an item first does it (``TwoEnds``), so the two end together however a
shared machine divides its cores between them. The child sends back what its work returns
and ends with ``os._exit``: it never returns into its parent's code, nor runs its exit
handlers.
"""

from __future__ import annotations

import functools
import gc
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pipe
from multiprocessing.connection import Connection
from typing import Any


def forkable() -> bool:
    """Whether this process may fork workers: a process with other threads running is not
    forked (a lock one of them held would stay held in the child), nor one where processes
    cannot share a lock (no working ``sem_open``, as in some containers), which the workers
    take their work through."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and _locks_shared()
    )


@functools.cache
def _locks_shared() -> bool:
    try:
        multiprocessing.get_context("fork").Lock()
    except (OSError, ImportError):
        return False
    return True


class TwoEnds:
    """The items ``0 … count-1`` shared between this process, which takes them in order
    from the first, and a forked child, which takes them from the last backwards.

    Made before the child is forked (the two ends live in shared memory). The child never
    takes the first item: this process is at work on it, or about to be, when it forks."""

    def __init__(self, count: int) -> None:
        self.count = count
        # This process's next item, and the first item the child has taken (its items are
        # that one and those after it).
        self._ends = multiprocessing.get_context("fork").Array("i", [0, count])

    def build_takes(self, at: int) -> bool:
        """Whether this process does item ``at`` itself. It asks for its items in their
        order; once the child has taken an item, it has taken every later one too."""
        with self._ends.get_lock():
            if at >= self._ends[1]:
                return False
            self._ends[0] = at + 1
            return True

    def child_items(self) -> Iterator[int]:
        """In the child: its items from the last backwards, each taken as it is reached,
        while this process has not taken it."""
        for at in range(self.count - 1, 0, -1):
            with self._ends.get_lock():
                if at < self._ends[0]:
                    return
                self._ends[1] = at
            yield at


def two_ends(count: int) -> TwoEnds | None:
    """``TwoEnds`` over ``count`` items, or None where this system cannot share a lock
    between processes (no working ``sem_open``, as in some containers): the work then
    stays on one core."""
    try:
        return TwoEnds(count)
    except (OSError, ImportError):
        return None


@dataclass
class Child:
    """A forked child, and the end of the pipe it sends its result through."""

    pid: int
    results: Connection

    def take(self, failed: Any = None) -> Any:
        """What the child sent (``failed`` if it sent nothing: it raised or died); the child
        is reaped."""
        try:
            found = self.results.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            found = failed
        finally:
            self.results.close()
            os.waitpid(self.pid, 0)
        return found

    def abandon(self) -> None:
        self.results.close()
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def fork_child(work: Callable[[], Any]) -> Child:
    """Run ``work`` in a forked child, which sends back what it returns and exits (1, having
    sent nothing, if it raises)."""
    receiving, sending = Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: never returns to its parent's code, never runs its exit handlers
        code = 1
        try:
            receiving.close()
            gc.freeze()  # the collector leaves the parent's objects alone: fewer pages copied
            sending.send(work())
            code = 0
        finally:
            os._exit(code)
    sending.close()
    return Child(pid, receiving)
