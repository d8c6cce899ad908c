"""Data export: every record and profile as JSON, the memory comparison as CSV (in this
project's layout, or in the corpus's: ``corpus_comparison.py``).

Both are built from a rendered pipeline result (the CSV carries the SHA-256 of each
system's report page), are deterministic (sorted systems and records, ``\\n`` line
endings, no clock time) and ship in the built site (``exports/``) as well as through
``kbgen export``. The JSON has a schema of its own, ``schemas/export.schema.json``,
generated from the models below.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from generator.check.route_contract import contract_findings
from generator.load.fingerprint import TextDigests
from generator.model.ids import kind_of
from generator.model.kinds import kind_names, qualified_status_fields
from generator.model.profile import ALL_AXES
from generator.outputs import spreadsheet_cells
from generator.outputs.corpus_comparison import corpus_header, corpus_row
from generator.outputs.csv_layouts import CsvLayout
from generator.pipeline import PerGraph
from generator.render import urls
from generator.render.comparison import run_page
from generator.render.registry import SYSTEM_PAGE, system_pages

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph
    from generator.pipeline import PipelineResult

EXPORT_VERSION = 1
JSON_SCHEMA_PATH = "schemas/export.schema.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ExportReference(_Frozen):
    """A resolved reference: the target's ID, kind, label and URL (relative to the site root)."""

    id: str
    kind: str = Field(description="The target's kind ('route', …) or 'declared elsewhere'.")
    label: str | None
    url: str | None = Field(description="The target's page and anchor, relative to the site root.")


class ExportStatus(_Frozen):
    label: str
    value: str = Field(description="The controlled conclusion status.")
    qualifier: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="What qualifies the value, as written ('conditional on installation').",
    )


class ExportEvidence(_Frozen):
    """An evidence anchor of a record, with the URL of the cited file at the pinned revision."""

    source: str
    path: str = Field(description="The cited file; empty when the anchor is a document locator.")
    locator: str = Field(default="", description="A document locator ('§3.1', 'Table 2'); empty for a file.")
    lines: list[list[int]]
    url: str | None = Field(description="The file at the source's pinned revision (first line range).")


class ExportRecord(_Frozen):
    """One record: its fields as written, its statuses, where it is published and what it cites."""

    id: str
    kind: str
    label: str | None
    anchor: str
    url: str
    statuses: list[ExportStatus]
    fields: dict[str, Any] = Field(description="Every field of the record as validated (defaults omitted).")
    evidence: list[ExportEvidence]
    references: list[ExportReference]


class ExportSystem(_Frozen):
    slug: str
    name: str
    run_id: str | None
    evidence_tier: str | None
    run: dict[str, Any] | None
    pages: dict[str, str] = Field(description="Page key → URL relative to the site root.")
    records: list[ExportRecord]
    supplied: list[ExportReference]
    profile: dict[str, Any] | None = Field(description="The memory-comparison profile, keys as written.")
    contract_findings: list[str] = Field(
        default_factory=list,
        description="In a run written under an earlier route contract (run.contract), what today's "
        "contract would flag, one finding per route (never an error); empty under today's contract.",
    )


class ExportDocument(_Frozen):
    """The whole KB as data (``kbgen export --format json``)."""

    version: int = Field(description=f"The export format's version ({EXPORT_VERSION}).")
    systems: list[ExportSystem]


def _reference(graph: SystemGraph, target: str) -> ExportReference:
    record, place = graph.record(target), graph.place_of(target)
    if record is not None and place is not None:
        url = urls.site_url(urls.page_path(place.page, graph.slug), place.anchor)
        return ExportReference(id=target, kind=kind_names()[kind_of(target)][0], label=record.label, url=url)  # type: ignore[index]
    supplied = graph.supplied_record(target)
    # Records declared elsewhere are listed on the system page.
    url = urls.site_url(urls.page_path(SYSTEM_PAGE, graph.slug), urls.anchor_of(target))
    return ExportReference(
        id=target, kind="declared elsewhere", label=supplied.label if supplied else None, url=url
    )


