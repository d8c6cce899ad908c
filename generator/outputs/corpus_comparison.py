"""The memory comparison in the corpus's own layout (``kbgen export --format csv --layout corpus``).

The public comparison the analyses feed carries, for each result, what identifies the run
and its boundary, then four columns per axis of the profile (the ten, then the four extra
axes). Each cell is read from the records, never made up: what a run does not state is an
empty cell. The run's fields are those its review names (``types/generated-review.md``):
the run ID, the reviewed source's stable identity (its location), the reviewed revision,
the analysis cutoff, the evidence tier, the boundary kind; the comparison's scope is the
profile's. Per axis: its values as a JSON array in sorted order, its assessment, the basis
where the document put it (once for the axis, or ``value=basis`` per value, in the values'
order, joined by ``;``) and its records joined by ``;``, in the order written.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from generator.model.profile import ALL_AXES, AxisProfile
from generator.render.views import reviewed_source_identity, system_name

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

RESULT_COLUMNS = (
    "system_name",
    "analysis_run",
    "source_identity",
    "reviewed_revision",
    "analysis_cutoff",
    "source_tier",
    "boundary_kind",
    "comparison_scope",
)
# Per axis: the values, then what qualifies them (the column is the axis's name alone).
AXIS_SUFFIXES = ("", "_assessment", "_basis", "_records")
LIST_SEPARATOR = ";"


def corpus_header() -> list[str]:
    """The result's columns, then each axis's four."""
    return [*RESULT_COLUMNS, *(f"{axis}{suffix}" for axis in ALL_AXES for suffix in AXIS_SUFFIXES)]


def _axis_cells(entry: AxisProfile | None) -> list[str]:
    if entry is None:
        return [""] * len(AXIS_SUFFIXES)
    values = sorted(entry.values)
    basis = (
        entry.basis
        if entry.basis
        else LIST_SEPARATOR.join(
            f"{value}={entry.evidence[value].basis}" for value in values if value in entry.evidence
        )
    )
    return [
        json.dumps(values, ensure_ascii=False),
        entry.assessment,
        basis,
        LIST_SEPARATOR.join(entry.records),
    ]


def corpus_row(graph: SystemGraph) -> list[str]:
    """One system's row (its graph holds a memory-comparison profile)."""
    profile = graph.system.memory_comparison
    assert profile is not None
    run = graph.system.run
    boundary = run.reviewed_boundary if run else None
    cells = [
        system_name(graph),
        (run.run_id if run else None) or "",
        reviewed_source_identity(graph) or "",
        boundary.revision if boundary else "",
        run.analysis_cutoff.isoformat() if run and run.analysis_cutoff else "",
        run.evidence_tier.value if run and run.evidence_tier else "",
        run.boundary_kind.value if run and run.boundary_kind else "",
        profile.scope,
    ]
    for axis in ALL_AXES:
        cells += _axis_cells(profile.axis(axis))
    return cells
