"""Systems' pages rendered in forked workers, from the first systems linked on.

Rendering is most of a build's records stage; checking and linking the systems, which this
process does, the rest. A worker forked now renders the systems linked so far, which it
inherits (nothing is pickled on the way there: the graphs cannot be, and need not be).
So while a build checks, it forks a worker for the systems linked since the last one
whenever none runs; once every system is linked, ``WORKERS`` workers share what is left,
taking one system at a time, while this process renders the cross-system pages. They
also take the systems a worker forked earlier has not begun yet (each worker's systems
are handed out through a counter in shared memory), so no worker ends long after the
others.

What comes back from a worker is each system's pages (Markdown text) and the values
computed beside them (``alongside``: the record index and export parts a build writes
later), sent as each system is done. The pages are the same, in the same order, as
rendered one by one here.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext, ForkProcess
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Protocol

from generator.graph.system_graph import SystemGraph
from generator.util.forking import forkable

# Systems from which a build renders them in forked workers: below it, starting the
# workers costs more than the second core saves (benchmarks/versus_plain.py measures it).
PARALLEL_FROM = 8
WORKERS = 2


class Alongside(Protocol):
    """A value computed from one graph, beside its pages (``pipeline.PerGraph``)."""

    def compute(self, graph: SystemGraph) -> Any: ...

    def keep(self, graph: SystemGraph, value: Any) -> None: ...


class WorkerFailed(RuntimeError):
    """A worker ended with another code than 0 (killed, or ended by its render), or met an
    exception that could not be sent as it was (its type and text are)."""


@dataclass
class _Worker:
    process: ForkProcess
    results: Connection
    taken: _Taken  # the positions it takes from (others may take them too)


@dataclass
class RenderWorkers:
    """The pages of the graphs ``add``-ed, in that order, from ``finish``.

    ``hand_off`` (between this process's own steps) forks a worker for the graphs added
    since the last one, when no worker runs, once ``PARALLEL_FROM`` graphs are known or
    expected. A KB of fewer systems, or a process that may not fork, renders every graph
    here."""

    alongside: Sequence[Alongside] = ()
    render: Callable[[SystemGraph], dict[str, str]] = field(default=lambda graph: _render(graph))
    graphs: list[SystemGraph] = field(default_factory=list)
    _pages: dict[int, dict[str, str]] = field(default_factory=dict)  # by position in graphs
    _given: int = 0  # graphs[:_given] are rendered here or taken by a worker
    _workers: list[_Worker] = field(default_factory=list)
    _context: ForkContext | None = None

    def add(self, graph: SystemGraph) -> None:
        self.graphs.append(graph)

    def hand_off(self, coming: int = 0) -> None:
        """Take in what workers sent, and fork one for the graphs waiting if none runs;
        ``coming``: how many more graphs are expected at least (the folders not yet checked)."""
        self._receive(block=False)
        if self._workers or len(self.graphs) < 2 or len(self.graphs) + coming < PARALLEL_FROM:
            return
        if not forkable():
            return
        self._render_first_here()
        if self._given < len(self.graphs):
            self._fork([self._shared(len(self.graphs))])

    def finish(self, meanwhile: Callable[[], None] = lambda: None) -> list[dict[str, str]]:
        """Every graph's pages; ``meanwhile`` runs here while workers render the rest."""
        try:
            if len(self.graphs) >= PARALLEL_FROM and forkable():
                self._render_first_here()
                # The rest first, then what the running workers have not begun.
                sources = [self._shared(len(self.graphs)), *(worker.taken for worker in self._workers)]
                for _ in range(min(WORKERS, sum(map(_Taken.left, sources)))):
                    self._fork(sources)
            meanwhile()
            for position in range(self._given, len(self.graphs)):
                self._pages[position] = self.render(self.graphs[position])
            self._given = len(self.graphs)
            while self._workers:
                self._receive(block=True)
        finally:
            self.stop()
        return [self._pages[position] for position in range(len(self.graphs))]

    def stop(self) -> None:
        """End the workers still running (a build that met errors renders nothing)."""
        for worker in self._workers:
            worker.process.terminate()
            worker.process.join()
            worker.results.close()
        self._workers.clear()

    def _render_first_here(self) -> None:
        # The first graph is rendered here before any fork, its values computed beside: the
        # workers inherit the compiled templates and what rendering and the values remember
        # (the record index's terms of each word met so far, as lunr stems them).
        if self._given == 0:
            graph = self.graphs[0]
            self._pages[0] = self.render(graph)
            for memo in self.alongside:
                memo.keep(graph, memo.compute(graph))
            self._given = 1

    def _context_of(self) -> ForkContext:
        if self._context is None:
            self._context = multiprocessing.get_context("fork")
        return self._context

    def _shared(self, stop: int) -> _Taken:
        """The graphs not yet given, up to ``stop``, handed out through a shared counter."""
        taken = _Taken(self._context_of().Value("i", self._given), self._given, stop)
        self._given = stop
        return taken

    def _fork(self, sources: list[_Taken]) -> None:
        """A worker taking positions from each of ``sources`` in turn, the first its own."""
        reader, writer = self._context_of().Pipe(duplex=False)
        process = self._context_of().Process(
            target=_serve, args=(writer, self.graphs, sources, self.render, self.alongside), daemon=True
        )
        process.start()
        writer.close()  # the worker's end: at the worker's exit, this end reads its end
        self._workers.append(_Worker(process, reader, sources[0]))

    def _receive(self, *, block: bool) -> None:
        """What the workers sent: each system's pages and values, or a worker's end."""
        if not self._workers:
            return
        by_connection = {id(worker.results): worker for worker in self._workers}
        for ready in wait([worker.results for worker in self._workers], timeout=None if block else 0):
            assert isinstance(ready, Connection)
            worker = by_connection[id(ready)]
            while True:
                try:
                    sent = ready.recv()
                except EOFError:
                    self._ended(worker)
                    break
                self._take(sent)
                if not ready.poll():
                    break

    def _take(self, sent: tuple[int, Any, list[Any]]) -> None:
        position, pages, values = sent
        if position < 0:
            raise pages  # what a worker met, as it met it
        self._pages[position] = pages
        graph = self.graphs[position]
        for memo, value in zip(self.alongside, values, strict=True):
            memo.keep(graph, value)

    def _ended(self, worker: _Worker) -> None:
        worker.process.join()
        worker.results.close()
        self._workers.remove(worker)
        if worker.process.exitcode != 0:
            raise WorkerFailed(f"a render worker ended with code {worker.process.exitcode}")


@dataclass(frozen=True)
class _Taken:
    """Positions ``start`` to ``stop`` handed out one at a time to the workers that share
    them: each takes the next one not yet taken."""

    next: Synchronized[int]
    start: int
    stop: int

    def left(self) -> int:
        """How many are not taken yet (more may be, meanwhile)."""
        return max(0, self.stop - self.next.value)

    def __iter__(self) -> Any:
        while True:
            with self.next.get_lock():
                position = self.next.value
                if position >= self.stop:
                    return
                self.next.value = position + 1
            yield position


def _render(graph: SystemGraph) -> dict[str, str]:
    from generator.render.pages import render_system

    return render_system(graph)


def _serve(
    results: Connection,
    graphs: list[SystemGraph],
    sources: list[_Taken],
    render: Callable[[SystemGraph], dict[str, str]],
    alongside: Sequence[Alongside],
) -> None:
    """A worker: each position's pages and values sent as soon as they are made."""
    try:
        for position in chain.from_iterable(sources):
            graph = graphs[position]
            results.send((position, render(graph), [memo.compute(graph) for memo in alongside]))
    except BaseException as exc:  # sent to the parent, which raises it
        results.send((-1, _sendable(exc), []))
    finally:
        results.close()


def _sendable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # an exception that cannot be pickled: its text
        return WorkerFailed(f"{type(exc).__name__}: {exc}")
    return exc
