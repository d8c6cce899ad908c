"""The kind registry: a kind is one spec plus its model, and everything derives from it.

A ``DEC`` (decision) kind is added to a kind registry of the test's own
(``KINDS.extended``) and put in force for a test (``using``); the built-in registry
never changes. With no other code change the kind is checked, linked, rendered and in
the editor schema; a document declaring decisions imports into decision records (its
spec's title aliases, its spec's record file); the language server lists them with the
spec's symbol kind and completes their IDs; their labels relate them to the routes they
name on the route maps (the spec's route-user role); and a kind of the evidenced-absence
role is what a profile axis assessed absent may cite.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hostile_support import located, make_records
from pydantic import Field

from generator.model import KINDS, KindRegistry, KindSpec, RecordBase, Role, registered, using
from generator.model.base import Text
from generator.model.files import record_file_model
from generator.model.ids import RecordKind, grammar, kind_of, sort_key
from generator.model.kinds import (
    RESERVED_PREFIXES,
    count_by_kind,
    kind_names,
    list_kinds,
    shared_kind_titles,
    spec_of_code,
    status_fields,
)
from generator.model.records import Absence, Claim, Source
from generator.model.vocab import ConclusionStatus
from generator.outputs.schema import schema_text
from generator.pipeline import run_pipeline


class Decision(RecordBase):
    """A decision taken during the analysis (test-only kind)."""

    decision: Text = Field(title="Decision taken")
    outcome: ConclusionStatus = Field(title="Outcome")


DECISION = KindSpec(
    code="DEC",
    list_key="decisions",
    model=Decision,
    singular="decision",
    plural="decisions",
    shared_title="Decisions",
    status_fields=(("outcome", "decision outcome"),),
    roles=frozenset({Role.ROUTE_USER}),  # its label names the routes that use it
    symbol_kind="Event",
    title_aliases=(("decision made", "decision"),),
    file_stem="decided",
)

DECISIONS_YAML = """\
decisions:
  - id: DEC-1
    label: Keep the loop
    decision: Keep CMP-1 as the only loop.
    outcome: wired
    body: Taken after reading RTE-1.