def _records(graph: SystemGraph) -> list[ExportRecord]:
    exported = []
    for record in graph.records_in_id_order:
        record_id = record.id
        place = graph.place_of(record_id)
        assert place is not None
        exported.append(
            ExportRecord(
                id=record_id,
                kind=kind_names()[kind_of(record_id)][0],  # type: ignore[index]
                label=record.label,
                anchor=place.anchor,
                url=urls.site_url(urls.page_path(place.page, graph.slug), place.anchor),
                statuses=[
                    ExportStatus(label=label, value=value, qualifier=qualifier)
                    for label, value, qualifier in qualified_status_fields(record)
                ],
                fields=record.model_dump(mode="json", exclude_defaults=True),
                evidence=[
                    ExportEvidence(
                        source=anchor.source,
                        path=anchor.path or "",
                        locator=anchor.locator or "",
                        lines=[list(pair) for pair in anchor.lines],
                        url=(
                            graph.evidence_url(anchor.source, anchor.path, (anchor.ranges or (None,))[0])
                            if anchor.path
                            else None
                        ),
                    )
                    for anchor in record.evidence
                ],
                references=[_reference(graph, target) for target in graph.cites(record_id)],
            )
        )
    return exported


def _system(graph: SystemGraph) -> ExportSystem:
    run = graph.system.run
    profile = graph.system.memory_comparison
    return ExportSystem(
        slug=graph.slug,
        name=run.system if run else graph.slug,
        run_id=run.run_id if run else None,
        evidence_tier=run.evidence_tier.value if run and run.evidence_tier else None,
        run=run.model_dump(mode="json", exclude_none=True) if run else None,
        pages={
            spec.key: urls.site_url(urls.page_path(spec.key, graph.slug))
            for spec in system_pages(graph.system)
        },
        records=_records(graph),
        supplied=[_reference(graph, s.id) for s in graph.supplied_in_id_order],
        profile=profile.model_dump(mode="json", exclude_none=True) if profile else None,
        contract_findings=[finding.text for finding in contract_findings(graph.system)],
    )


def _selected(result: PipelineResult, system: str | None) -> list[SystemGraph]:
    graphs = sorted(result.graphs, key=lambda g: g.slug)
    return [g for g in graphs if g.slug == system] if system else graphs


def _system_json(graph: SystemGraph) -> bytes:
    """One system's entry of the export, as ``json.dumps(…, indent=2)`` writes it inside the
    document's ``systems`` list (indented one level deeper than at the top level), in UTF-8."""
    # pydantic's serializer writes what json.dumps(indent=2, ensure_ascii=False) writes (the
    # tests compare the two on hostile text), several times faster: json.dumps has no C
    # encoder for indented output.
    entry = _system(graph).model_dump_json(indent=2)
    return entry.replace("\n", "\n    ").encode("utf-8")


def export_memo() -> PerGraph[bytes]:
    """``kbgen serve``: each system's serialized entry, kept while its graph is. A system's
    entry depends on its own graph alone, so an edit re-serializes one system."""
    return PerGraph(_system_json)


def export_json_bytes(
    result: PipelineResult, system: str | None = None, memo: PerGraph[bytes] | None = None
) -> bytes:
    """``export_json`` in UTF-8, assembled as bytes (what the site ships: joining the
    entries' text at a hundred systems copied four bytes a character)."""
    graphs = _selected(result, system)
    entries = memo.values(graphs) if memo is not None else [_system_json(g) for g in graphs]
    head = b'{\n  "version": %d,\n  "systems": ' % EXPORT_VERSION
    if not entries:
        return head + b"[]\n}\n"
    # One join of every piece: tens of megabytes at a hundred systems, copied once.
    pieces = [head + b"[\n    "]
    for at, entry in enumerate(entries):
        pieces += [b",\n    ", entry] if at else [entry]
    pieces.append(b"\n  ]\n}\n")
    return b"".join(pieces)


