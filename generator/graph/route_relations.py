"""The structured relations of a system's routes: what its route maps draw.

A relation comes from a field whose meaning is a relation, never from an ID that prose
happens to mention. Which fields those are, and the edge each draws, is one table,
``ROUTE_FIELD_RELATIONS``: a route's owner, reads, writes, part of and alternatives; the
steps its endpoints/progression field names; and the route contract's labelled fields
(immediate return, later read-back, delegated visibility, selection predicate,
invalidation or expiry, activation or effect), each an edge typed by its field. A field
the table leaves out (label, body, remarks, evidence, evidence limits) draws nothing, and
neither does a labelled field stated as ``uninspected — …`` or ``inapplicable — …`` (its
reason is prose, not a finding), nor a source a text field cites (evidence, not a step).
Beside the routes' own fields: a component's or object's routes (the routes its label
names, as in "used by RTE-23") and an annotation on a route. Which kinds are routes,
sources and route users is their kind specs' roles (``model/kinds.py``). Every relation
points from a route (or an annotation) to a declared record (an ID no record declares
draws nothing); the same pair is one relation, its labels joined in the table's order.
Families are the connected groups of related records: a route no relation reaches is in
none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from generator.model.ids import grammar, sort_key
from generator.model.kinds import Role, has_role
from generator.model.records import Route

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

# The relation labels, as the maps write them on their edges.
OWNER, READS, WRITES, PART_OF, ALTERNATIVE_TO = "owner", "reads", "writes", "part of", "alternative to"
PROGRESSION, USES, ANNOTATES = "progression", "uses", "annotates"
# The route contract's labelled fields, each its own edge type.
IMMEDIATE_RETURN, LATER_READ_BACK = "immediate return", "later read-back"
DELEGATED_VISIBILITY, SELECTION_PREDICATE = "delegated visibility", "selection predicate"
INVALIDATION_OR_EXPIRY, ACTIVATION_OR_EFFECT = "invalidation or expiry", "activation or effect"
# Drawn dotted: a branch beside the route, a note on a record.
DOTTED = frozenset({ALTERNATIVE_TO, ANNOTATES})


@dataclass(frozen=True, slots=True)
class FieldRelation:
    """The edge an ID named in one route field draws: its label (the edge's type), and
    whether the field holds IDs (a list, or one ID) or text that names them."""

    label: str
    holds: Literal["ids", "text"] = "text"


# The one table of what a route's fields mean on the maps: the field (a ``Route``
# attribute, or ``fields.<name>`` for a labelled field of the route contract) → the edge
# an ID it names draws, the labels joined in this order; None: the field relates nothing.
# A field not listed here (label, body, remarks, evidence, guarantee) never draws an edge.
# A labelled field's edge carries the field's own label: what the field says of the record
# it names ("later read-back: RTE-1" — RTE-1 reads the output back; "delegated visibility:
# through RTE-3") is the field's meaning, which the label names without restating it.
ROUTE_FIELD_RELATIONS: Mapping[str, FieldRelation | None] = MappingProxyType(
    {
        "owner": FieldRelation(OWNER),
        "reads": FieldRelation(READS, "ids"),
        "writes": FieldRelation(WRITES, "ids"),
        "part_of": FieldRelation(PART_OF, "ids"),
        "alternative_to": FieldRelation(ALTERNATIVE_TO, "ids"),
        "progression": FieldRelation(PROGRESSION),
        "fields.immediate_return": FieldRelation(IMMEDIATE_RETURN),
        "fields.later_read_back": FieldRelation(LATER_READ_BACK),
        "fields.delegated_visibility": FieldRelation(DELEGATED_VISIBILITY),
        "fields.selection_predicate": FieldRelation(SELECTION_PREDICATE),
        "fields.invalidation_or_expiry": FieldRelation(INVALIDATION_OR_EXPIRY),
        "fields.activation_or_effect": FieldRelation(ACTIVATION_OR_EFFECT),
        # The limits of the route's evidence: sources and caveats, not a record it relates.
        "fields.evidence_limits": None,
    }
)
# A labelled field stated without a finding: its reason is prose, not a relation.
_UNCERTAIN = re.compile(r"(?:uninspected|inapplicable)\s*(?:[—–-]|\Z)", re.IGNORECASE)


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


def _field_value(route: Route, field: str) -> object:
    """A route field's value by its table name (``fields.later_read_back``); None when unset."""
    owner: object = route
    for part in field.split("."):
        owner = getattr(owner, part, None) if owner is not None else None
    return owner


def _field_targets(graph: SystemGraph, value: object, holds: str) -> Iterator[str]:
    """The IDs one field's value names: as held (a list, or one ID), or named in its text
    (a source it cites is evidence, not a relation; an uncertain value names nothing)."""
    if holds == "ids":
        yield from ([value] if isinstance(value, str) else value if isinstance(value, list) else [])
        return
    if not isinstance(value, str) or _UNCERTAIN.match(value.strip()):
        return
    yield from (target for target in _named(graph, value) if not has_role(target, Role.EVIDENCE_SOURCE))


def _route_fields(graph: SystemGraph, route: Route) -> Iterator[tuple[str, str]]:
    """(label, target) of each relation a route's own fields state, in the table's order."""
    for field, relation in ROUTE_FIELD_RELATIONS.items():
        if relation is None:
            continue
        for target in _field_targets(graph, _field_value(route, field), relation.holds):
            yield relation.label, target


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