"""


WITH_DECISIONS = KINDS.extended(DECISION)


@pytest.fixture
def decision_kind() -> Iterator[KindRegistry]:
    with using(WITH_DECISIONS) as registry:
        yield registry


def test_builtin_kinds_in_order() -> None:
    assert registered() == KINDS.specs
    assert [spec.code for spec in registered()] == [kind.value for kind in RecordKind]
    assert list(list_kinds()) == [spec.list_key for spec in KINDS.specs]
    assert "sources" not in shared_kind_titles()
    assert kind_names()["BAP"] == ("behavioral-authority path", "behavioral-authority paths")


def test_kind_of_returns_the_enum_member_for_builtin_kinds() -> None:
    assert kind_of("RTE-11") is RecordKind.ROUTE
    assert kind_of("MEM-RTE-knowledge-store") is RecordKind.ROUTE
    assert kind_of("EPI-RTE-feedback-proposal") is RecordKind.ROUTE
    assert kind_of("XYZ-1") is None


def test_no_kind_code_is_a_valid_prefix() -> None:
    """A kind code in prefix position would make an ID read two ways: refused."""
    codes = [spec.code for spec in registered()]
    for code in codes:
        for other in codes:
            assert kind_of(f"{code}-{other}-slug") is None, (code, other)
            assert not grammar().whole.match(f"{code}-{other}-slug")


@pytest.mark.parametrize("prefix", sorted(RESERVED_PREFIXES))
def test_an_analyst_prefix_cannot_become_a_kind_code(prefix: str) -> None:
    with pytest.raises(ValueError, match="analyst prefix"):
        KINDS.extended(KindSpec(prefix, "prefixed_things", Decision, "thing", "things"))
    assert prefix not in [spec.code for spec in registered()]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (KindSpec("RTE", "more_routes", Decision, "route", "routes"), "already registered"),
        (KindSpec("DEC", "routes", Decision, "decision", "decisions"), "already registered"),
        (KindSpec("DEC", "run", Decision, "decision", "decisions"), "not a free"),
        (KindSpec("dec", "decisions", Decision, "decision", "decisions"), "upper-case"),
        (KindSpec("DEC", "decisions", Decision, "d", "ds", status_fields=(("nope", "x"),)), "status fields"),
        (KindSpec("DEC", "decisions", Decision, "d", "ds", symbol_kind="an event"), "symbol kind"),
        (
            KindSpec("DEC", "decisions", Decision, "d", "ds", title_aliases=(("Made", "decision"),)),
            "not folded",
        ),
        (KindSpec("DEC", "decisions", Decision, "d", "ds", file_stem="../x"), "file stem"),
        (KindSpec("DEC", "decisions", Decision, "d", "ds", roles=frozenset({Role.ROUTE})), "reads Route"),
        (
            KindSpec("DEC", "decisions", Decision, "d", "ds", roles=frozenset({Role.EVIDENCE_SOURCE})),
            "reads Source",
        ),
    ],
)
def test_a_conflicting_kind_is_refused(spec: KindSpec, reason: str) -> None:
    before = registered()
    with pytest.raises(ValueError, match=reason):
        KINDS.extended(spec)
    assert registered() == before


def test_status_fields_come_from_the_spec() -> None:
    claim = Claim(id="CLM-1", claim="It remembers.", conclusion_status=ConclusionStatus.CLAIMED)
    absence = Absence(id="ABS-1", searched_boundary="src/", query="grep", revision="abc", conclusion="None.")
    assert status_fields(claim) == [("claim conclusion status", "claimed")]
    assert status_fields(absence) == [("absence status", "absent")]


def test_one_counting_function() -> None:
    claim = Claim(id="CLM-1", claim="It remembers.", conclusion_status=ConclusionStatus.CLAIMED)
    counts = count_by_kind([claim, claim])
    assert counts[spec_of_code("CLM")] == 2  # type: ignore[index]
    assert sum(counts.values()) == 2 and len(counts) == len(registered())


def test_a_registered_kind_extends_grammar_and_models(decision_kind: KindRegistry) -> None:
    assert kind_of("DEC-1") == "DEC" and kind_of("MEM-DEC-keep-loop") == "DEC"
    assert sort_key("DEC-2") < sort_key("DEC-10")
    assert "decisions" in record_file_model().model_fields
    assert kind_names()["DEC"] == ("decision", "decisions")
    assert shared_kind_titles()["decisions"] == "Decisions"


def test_the_builtin_registry_keeps_no_trace_of_another() -> None:
    """Outside ``using`` the built-in kinds are in force, whatever other registries exist."""
    assert WITH_DECISIONS.spec_of_id("DEC-1") is DECISION
    assert KINDS.spec_of_id("DEC-1") is None
    assert kind_of("DEC-1") is None
    assert "decisions" not in record_file_model().model_fields
    assert "DEC" not in schema_text()


def test_a_registered_kind_is_in_the_editor_schema(decision_kind: KindRegistry) -> None:
    schema = json.loads(schema_text())
    assert "decisions" in schema["properties"]
    assert schema["$defs"]["Decision"]["properties"]["decision"]["title"] == "Decision taken"
    assert "DEC" in schema["$defs"]["Decision"]["properties"]["id"]["pattern"]
    assert "decisions" in schema["$defs"]["SharedRecords"]["properties"]


def test_a_decision_in_the_wrong_list_is_a_kind_mismatch(
    decision_kind: KindRegistry, kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = make_records(tmp_path, {"decisions.yaml": "routes:\n  - id: DEC-1\n    label: Misfiled\n"})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "--format", "json", str(records))
    assert ("KB208", "records/demo/decisions.yaml", 2, 9) in located(result)
    assert "names a decision" in result.out


def test_a_decision_without_its_text_is_a_missing_field(
    decision_kind: KindRegistry, kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = make_records(tmp_path, {"decisions.yaml": "decisions:\n  - id: DEC-1\n    outcome: wired\n"})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "--format", "json", str(records))
    assert result.code == 1
    assert located(result) == {("KB102", "records/demo/decisions.yaml", 2, 5)}


def test_a_dangling_reference_to_a_decision(
    decision_kind: KindRegistry, kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = DECISIONS_YAML + "    part_of: DEC-9\n" + "    remarks: See DEC-8.\n"
    records = make_records(tmp_path, {"decisions.yaml": text})
    monkeypatch.chdir(tmp_path)
    found = located(kbgen("check", "--format", "json", str(records)))
    assert ("KB204", "records/demo/decisions.yaml", 7, 14) in found
    assert ("KB202", "records/demo/decisions.yaml", 8, 18) in found


def test_a_decision_is_linked_and_rendered(decision_kind: KindRegistry, tmp_path: Path) -> None:
    records = make_records(tmp_path, {"decisions.yaml": DECISIONS_YAML})
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    page = result.pages["systems/demo/result.md"]
    assert "### Decisions { #decisions }" in page
    assert "#### DEC-1 — Keep the loop { #dec-1 .kb-record .kb-record--decision }" in page
    assert '<strong>Decision taken:</strong> Keep <a href="#cmp-1">CMP-1</a> as the only loop.' in page
    assert '<span class="kb-status-label">outcome</span>: <a class="kb-badge kb-badge--wired"' in page
    assert 'Taken after reading <a href="#rte-1">RTE-1</a>.' in page
    # DEC-1 cites RTE-1, so RTE-1 lists it among what references it.
    assert '<a href="#dec-1">DEC-1</a>' in page.split("{ #rte-1 ", 1)[1]
    assert (
        '<td><a href="../demo/">Demo</a></td>\n<td>decision outcome</td>'
        in result.pages["systems/status-matrix.md"]
    )


DECISION_DOCUMENT = """\
---
type: kb/types/agentic-system-analysis-result.md
run-id: AAS-2026-01-01-tiny-01
system: Tiny
run-date: '2026-01-01'
result-disposition: complete
target-class: enclosing runtime
boundary-kind: whole-system
reviewed-boundary: 0123456789abcdef0123456789abcdef01234567
analysis-cutoff: '2026-01-02'
evidence-tier: code-grounded
---

