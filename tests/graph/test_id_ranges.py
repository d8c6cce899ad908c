"""A range written ``RTE-1–RTE-3`` cites every ID it spans when each is declared: each
lists the citing place under "Referenced by", and the check gives no KB205 warning; a
range spanning an ID nobody declares, or one that cannot be expanded, stays a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import make_records

from generator.model.ids import MAX_RANGE_IDS, range_ids
from generator.pipeline import run_pipeline

ROUTES = """\
routes:
  - id: RTE-1
    label: First
  - id: RTE-2
    label: Second
  - id: RTE-3
    label: Third
"""


def _records(tmp_path: Path, remark: str, routes: str = ROUTES) -> Path:
    component = (
        "components:\n  - id: CMP-1\n    label: Agent loop\n    form: Symbolic code.\n"
        "    statuses:\n      implementation conclusion status: wired\n"
        f"    remarks: {remark}\n"
    )
    return make_records(tmp_path, {"records.yaml": component + routes})


def test_a_declared_range_cites_each_id_it_spans(tmp_path: Path) -> None:
    records = _records(tmp_path, "It drives RTE-1–RTE-3 alike.")
    result = run_pipeline(records, tmp_path)
    assert [d.code for d in result.diagnostics] == []
    (graph,) = result.graphs
    for route in ("RTE-1", "RTE-2", "RTE-3"):
        assert "cmp-1" in [place.anchor for place in graph.cited_by(route)], route


def test_a_range_spanning_an_undeclared_id_is_a_warning(tmp_path: Path) -> None:
    routes = ROUTES.replace("  - id: RTE-2\n    label: Second\n", "")
    records = _records(tmp_path, "It drives RTE-1–RTE-3 alike.", routes)
    result = run_pipeline(records, tmp_path)
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("KB205", "range RTE-1–RTE-3 spans RTE-2, which nobody declares; list each ID")
    ]


@pytest.mark.parametrize(
    ("first", "last", "spans"),
    [
        ("RTE-1", "RTE-3", ["RTE-1", "RTE-2", "RTE-3"]),
        ("RTE-3", "RTE-1", None),  # out of order
        ("RTE-1", "CMP-3", None),  # two kinds
        ("RTE-1", "RTE-1", None),  # no range
        ("RTE-1", f"RTE-{MAX_RANGE_IDS + 1}", None),  # too many to name
    ],
)
def test_the_ids_a_range_spans(first: str, last: str, spans: list[str] | None) -> None:
    assert range_ids(first, last) == spans
