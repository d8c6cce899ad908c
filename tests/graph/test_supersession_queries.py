"""The graph's supersession queries: what supersedes a record, what a record supersedes."""

from __future__ import annotations

from pathlib import Path

from generator.pipeline import run_pipeline

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "clean-supersession"


def test_superseded_by_and_supersedes_answer_both_directions() -> None:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    (graph,) = result.graphs
    assert graph.superseded_by("OBJ-1") == ("OBJ-2", "OBJ-3")
    assert graph.supersedes("OBJ-2") == ("OBJ-1",)
    assert graph.supersedes("OBJ-3") == ("OBJ-1",)
    assert graph.supersedes("OBJ-1") == ()
    assert graph.superseded_by("OBJ-2") == ()
    assert graph.superseded_by("OBJ-99") == ()
    # A supersession is a structured reference: the superseding records are cited by it.
    assert "OBJ-2" in graph.cites("OBJ-1")