# Tiny agentic-system analysis

## 3. Source register

| Source ID | Kind | Identity/location | Revision |
|---|---|---|---|
| SRC-1 | Git | `https://github.com/example/tiny` | `0123456789abcdef0123456789abcdef01234567` |

## 4. Shared records

### Routes

RTE-1 — Note read-back. Endpoints/progression: the loop reads the notes. SRC-1 `src/loop.py:20-30`.

### Decisions

| ID | Label | Decision made | Outcome |
|---|---|---|---|
| DEC-1 | Keep the loop | Keep RTE-1 as the only read-back. | wired |

## Bounded synthesis

DEC-1 keeps the loop.
"""


def test_a_document_declaring_decisions_imports_into_decision_records(
    decision_kind: KindRegistry, tmp_path: Path
) -> None:
    """The kind's section title, its title aliases ('Decision made') and its record file
    come from its spec: the importer has no line of its own for decisions."""
    import yaml

    from generator.importer import import_document
    from generator.pipeline import check_records

    document = tmp_path / "result.md"
    document.write_text(DECISION_DOCUMENT, encoding="utf-8")
    outcome = import_document(document, "tiny", tmp_path / "records")
    assert outcome.folder is not None
    assert not [d.as_text() for d in outcome.diagnostics if d.code in ("KB601", "KB608", "KB612", "KB614")]
    written = yaml.safe_load((outcome.folder / "decided.yaml").read_text(encoding="utf-8"))
    assert written == {
        "decisions": [
            {
                "id": "DEC-1",
                "label": "Keep the loop",
                "decision": "Keep RTE-1 as the only read-back.",
                "outcome": "wired",
                # The column's header as written, where it is not the field's title.
                "labels": {"decision": "Decision made"},
            },
        ]
    }
    (checked,) = check_records(outcome.folder, tmp_path)
    assert checked.errors == []


def test_the_editor_lists_and_completes_decisions(decision_kind: KindRegistry, tmp_path: Path) -> None:
    """Outline and symbol search show a decision with its spec's symbol kind; an ID being
    written completes to the decisions declared."""
    from lsprotocol import types
    from pygls.workspace import Workspace

    from generator.lsp.features import completion, document_symbols, workspace_symbols
    from generator.lsp.positions import LineTables, Positions
    from generator.lsp.workspace import RecordsWorkspace

    written = (
        DECISIONS_YAML + "  - id: DEC-2\n    decision: Drop the cache.\n    outcome: wired\n    part_of: DE\n"
    )
    records = make_records(tmp_path, {"decisions.yaml": written})
    records_workspace = RecordsWorkspace(tmp_path, records)
    positions = Positions(Workspace(tmp_path.as_uri()), records_workspace, LineTables())
    path = records / "demo" / "decisions.yaml"
    outline = document_symbols(records_workspace, positions, path)
    assert [(s.name, s.kind, s.detail) for s in outline] == [
        ("DEC-1", types.SymbolKind.Event, "Keep the loop"),
        ("DEC-2", types.SymbolKind.Event, None),  # no label
    ]
    (found,) = workspace_symbols(records_workspace, positions, "keep the")
    assert (found.name, found.kind) == ("DEC-1 Keep the loop", types.SymbolKind.Event)
    line = written.count("\n") - 1  # the line of 'part_of: DE', the ID being written
    items = completion(records_workspace, positions, path, types.Position(line=line, character=15)).items
    assert [(item.label, item.detail) for item in items if item.label.startswith("DEC")] == [
        ("DEC-1", "decision — Keep the loop"),
        ("DEC-2", "decision"),
    ]


def test_a_decision_whose_label_names_a_route_is_on_the_route_s_map(
    decision_kind: KindRegistry, tmp_path: Path
) -> None:
    """The route maps relate a route to the records of a route-user kind whose label names it."""
    from generator.graph.route_relations import USES, MapNode, route_relations

    text = DECISIONS_YAML.replace("label: Keep the loop", "label: Keep the loop used by RTE-2")
    result = run_pipeline(make_records(tmp_path, {"decisions.yaml": text}), tmp_path)
    assert result.errors == []
    (graph,) = result.graphs
    related = {(r.source, r.target): r.labels for r in route_relations(graph)}
    assert related[MapNode("RTE-2"), MapNode("DEC-1")] == (USES,)


class NullResult(RecordBase):
    """A search that found nothing (test-only kind of the evidenced-absence role)."""

    search: Text = Field(title="Search")


NULL_RESULT = KindSpec(
    "NUL",
    "null_results",
    NullResult,
    "null result",
    "null results",
    roles=frozenset({Role.EVIDENCED_ABSENCE}),
)
ABSENT_AXIS = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "KB713-profile-absence-record"


@pytest.mark.parametrize(
    ("spec", "refused"), [(NULL_RESULT, False), (replace(NULL_RESULT, roles=frozenset()), True)]
)
def test_an_absent_axis_may_cite_a_kind_of_the_evidenced_absence_role(
    spec: KindSpec, refused: bool, tmp_path: Path
) -> None:
    """A profile axis assessed absent cites an evidenced absence: any kind whose spec has
    the role (KB713 otherwise)."""
    from generator.pipeline import check_records

    records = tmp_path / "records"
    shutil.copytree(ABSENT_AXIS / "records", records)
    profile = records / "demo" / "profile.yaml"
    text = profile.read_text(encoding="utf-8")
    absent = text.index("assessment: absent")
    profile.write_text(
        text[:absent] + text[absent:].replace("records: [RTE-1]", "records: [NUL-1]", 1), encoding="utf-8"
    )
    (records / "demo" / "nulls.yaml").write_text(
        "null_results:\n  - id: NUL-1\n    search: No curation code under src/.\n", encoding="utf-8"
    )
    with using(KINDS.extended(spec)):
        (checked,) = check_records(records, tmp_path)
    assert ("KB713" in {d.code for d in checked.errors}) is refused


class Mirror(Source):
    """A second repository the analysis cites (test-only kind of the evidence-source role)."""


MIRRORS = KindSpec(
    "MIR", "mirrors", Mirror, "mirror", "mirrors", roles=frozenset({Role.EVIDENCE_SOURCE}), symbol_kind="File"
)
MIRRORS_YAML = """\
mirrors:
  - id: MIR-1
    source_kind: Git
    identity: https://github.com/example/mirror
    location: https://github.com/example/mirror
    revision: "fedcba9876543210"