def export_json(
    result: PipelineResult, system: str | None = None, memo: PerGraph[bytes] | None = None
) -> str:
    """Every record of every (or one) system with its references, and the profiles.

    The document is assembled from each system's serialized entry (``_system_json``),
    which is byte for byte what ``json.dumps`` writes for the whole document (JSON strings
    hold no raw newline, so re-indenting line by line is exact; ``tests/outputs/test_export.py``
    checks it)."""
    return export_json_bytes(result, system, memo).decode("utf-8")


def export_schema_text() -> str:
    """The JSON Schema of ``export_json``'s output, as committed."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "export.schema.json",
        **ExportDocument.model_json_schema(),
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- the comparison as CSV

LEAD_COLUMNS = ("system", "name", "run_id", "evidence_tier", "scope")
AXIS_COLUMNS = ("assessment", "values", "basis", "records")
TAIL_COLUMNS = ("report_page", "report_sha256")


def csv_header() -> list[str]:
    """Stable columns: the system, then per axis (the ten, then the four extra axes results
    may carry) its assessment, values, basis and records."""
    per_axis = [f"{axis}.{column}" for axis in ALL_AXES for column in AXIS_COLUMNS]
    return [*LEAD_COLUMNS, *per_axis, *TAIL_COLUMNS]


def _csv_row(result: PipelineResult, graph: SystemGraph, digests: TextDigests) -> list[str]:
    profile = graph.system.memory_comparison
    assert profile is not None
    run = graph.system.run
    cells = [
        graph.slug,
        run.system if run else graph.slug,
        (run.run_id if run else None) or "",
        run.evidence_tier.value if run and run.evidence_tier else "",
        profile.scope,
    ]
    for axis in ALL_AXES:
        entry = profile.axis(axis)
        if entry is None:
            cells += [""] * len(AXIS_COLUMNS)
            continue
        # The basis where the document put it: once for the axis, or per value.
        basis = (
            [entry.basis]
            if entry.basis
            else [
                f"{value}={entry.evidence[value].basis}" for value in entry.values if value in entry.evidence
            ]
        )
        cells += [entry.assessment, " ".join(entry.values), " ".join(basis), " ".join(entry.records)]
    page = run_page(graph.system)
    path = urls.page_path(page, graph.slug)
    markdown = result.pages.get(path)
    digest = digests.of(path, markdown) if markdown is not None else ""
    return [*cells, path if markdown is not None else "", digest]


def export_csv(
    result: PipelineResult,
    system: str | None = None,
    digests: TextDigests | None = None,
    layout: CsvLayout = "default",
) -> str:
    """The comparison table: one row per system with a profile, in slug order (``digests``:
    the report pages' digests kept by ``kbgen serve``; ``layout``: this project's columns, or
    the corpus's comparison's, ``corpus_comparison``). Every cell is written through
    ``spreadsheet_cells.inert_cell``."""
    digests = digests or TextDigests()
    corpus = layout == "corpus"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(corpus_header() if corpus else csv_header())
    for graph in _selected(result, system):
        if graph.system.memory_comparison is not None:
            cells = corpus_row(graph) if corpus else _csv_row(result, graph, digests)
            writer.writerow([spreadsheet_cells.inert_cell(cell) for cell in cells])
    return buffer.getvalue()


def site_exports(
    result: PipelineResult, memo: PerGraph[bytes] | None = None, digests: TextDigests | None = None
) -> dict[str, str | bytes]:
    """The files the built site ships for download (path below the site root → content)."""
    return {
        urls.KB_JSON: export_json_bytes(result, memo=memo),
        urls.COMPARISON_CSV: export_csv(result, digests=digests),
    }
