"""The graph's queries: what a system declares, what a kind holds, who cites an ID and
what it cites, where it is published and what amends it, asked of the render fixture
(``tests/fixtures/render/records/demo``) and of the clean analysis set
(``tests/fixtures/check/clean-set``) as the pipeline links them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.graph.system_graph import Place, SystemGraph
from generator.model.ids import RecordKind, kind_of, sort_key
from generator.model.kinds import list_kinds
from generator.model.prose import Section
from generator.pipeline import run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "tests" / "fixtures" / "render"
CLEAN_SET = REPO_ROOT / "tests" / "fixtures" / "check" / "clean-set"
SUPPLIED = "RT-RTE-context-resolve"


def _graph(folder: Path) -> SystemGraph:
    result = run_pipeline(folder / "records", folder)
    assert result.errors == []
    (graph,) = result.graphs
    return graph


@pytest.fixture(scope="module")
def demo() -> SystemGraph:
    return _graph(DEMO)


@pytest.fixture(scope="module")
def analysis_set() -> SystemGraph:
    return _graph(CLEAN_SET)


# ---------------------------------------------------------------- what is declared


def test_record_and_supplied_record_answer_by_id(demo: SystemGraph) -> None:
    route = demo.record("RTE-1")
    assert route is not None and route.label == "Prompt → answer"
    assert demo.record(SUPPLIED) is None  # supplied: declared elsewhere
    supplied = demo.supplied_record(SUPPLIED)
    assert supplied is not None and supplied.label == "Context resolution"
    assert demo.supplied_record("RTE-1") is None
    assert demo.record("RTE-99") is None and demo.supplied_record("RTE-99") is None


def test_is_declared_covers_records_and_supplied_ids(demo: SystemGraph) -> None:
    assert demo.is_declared("RTE-1") and demo.is_declared(SUPPLIED)
    assert not demo.is_declared("RTE-99")
    assert demo.resolve("MEM-RTE-knowledge-store-backed") == "MEM-RTE-knowledge-store"


def test_source_answers_source_records_only(demo: SystemGraph) -> None:
    source = demo.source("SRC-2")
    assert source is not None and source.revision == "fedcba9876543210"
    assert demo.source("RTE-1") is None
    assert demo.source("SRC-9") is None


def test_records_of_kind_are_in_declaration_order(demo: SystemGraph) -> None:
    assert [r.id for r in demo.records_of_kind(RecordKind.ROUTE)] == [
        "MEM-RTE-knowledge",
        "MEM-RTE-knowledge-store",
        "RTE-1",
        "RTE-2",
    ]
    for kind in list_kinds().values():
        declared = [r.id for r in demo.system.records if kind_of(r.id) == kind]
        assert [r.id for r in demo.records_of_kind(kind)] == declared
    assert demo.records_of_kind("NOPE") == ()


def test_kind_lists_are_computed_once(demo: SystemGraph) -> None:
    assert demo.records_of_kind(RecordKind.OBJECT) is demo.records_of_kind(RecordKind.OBJECT)
    assert demo.records_in_id_order is demo.records_in_id_order


def test_records_and_supplied_in_id_order(demo: SystemGraph) -> None:
    ids = [r.id for r in demo.records_in_id_order]
    assert ids == sorted({r.id for r in demo.system.records}, key=sort_key)
    assert ids[:2] == ["ABS-1", "BAP-1"] and ids[-1] == "MEM-RTE-knowledge-store"
    assert [s.id for s in demo.supplied_in_id_order] == [SUPPLIED]


# ---------------------------------------------------------------- who cites what


def test_cites_lists_what_a_record_cites_in_id_order(demo: SystemGraph) -> None:
    assert demo.cites("RTE-1") == ["CMP-1", "OBJ-1", "OBJ-2", "SRC-1", "SRC-2"]
    assert demo.cites("CMP-1") == ["SRC-1", "MEM-RTE-knowledge", "MEM-RTE-knowledge-store"]
    assert demo.cites(SUPPLIED) == ()  # a supplied record cites nothing here
    assert demo.cites("RTE-99") == ()


def test_cited_by_lists_records_and_sections_sorted(demo: SystemGraph) -> None:
    places = demo.cited_by("OBJ-1")
    assert Place("demo", "result", "rte-1", "RTE-1") in places
    assert Place("demo", "result", "runtime-account", "Runtime account") in places
    assert Place("demo", "memory-report", "boundary-and-evidence", "Boundary and evidence") in places
    assert list(places) == sorted(places, key=lambda p: (p.page, sort_key(p.title), p.anchor))
    annotation = Place("demo", "memory-report", "on-rt-rte-context-resolve", f"On {SUPPLIED}")
    assert annotation in demo.cited_by(SUPPLIED)
    assert demo.cited_by("RTE-99") == ()


def test_cites_and_cited_by_are_two_directions_of_one_relation(demo: SystemGraph) -> None:
    for record in demo.records_in_id_order:
        for target in demo.cites(record.id):
            assert record.id in {place.title for place in demo.cited_by(target)}


# ---------------------------------------------------------------- where it is published


def test_place_and_page_of_a_record(demo: SystemGraph) -> None:
    assert demo.place_of("MEM-OBJ-store") == Place("demo", "result", "mem-obj-store", "Knowledge store rows")
    assert demo.page_of("MEM-OBJ-store") == demo.home_page == "result"
    assert demo.place_of(SUPPLIED) is None
    assert not demo.records_on_member_pages


def test_section_anchors_and_prose_sections(demo: SystemGraph) -> None:
    result = demo.system.result
    assert result is not None
    assert demo.section_anchor(result.runtime_account) == "runtime-account"
    assert demo.section_anchor(Section(title="Runtime account")) is None  # never placed
    first = demo.prose_sections[0]
    assert first.place == Place("demo", "result", "run-identity", "Run identity")
    assert [section.place.page for section in demo.prose_sections][-1] == "memory-report"
    assert "Access notes" in {section.place.title for section in demo.prose_sections}


def test_a_set_publishes_records_on_their_members_pages(analysis_set: SystemGraph) -> None:
    assert analysis_set.records_on_member_pages
    assert analysis_set.home_page == "overview"
    assert analysis_set.page_of("RTE-2") == "runtime"
    assert analysis_set.place_of("RTE-2") == Place("demo", "runtime", "rte-2", "Read notes back")


def test_amendments_of_a_record(analysis_set: SystemGraph, demo: SystemGraph) -> None:
    (amended,) = analysis_set.amendments_of("RTE-2")
    anchor, amendment = amended
    assert anchor == amended.anchor == "amendment-rte-2"
    assert amendment.targets == ["RTE-2"] and amendment.affects == ["MEM-RTE-1"]
    reconciliation = Place("demo", "reconciliation", "amendment-rte-2", "Amendment: RTE-2")
    assert reconciliation in analysis_set.cited_by("RTE-2")
    assert analysis_set.amendments_of("RTE-1") == ()
    assert demo.amendments_of("RTE-1") == ()


# ---------------------------------------------------------------- the queries are the only door

_STORAGE = re.compile(
    r"graph\._(records|supplied|cited_by|sources|cites|declared|record_pages|amended|section_anchors"
    r"|prose_sections|by_kind)\b"
)


def test_only_the_graph_reads_its_storage() -> None:
    """Pages, the LSP, exports, search and macros ask the graph's queries; its storage
    fields are read inside ``generator/graph/`` only."""
    generator = REPO_ROOT / "generator"
    outside = [
        path
        for path in sorted(generator.rglob("*"))
        if path.suffix in {".py", ".j2"} and path.relative_to(generator).parts[0] != "graph"
    ]
    offenders = [
        f"{path.relative_to(REPO_ROOT)}: {match.group(0)}"
        for path in outside
        for match in _STORAGE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
