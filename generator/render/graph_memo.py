"""Values the renderer derives from one system's graph alone, kept while that graph lives.

``kbgen serve`` keeps an unchanged system's graph across rebuilds, and a cross-system page
(the status matrix) writes a part per system on every rebuild: kept here, an edit to one
system writes only that system's part again. A graph that is linked anew (its records or
its run history changed) is another object, so nothing stale is ever found; an entry goes
with its graph.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

T = TypeVar("T")


class GraphMemo(Generic[T]):
    """Per graph (by identity), each key's value, computed once."""

    def __init__(self) -> None:
        self._by_graph: dict[int, tuple[weakref.ref[SystemGraph], dict[Hashable, T]]] = {}

    def get(self, graph: SystemGraph, key: Hashable, compute: Callable[[], T]) -> T:
        entry = self._by_graph.get(id(graph))
        if entry is None or entry[0]() is not graph:
            entry = (weakref.ref(graph, self._forget(id(graph))), {})
            self._by_graph[id(graph)] = entry
        values = entry[1]
        if key not in values:
            values[key] = compute()
        return values[key]

    def __len__(self) -> int:
        return len(self._by_graph)

    def _forget(self, graph_id: int) -> Callable[[weakref.ref[SystemGraph]], None]:
        def forget(gone: weakref.ref[SystemGraph]) -> None:
            entry = self._by_graph.get(graph_id)
            if entry is not None and entry[0] is gone:
                del self._by_graph[graph_id]

        return forget
