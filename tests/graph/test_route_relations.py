"""The route relations the maps draw: each route field of the declaration table draws its
own edge type, prose and the fields the table leaves out draw none, and an ID no record
declares draws nothing.

The fixture is the clean demo system (RTE-1 owned by CMP-1, RTE-2 with labelled fields)
plus ``fields.yaml``: one route naming a record in each labelled field, and prose, an
uncertain value, the evidence limits and an undeclared ID that must draw nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import make_records

from generator.graph.route_relations import (
    ACTIVATION_OR_EFFECT,
    DELEGATED_VISIBILITY,
    IMMEDIATE_RETURN,
    INVALIDATION_OR_EXPIRY,
    LATER_READ_BACK,
    OWNER,
    PROGRESSION,
    ROUTE_FIELD_RELATIONS,
    SELECTION_PREDICATE,
    MapNode,
    route_relations,
)
from generator.graph.system_graph import SystemGraph, link_system
from generator.model.records import Route, RouteFields
from generator.pipeline import check_records
from generator.render.registry import PLACEMENT

FIELDS = """\
objects:
  - id: OBJ-1
    label: Session log
  - id: OBJ-2
    label: Notes
  - id: OBJ-3
    label: Named in prose only
routes:
  - id: RTE-10
    label: Hand-off, naming OBJ-3 in its label
    body: 'Prose: later read-back is RTE-12; writes OBJ-3.'
    remarks: Remarks name RTE-12 and OBJ-3 too.
    fields:
      immediate_return: the result goes to RTE-11.
      later_read_back: OBJ-1, read back by RTE-12 on the next turn.
      delegated_visibility: workers see OBJ-2 only.
      selection_predicate: the newest entries of OBJ-1.
      invalidation_or_expiry: RTE-13 clears it.
      activation_or_effect: changes CMP-1's next prompt (SRC-1 src/agent.py:1-2).
      evidence_limits: RTE-11 and OBJ-3 were read statically (SRC-1 src/agent.py:3-4).
  - id: RTE-11
    label: Next turn
    fields:
      immediate_return: uninspected — RTE-12 and OBJ-2 were not traced.
      later_read_back: inapplicable — OBJ-3 is never kept.
      delegated_visibility: RTE-99, which no record declares, and OBJ-2.
      selection_predicate: every turn.
      invalidation_or_expiry: uninspected — not traced.
      activation_or_effect: uninspected — no run observed.
      evidence_limits: static reading only.
  - id: RTE-12
    label: Read-back
  - id: RTE-13
    label: Expiry
"""


@pytest.fixture
def graph(tmp_path: Path) -> SystemGraph:
    """The fixture linked as the site links a system. RTE-99 is the check's one finding (a
    dangling reference, which stops a build): the graph is linked past it, as an editor's
    preview of the records being written would be, to show the maps never draw it."""
    (checked,) = check_records(make_records(tmp_path, {"fields.yaml": FIELDS}), tmp_path)
    assert [d.rule.code for d in checked.errors] == ["KB202"]
    return link_system(checked.records, PLACEMENT)


def _edges(graph: SystemGraph) -> dict[tuple[str, str], tuple[str, ...]]:
    return {
        (relation.source.record_id, relation.target.record_id): relation.labels
        for relation in route_relations(graph)
        if relation.source.note is None
    }


def test_each_labelled_field_draws_its_own_edge_type(graph: SystemGraph) -> None:
    edges = _edges(graph)
    assert {pair: labels for pair, labels in edges.items() if pair[0] == "RTE-10"} == {
        ("RTE-10", "RTE-11"): (IMMEDIATE_RETURN,),
        ("RTE-10", "OBJ-1"): (LATER_READ_BACK, SELECTION_PREDICATE),  # one edge, labels in table order
        ("RTE-10", "RTE-12"): (LATER_READ_BACK,),
        ("RTE-10", "OBJ-2"): (DELEGATED_VISIBILITY,),
        ("RTE-10", "RTE-13"): (INVALIDATION_OR_EXPIRY,),
        ("RTE-10", "CMP-1"): (ACTIVATION_OR_EFFECT,),  # not SRC-1: a cited source is evidence
    }
    assert edges["RTE-1", "CMP-1"] == (OWNER, PROGRESSION)


def test_prose_the_evidence_limits_and_uncertain_values_draw_nothing(graph: SystemGraph) -> None:
    edges = _edges(graph)
    # OBJ-3 is named by RTE-10's label, body, remarks and evidence limits, and by RTE-11's
    # inapplicable read-back: none of them is a relation.
    assert not any("OBJ-3" in pair for pair in edges)
    # RTE-11's immediate return is uninspected: the IDs its reason names are not findings.
    assert ("RTE-11", "RTE-12") not in edges
    # The demo's RTE-2 states its uncertain fields and findings naming no record: no edge.
    assert not any(pair[0] == "RTE-2" for pair in edges)


def test_an_id_no_record_declares_draws_nothing(graph: SystemGraph) -> None:
    edges = _edges(graph)
    assert {pair: labels for pair, labels in edges.items() if pair[0] == "RTE-11"} == {
        ("RTE-11", "OBJ-2"): (DELEGATED_VISIBILITY,),
    }
    nodes = {node for relation in route_relations(graph) for node in (relation.source, relation.target)}
    assert MapNode("RTE-99") not in nodes


def test_the_table_decides_every_labelled_field_and_names_only_route_fields() -> None:
    # A new labelled field must be given its edge (or None) here before it can be drawn.
    labelled = {f"fields.{name}" for name in RouteFields.model_fields}
    assert labelled <= set(ROUTE_FIELD_RELATIONS)
    assert ROUTE_FIELD_RELATIONS["fields.evidence_limits"] is None
    own = {name for name in ROUTE_FIELD_RELATIONS if "." not in name}
    assert own <= set(Route.model_fields)
    # Prose fields are never in the table.
    assert not {"label", "body", "remarks", "evidence", "guarantee"} & set(ROUTE_FIELD_RELATIONS)
    labels = [relation.label for relation in ROUTE_FIELD_RELATIONS.values() if relation is not None]
    assert len(labels) == len(set(labels))  # each field its own edge type
