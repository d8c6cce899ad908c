"""From a parsed document to the mappings of a record folder.

The walk follows the document: each top-level section becomes the section of the result
or memory report with that title; in 'Shared records' and 'Annotations' the recognisers
find declarations; everything they do not structure stays as prose, in order, in the
section where it was written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from generator.diagnostics import Diagnostic, Rule
from generator.importer.columns import fold
from generator.importer.context import Gathered
from generator.importer.doc_types import RUN_FIELDS, DocumentType, active_types
from generator.importer.document import Block, Document, Section
from generator.importer.finish import assemble
from generator.importer.frontmatter import Frontmatter, read_frontmatter
from generator.importer.frontmatter_shape import unsafe_shape
from generator.importer.import_rules import KB601
from generator.importer.ledger import LedgerWalker
from generator.importer.prose import ProseWalker
from generator.importer.refusals import mend_mapping, refuses
from generator.importer.run import contract_from_frontmatter
from generator.importer.sections import section_keys
from generator.importer.shared import SharedWalker
from generator.model.files import Run
from generator.model.profile import MemoryComparison

KB608 = Rule(
    "KB608",
    "import-section",
    "A section is not one of the document type's; kept under the one before.",
    doc=(
        "`kbgen import`, warning: a `##` section that is not one of the document type's sections is kept as "
        "a subsection of the section before it"
    ),
)

KB609 = Rule(
    "KB609",
    "import-frontmatter",
    "A document's frontmatter is not a YAML mapping.",
    doc=(
        "`kbgen import`, error: the frontmatter is not a YAML mapping, not safe YAML, uses anchors or "
        "aliases, or nests deeper than 64 levels"
    ),
)


@dataclass
class ImportResult:
    """The files of the new system folder (file name → top-level mapping) and the findings."""

    files: dict[str, dict[str, Any]]
    diagnostics: list[Diagnostic]


def build(document: Document, display: str, slug: str, kind: str | None = None) -> ImportResult:
    """Turn a parsed document into the record files of system ``slug``; ``kind`` is the
    document type's key (a set's member), else the type its ``type:`` declares, else a
    result or memory report by its title."""
    gathered = Gathered(display)
    frontmatter = _frontmatter(document, gathered)
    front: dict[str, Any] = frontmatter.value
    title_section = _title_section(document)
    title = title_section.title or slug
    doc_type = str(front.get("type") or "") or _type_line(title_section)
    member = kind is not None  # a member of a set: see drafts.finish
    types = active_types()
    if kind is not None:
        spec = types.by_key(kind)
    else:
        declared = types.declared(doc_type)
        if declared is None:
            by_title = "memory_report" if "memory" in (doc_type + " " + title).lower() else "result"
            declared = types.by_key(by_title)
            if front.get("type"):
                gathered.warn(
                    KB601,
                    f"type {doc_type!r} names no document type the importer reads; "
                    f"read as a {by_title.replace('_', ' ')} by its title",
                    document.frontmatter_line + frontmatter.line_of("type"),
                    1,
                    hint="A single document names the type agentic-system-analysis-result or "
                    "agent-memory-analysis-report; import an analysis set as its folder.",
                )
        spec = declared
    gathered.contract = contract_from_frontmatter(front, not member and spec.key == "result")
    prose = ProseWalker(gathered, document.form == "text", spec.key if member else None)
    shared = SharedWalker(gathered, prose)
    body = _sections(title_section, spec, gathered, prose, shared)
    if prose.amendments:
        body["amendments"] = prose.amendments
    held = IMPORTED_KEYS | (spec.member_keys if member else frozenset())
    _keep_other_frontmatter(frontmatter, document.frontmatter_line, gathered, body, held)
    files = assemble(gathered, spec, title, doc_type, front, body, document.form, set_member=member)
    _mend_run_and_profile(files, body, frontmatter, document.frontmatter_line, gathered)
    return ImportResult(files, gathered.diagnostics)


# The frontmatter key a run field is read from (for locating a refusal).
_FRONT_KEY_OF = {
    "run_id": "run-id",
    "run_date": "run-date",
    "disposition": "result-disposition",
    "target_class": "target-class",
    "boundary_kind": "boundary-kind",
    "reviewed_boundary": "reviewed-boundary",
    "analysis_cutoff": "analysis-cutoff",
    "evidence_tier": "evidence-tier",
    "summary": "description",
}


def _mend_run_and_profile(
    files: dict[str, dict[str, Any]],
    body: dict[str, Any],
    frontmatter: Frontmatter,
    first_line: int,
    gathered: Gathered,
) -> None:
    """The run and the profile as their models accept them: a refused run field, or a
    refused profile, is kept as text at the start of the first section (KB601), located
    at its frontmatter key (``first_line``: the frontmatter's first line in the document)."""

    def at(key: str) -> int:
        return first_line + frontmatter.line_of(key)

    def warn(field: str, message: str) -> None:
        gathered.warn(KB601, message, at(_FRONT_KEY_OF.get(field, field)), 1)

    run = files.get("run.yaml", {}).get("run")

    def label_of(field: str) -> str:
        return _FRONT_KEY_OF.get(field, field)

    kept = mend_mapping(Run, run, warn, label_of) if isinstance(run, dict) else []
    profile = files.get("profile.yaml", {}).get("memory_comparison")
    if profile is not None:
        problem = refuses(MemoryComparison, profile)
        if problem is not None:
            del files["profile.yaml"]
            gathered.warn(
                KB601,
                f"the memory-comparison profile is not one the model reads ({problem}); "
                "kept as a paragraph of the first section",
                at("memory-comparison"),
                1,
            )
            kept.append("memory-comparison: " + json.dumps(profile, ensure_ascii=False, default=str))
    if kept and body:
        first = body[next(iter(body))]
        first["blocks"] = kept + first.get("blocks", [])


def declared_kind(doc_type: str) -> str | None:
    """The document model a ``type:`` path declares: a result is a result whatever else it
    carries (a memory profile, a title naming memory)."""
    spec = active_types().declared(doc_type)
    return spec.model if spec else None


def _frontmatter(document: Document, gathered: Gathered) -> Frontmatter:
    """The frontmatter as a mapping with its keys' lines (an empty one where it is refused)."""
    if document.frontmatter is None:
        return Frontmatter({})
    try:
        refusal = unsafe_shape(document.frontmatter)
        if refusal is not None:
            gathered.fail(KB609, f"frontmatter {refusal[0]}", document.frontmatter_line + refusal[1], 1)
            return Frontmatter({})
        front = read_frontmatter(document.frontmatter)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = document.frontmatter_line + (mark.line if mark else 0)
        gathered.fail(KB609, f"frontmatter is not valid YAML: {getattr(exc, 'problem', exc)}", line, 1)
        return Frontmatter({})
    if not isinstance(front.value, dict):
        gathered.fail(KB609, "frontmatter is not a mapping", document.frontmatter_line, 1)
        return Frontmatter({})
    return front


# Frontmatter keys the records hold (run identity, type, profile; description as the run
# summary; the display name and run date of a single document's run).
IMPORTED_KEYS = frozenset(
    {
        "type",
        "run-id",
        "source-identity",
        "reviewed-boundary",
        "memory-comparison",
        "description",
        "system",
        "run-date",
        *RUN_FIELDS,
    }
)


def _keep_other_frontmatter(
    frontmatter: Frontmatter, first_line: int, gathered: Gathered, body: dict[str, Any], held: frozenset[str]
) -> None:
    """A frontmatter key the records have no field for is kept as a paragraph of the first
    section (``first_line``: the frontmatter's first line in the document)."""
    front: dict[str, Any] = frontmatter.value
    kept = []
    for key, value in front.items():
        if key in held or not isinstance(value, str | int | float | bool):
            continue
        if key == "source-revision" and str(value) == str(front.get("reviewed-boundary") or value):
            continue  # the rendered pages' name of the reviewed revision: the run holds it
        kept.append(f"{key}: {value}")
        gathered.warn(
            KB601,
            f"frontmatter key {key!r} has no record field; kept as a paragraph of the first section",
            first_line + frontmatter.line_of(str(key)),
            1,
        )
    if kept and body:
        first = body[next(iter(body))]
        first["blocks"] = kept + first.get("blocks", [])


def _title_section(document: Document) -> Section:
    children = document.root.children
    if len(children) == 1 and children[0].level == 1:
        title = children[0]
        title.blocks = document.root.blocks + title.blocks
        return title
    return Section("", 0, 1, blocks=document.root.blocks, children=children)


def _type_line(title_section: Section) -> str:
    """A plain document's ``Type: …`` line, taken out of the prose."""
    for block in list(title_section.blocks):
        if block.kind == "paragraph" and block.text.startswith("Type: "):
            title_section.blocks.remove(block)
            return block.text.removeprefix("Type: ").strip()
    return ""


def _sections(
    title_section: Section, spec: DocumentType, gathered: Gathered, prose: ProseWalker, shared: SharedWalker
) -> dict[str, Any]:
    """Each top-level section under its model key; an unknown one joins the section before it.
    A section a walker other than the prose walker reads (``spec.walkers``) goes to it."""
    keys = {**section_keys(spec.model), **{fold(t): key for t, key in spec.section_synonyms.items()}}
    walkers = {
        "shared": shared.shared_records,
        "annotations": shared.annotations,
        "ledger": lambda section: LedgerWalker(gathered, prose).section(section),
    }
    body: dict[str, Any] = {}
    previous: str | None = None
    for section in _top_sections(title_section, gathered):
        key = keys.get(fold(section.title)) or keys.get(fold(_NUMBERED.sub("", section.title)))
        if key is None:
            target = previous or next(iter(keys.values()))
            gathered.warn(
                KB608,
                f"section {section.title!r} is not a section of a {spec.model.replace('_', ' ')}; "
                f"kept as a subsection of {target!r}",
                section.line,
                section.col,
            )
            entry = body.setdefault(target, {})
            entry.setdefault("sections", []).append(prose.subsection(section))
            continue
        previous = key
        walker = walkers.get(spec.walkers.get(key, ""), prose.section)
        body[key] = walker(section)
    if prose.limitation_headers and "limitations" in keys.values():
        # The page's limitations table is headed as the document's was.
        body.setdefault("limitations", {})["headers"] = prose.limitation_headers
    return body


# A numbered section title: "3. Source register", "2.1 Scope".
_NUMBERED = re.compile(r"^[0-9]+(?:\.[0-9]+)*\.?\s+")


def _top_sections(title_section: Section, gathered: Gathered) -> list[Section]:
    """The level-2 sections; text before the first one joins the first."""
    sections = list(title_section.children)
    if title_section.blocks and sections:
        sections[0].blocks = title_section.blocks + sections[0].blocks
    elif title_section.blocks:
        sections = [Section("", 2, title_section.blocks[0].line, blocks=title_section.blocks)]
    return sections


__all__ = ["Block", "ImportResult", "build"]
