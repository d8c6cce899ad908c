"""Importing an analysis set: a folder holding ``ARTIFACT.yaml`` and its member files.

The manifest's SHA-256 of every member is checked against the bytes of the input files
first; on any mismatch (or a member missing, or a file the manifest does not list)
nothing is written. Each member is then imported by the single-document importer as
its member document (``overview``, ``runtime_report``, …) and the members' files are
merged into one system folder, prefixed by the member (``runtime-routes.yaml``): one
run (from the overview's frontmatter), one ``analysis_set``, and no record left
'declared elsewhere' that another member of the set declares.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Diagnostic, Rule, error
from generator.importer.build import build
from generator.importer.coverage import Coverage, combined, lost_text
from generator.importer.document import parse_document
from generator.importer.emit import MODELINE, dump_file
from generator.importer.findings import IMPORT_FINDINGS_FILE, Findings, findings_of, one_finding_per_id
from generator.importer.frontmatter_shape import unsafe_shape
from generator.importer.import_rules import KB607
from generator.importer.structure import Structure, lost_structure
from generator.importer.structure import combined as combined_structure
from generator.model.files import Run
from generator.model.sets import MEMBER_FILES, MEMBER_KEYS, MEMBER_ORDER
from generator.model.vocab import Member

# The set's run, its analysis_set and the records no member declares: a single document's
# run.yaml, for the set.
SET_FILE = "set.yaml"

KB611 = Rule(
    "KB611",
    "import-set-manifest",
    "A set folder's members do not match its manifest; nothing imported.",
    doc=(
        "`kbgen import DIR`: a set folder's member files do not match its `ARTIFACT.yaml` (a digest differs, "
        "a pinned member is missing, a Markdown file is not pinned, a pinned file is not a member) or the "
        "manifest is not one; nothing is written"
    ),
)


def pinned_members(text: str, display: str) -> tuple[dict[str, str], list[Diagnostic]]:
    """Member file → pinned SHA-256 from the manifest's text."""
    try:
        refusal = unsafe_shape(text)
        if refusal is not None:
            return {}, [error(KB611, f"the set manifest {refusal[0]}", display, refusal[1] + 1, 1)]
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        return {}, [
            error(
                KB611,
                f"the set manifest is not valid YAML: {getattr(exc, 'problem', exc)}",
                display,
                line,
                1,
            )
        ]
    members = data.get("members") if isinstance(data, dict) else None
    if not isinstance(members, dict) or not all(
        isinstance(entry, dict) and isinstance(entry.get("sha256"), str) for entry in members.values()
    ):
        return {}, [error(KB611, "not a set manifest: expected 'members: {<file>: {sha256: …}}'", display)]
    return {str(name): str(entry["sha256"]) for name, entry in members.items()}, []


def verify_members(folder: Path, pinned: dict[str, str], texts: dict[str, str]) -> list[Diagnostic]:
    """Every member's bytes against its pinned digest; every Markdown child is a member."""
    problems = []
    display = folder.as_posix()
    known = {MEMBER_FILES[member] for member in MEMBER_ORDER}
    for name, digest in pinned.items():
        if name not in known:
            problems.append(error(KB611, f"the manifest pins {name}, which is not a set member", display))
        elif name not in texts:
            problems.append(error(KB611, f"{name} is pinned by the manifest but missing", display))
        else:
            actual = hashlib.sha256(texts[name].encode("utf-8")).hexdigest()
            if actual != digest:
                problems.append(
                    error(
                        KB611,
                        f"{name} has SHA-256 {actual}, the manifest pins {digest}; nothing imported",
                        f"{display}/{name}",
                    )
                )
    for name in sorted(set(texts) - set(pinned)):
        problems.append(error(KB611, f"{name} is in the set folder but not pinned by the manifest", display))
    return problems


def _member_files(member: Member, text: str, display: str, slug: str) -> tuple[dict[str, Any], Any]:
    """The files one member becomes (name → mapping) and its import findings."""
    result = build(parse_document(text), display, slug, MEMBER_KEYS[member])
    return result.files, result.diagnostics