"""


def test_evidence_may_cite_a_kind_of_the_evidence_source_role(tmp_path: Path) -> None:
    """An evidence anchor names a source of any kind whose spec has the role: the anchor
    grammar follows the kinds in force, and the anchor links into that source."""
    from generator.model.anchors import find_anchors

    records = make_records(tmp_path, {"mirrors.yaml": MIRRORS_YAML})
    component = records / "demo" / "records.yaml"
    text = component.read_text(encoding="utf-8")
    component.write_text(
        text.replace("- SRC-1 src/agent.py:1-40", "- MIR-1 lib/loop.py:3-9"), encoding="utf-8"
    )
    with using(KINDS.extended(MIRRORS)):
        assert [a.source for a in find_anchors("Read MIR-1 lib/loop.py:3-9.")] == ["MIR-1"]
        result = run_pipeline(records, tmp_path)
        assert result.errors == []
    assert (
        "https://github.com/example/mirror/blob/fedcba9876543210/lib/loop.py#L3-L9"
        in result.pages["systems/demo/result.md"]
    )
    assert find_anchors("Read MIR-1 lib/loop.py:3-9.") == []  # the built-in kinds cite SRC only


def test_an_id_whose_prefix_is_a_kind_code(kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``CLM-RTE-x`` would read as prefix CLM + route, or as a claim: it is refused."""
    records = make_records(tmp_path, {"extra.yaml": "routes:\n  - id: CLM-RTE-x\n    label: Ambiguous\n"})
    monkeypatch.chdir(tmp_path)
    found = located(kbgen("check", "--format", "json", str(records)))
    assert ("KB105", "records/demo/extra.yaml", 2, 9) in found


