"""The structured relations of a system's routes: what its route maps draw.

A relation comes from a field whose meaning is a relation, never from an ID that prose
happens to mention: a route's owner, reads, writes, part of and alternatives; the IDs
its endpoints/progression field names (the steps it passes through; a source cited
there is evidence, not a step); a component's or object's routes (the routes its label
names, as in "used by RTE-23"); and an annotation on a route. Which kinds are routes,
sources and route users is their kind specs' roles (``model/kinds.py``). Every relation points from
a route (or an annotation) to a declared record; the same pair is one relation, its
labels joined. Families are the connected groups of related records: a route no
relation reaches is in none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.model.ids import grammar, sort_key
from generator.model.kinds import Role, has_role
from generator.model.records import Route

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

# The relation labels, as the maps write them on their edges.
OWNER, READS, WRITES, PART_OF, ALTERNATIVE_TO = "owner", "reads", "writes", "part of", "alternative to"
PROGRESSION, USES, ANNOTATES = "progression", "uses", "annotates"
# Drawn dotted: a branch beside the route, a note on a record.
DOTTED = frozenset({ALTERNATIVE_TO, ANNOTATES})


@dataclass(frozen=True, slots=True)
class MapNode:
    """A node of a route map: a declared record, or an annotation (``note`` is the
    annotation's index in the system's annotations; ``record_id`` its target)."""

    record_id: str
    note: int | None = None


@dataclass(frozen=True, slots=True)
class Relation:
    """One edge: from a route (or an annotation) to a record, with its labels in field order."""

    source: MapNode
    target: MapNode
    labels: tuple[str, ...]

    @property
    def dotted(self) -> bool:
        return all(label in DOTTED for label in self.labels)


def _named(graph: SystemGraph, text: str | None) -> Iterator[str]:
    """The declared IDs a structured text field names, in order."""
    for match in grammar().in_text.finditer(text or ""):
        resolved = graph.resolve(match.group(0))
        if resolved is not None:
            yield resolved


def _route_fields(graph: SystemGraph, route: Route) -> Iterator[tuple[str, str]]:
    """(label, target) of each relation a route's own fields state."""
    yield from ((OWNER, target) for target in _named(graph, route.owner))
    yield from ((READS, target) for target in route.reads)
    yield from ((WRITES, target) for target in route.writes)
    if route.part_of:
        yield PART_OF, route.part_of
    yield from ((ALTERNATIVE_TO, target) for target in route.alternative_to)
    steps = (
        target for target in _named(graph, route.progression) if not has_role(target, Role.EVIDENCE_SOURCE)
    )
    yield from ((PROGRESSION, target) for target in steps)


def is_route(graph: SystemGraph, record_id: str) -> bool:
    """A declared route: a record, or a supplied record, of a kind with the route role."""
    return graph.is_declared(record_id) and has_role(record_id, Role.ROUTE)


def route_relations(graph: SystemGraph) -> list[Relation]:
    """Every structured relation of the system's routes, deterministic in order: by route,
    then components' and objects' routes, then annotations."""
    found: dict[tuple[MapNode, MapNode], list[str]] = {}

    def add(source: MapNode, label: str, target: str) -> None:
        if target == source.record_id and source.note is None:
            return
        if not graph.is_declared(target):
            return
        labels = found.setdefault((source, MapNode(target)), [])
        if label not in labels:
            labels.append(label)

    records = sorted(graph.system.records, key=lambda record: sort_key(record.id))
    for record in records:
        if isinstance(record, Route):
            for label, target in _route_fields(graph, record):
                add(MapNode(record.id), label, target)
    for record in records:
        if has_role(record.id, Role.ROUTE_USER):
            for route_id in _named(graph, record.label):
                if is_route(graph, route_id):
                    add(MapNode(route_id), USES, record.id)
    for index, annotation in enumerate(graph.system.annotations):
        if is_route(graph, annotation.target):
            add(MapNode(annotation.target, index), ANNOTATES, annotation.target)
    return [Relation(source, target, tuple(labels)) for (source, target), labels in found.items()]


def families(relations: Iterable[Relation]) -> list[list[Relation]]:
    """The relations grouped by connected family (records joined by any relation), each
    family in the relations' order, the families in the order of their first route."""
    parent: dict[MapNode, MapNode] = {}
    seen: dict[MapNode, int] = {}  # order of first appearance: the earlier root stays a root

    def root(node: MapNode) -> MapNode:
        if node not in parent:
            parent[node] = node
            seen[node] = len(seen)
        while parent[node] != node:
            parent[node] = parent[parent[node]]  # path halving: near-constant time per step
            node = parent[node]
        return node

    ordered = list(relations)
    for relation in ordered:
        first, second = root(relation.source), root(relation.target)
        if first != second:
            later, earlier = sorted((first, second), key=seen.__getitem__, reverse=True)
            parent[later] = earlier
    grouped: dict[MapNode, list[Relation]] = {}
    for relation in ordered:
        grouped.setdefault(root(relation.source), []).append(relation)
    return sorted(grouped.values(), key=_first_route)


def _first_route(family: list[Relation]) -> tuple[str, str, int, str]:
    """The family's sort key: its first route ID (a relation's source is a route or a note
    on one, so every family has one)."""
    return min(sort_key(relation.source.record_id) for relation in family)