def _front(text: str) -> dict[str, Any]:
    document = parse_document(text)
    if document.frontmatter is None:
        return {}
    try:
        # Deep nesting or aliases are refused (and reported) by the member's own import.
        if unsafe_shape(document.frontmatter) is not None:
            return {}
        front = yaml.safe_load(document.frontmatter)
    except yaml.YAMLError:
        return {}
    return front if isinstance(front, dict) else {}


def merge_members(
    texts: dict[str, str], folder: Path, slug: str, schema_line: str = MODELINE
) -> tuple[dict[str, str], list[Diagnostic], Coverage, Structure, Findings]:
    """The system (or run) folder's files (name → YAML text, each opening with
    ``schema_line``) built from the member texts, the diagnostics, what of the members the
    files keep (each measured against its own files and the set's run) and what they do not
    keep (the findings file, written with them)."""
    members = [member for member in MEMBER_ORDER if MEMBER_FILES[member] in texts]
    merged: dict[str, dict[str, Any]] = {}
    supplied: list[dict[str, Any]] = []
    findings: list[Diagnostic] = []
    declared: set[str] = set()
    run: dict[str, Any] = {}
    own_files: dict[str, list[Any]] = {}
    for member in members:
        name = MEMBER_FILES[member]
        files, diagnostics = _member_files(member, texts[name], f"{folder.as_posix()}/{name}", slug)
        findings.extend(diagnostics)
        own_files[name] = list(files.values())
        run_file = files.pop("run.yaml", {})
        supplied.extend(run_file.get("supplied", []))
        if member is Member.OVERVIEW:
            run = dict(run_file.get("run", {}))
        for file_name, mapping in files.items():
            for value in mapping.values():
                if isinstance(value, list):
                    declared.update(item["id"] for item in value if isinstance(item, dict) and "id" in item)
            merged[f"{member.value}-{file_name}"] = mapping
    overview_front = _front(texts.get(MEMBER_FILES[Member.OVERVIEW], ""))
    # The overview's run fields are read (and what the model refuses kept as prose) by its import.
    run = {key: run[key] for key in Run.model_fields if key in run}
    merged[SET_FILE] = {"run": run, "analysis_set": _analysis_set(texts, members, overview_front)}
    # A record another member declares is not 'supplied': drop the importer's notes on it.
    findings = [d for d in findings if not (d.rule == KB607 and d.message.split(" ", 1)[0] in declared)]
    elsewhere = _still_elsewhere(supplied, declared)
    if elsewhere:
        merged[SET_FILE]["supplied"] = elsewhere
    parts = []
    shapes = []
    kept_out = Findings()
    for name, mappings in own_files.items():
        display = f"{folder.as_posix()}/{name}"
        shape, lost_records = lost_structure(texts[name], [*mappings, merged[SET_FILE]], display)
        shapes.append(shape)
        part, lost = lost_text(texts[name], [*mappings, merged[SET_FILE]], display)
        parts.append(part)
        findings = [*one_finding_per_id(findings, shape), *lost_records, *lost]
        kept_out += findings_of(texts[name], display, shape, part)
    lost_file = kept_out.file()
    if lost_file is not None:
        merged[IMPORT_FINDINGS_FILE] = lost_file
    files = {name: dump_file(mapping, schema_line) for name, mapping in sorted(merged.items())}
    return files, findings, combined(parts), combined_structure(shapes), kept_out


def _still_elsewhere(supplied: list[dict[str, Any]], declared: set[str]) -> list[dict[str, Any]]:
    """Supplied records no member declares, once each."""
    kept: dict[str, dict[str, Any]] = {}
    for entry in supplied:
        if entry["id"] not in declared:
            kept.setdefault(entry["id"], entry)
    return list(kept.values())


def _analysis_set(texts: dict[str, str], members: list[Member], overview: dict[str, Any]) -> dict[str, Any]:
    entries = []
    for member in members:
        front = _front(texts[MEMBER_FILES[member]])
        entries.append({"member": member.value, "type": str(front.get("type") or "")})
    return {
        "run_id": str(overview.get("run-id") or ""),
        "reviewed_boundary": str(overview.get("reviewed-boundary") or ""),
        "members": entries,
    }