def test_prose_fields_follow_the_text_type() -> None:
    """Which strings are prose comes from the type (Text, Label), not a list of names."""
    from generator.model.meta import is_prose
    from generator.model.records import Source, Supplied

    fields = Source.model_fields
    assert is_prose(fields["label"]) and is_prose(fields["identity"]) and is_prose(fields["body"])
    assert not is_prose(fields["revision"]) and not is_prose(fields["link_template"])
    assert not is_prose(fields["id"]) and not is_prose(Supplied.model_fields["revision"])


def test_record_fields_are_shown_in_declared_order() -> None:
    from generator.model.fields import record_badges, record_fields
    from generator.model.records import Guarantee, Route, RouteFields
    from generator.model.vocab import GuaranteeStrength

    route = Route(
        id="RTE-1",
        owner="CMP-1",
        progression="a → b",
        fields=RouteFields(immediate_return="The answer."),
        guarantee=[Guarantee(strength=GuaranteeStrength.PROTOCOL)],
        statuses={"implementation conclusion status": ConclusionStatus.WIRED},
    )
    before = [(item.label, item.rendering, item.value) for item in record_fields(route)]
    assert before == [("Endpoints/progression", "flow", "a → b"), ("Owner", "text", "CMP-1")]
    (after,) = record_fields(route, after_body=True)
    # One line per field (a field written after '; ' on another's line would join it).
    assert after.rendering == "labelled-list" and [len(line) for line in after.value] == [1] * 7
    assert (after.value[0][0].label, after.value[0][0].value) == ("Immediate return", "The answer.")
    assert [badge.rendering for badge in record_badges(route)] == ["status", "badges"]


def test_typed_table_columns_come_from_field_titles() -> None:
    from generator.model.prose import ROW_TYPES

    assert ROW_TYPES["lifecycle"].COLUMNS == {"objects": "Objects", "disposition": "Lifecycle disposition"}
    assert set(ROW_TYPES["proposal-mapping"].PROVENANCE_FIELDS) == {"proposals"}
