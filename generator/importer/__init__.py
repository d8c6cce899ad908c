"""``kbgen import``: an analysis document (Markdown or plain text) becomes a record folder.

``document`` finds the structure (sections and located blocks), the ``recognisers`` the
surface forms, ``build`` maps them onto the record model, ``emit`` writes YAML and
``write`` puts the folder in place atomically. The input is read through the size-capped
reader of ``readfs``; every step is linear in the document.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec

import yaml

from generator.diagnostics import Diagnostic, Rule, error
from generator.importer.build import build
from generator.importer.coverage import Coverage, lost_text
from generator.importer.document import parse_document
from generator.importer.emit import MODELINE, RUN_MODELINE, dump_file
from generator.importer.findings import IMPORT_FINDINGS_FILE, Findings, findings_of, one_finding_per_id
from generator.importer.import_rules import KB610
from generator.importer.sets import SET_FILE, merge_members, pinned_members, verify_members
from generator.importer.structure import Structure, lost_structure
from generator.importer.write import target_problem
from generator.importer.write import write_folder as _write_folder
from generator.load.readfs import open_folder, read_text
from generator.model.ids import RUN_ID
from generator.model.runs import RUNS_FOLDER
from generator.model.set_manifest import MANIFEST_FILE

KB615 = Rule(
    "KB615",
    "import-write-failed",
    "The file system refused the import's folder (no room, no such place, no permission).",
    doc=(
        "`kbgen import`, error: the file system refused to write the folder (no room left, a place such as "
        "`/proc` where no folder can be made, no permission); nothing is written and an existing folder is "
        "kept (exit 1)"
    ),
)


@dataclass
class ImportOutcome:
    """What an import did: the folder written (None when nothing was) and its findings."""

    folder: Path | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    coverage: Coverage | None = None  # what of the document the records keep
    structure: Structure | None = None  # what of the document's records the records keep
    findings: Findings = field(default_factory=Findings)  # what it could not keep, written with the run


class _Unwritable(Exception):
    """The target folder could not be written (the file system refused)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def write_folder(records: Path, slug: str, files: dict[str, str]) -> Path:
    """``write.write_folder``, with a refusal of the file system as a located KB610."""
    try:
        return _write_folder(records, slug, files)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise _Unwritable(
            error(
                KB615, f"cannot write the folder: {reason}; nothing written", f"{records.as_posix()}/{slug}"
            )
        ) from None


def read_document(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The document's text through the records' reader (no symlink, size cap, UTF-8, no controls)."""
    display = path.as_posix()
    parent_fd, problems = open_folder(str(path.parent) or ".", path.parent.as_posix())
    if parent_fd is None:
        return None, problems
    try:
        return read_text(parent_fd, path.name, display)
    finally:
        os.close(parent_fd)


def render_files(
    text: str, display: str, slug: str, schema_line: str = MODELINE
) -> tuple[dict[str, str], list[Diagnostic]]:
    """The record files a document becomes (name → YAML text), and the import findings
    (``schema_line``: ``RUN_MODELINE`` for a further run's folder)."""
    measured = render_measured(text, display, slug, schema_line)
    return measured.files, measured.diagnostics


@dataclass
class Measured:
    """A document's record files (name → YAML text), the import findings, and what of the
    document's words and structure the files keep."""

    files: dict[str, str]
    diagnostics: list[Diagnostic]
    coverage: Coverage
    structure: Structure
    findings: Findings


def render_measured(text: str, display: str, slug: str, schema_line: str = MODELINE) -> Measured:
    """The record files, the findings, and what of the document the files keep; each file
    opens with ``schema_line``, the editor-schema line from the folder it is written to."""
    result = build(parse_document(text), display, slug)
    structure, lost_records = lost_structure(text, result.files.values(), display)
    coverage, lost = lost_text(text, result.files.values(), display)
    findings = findings_of(text, display, structure, coverage)
    files = with_findings(result.files, findings)
    diagnostics = one_finding_per_id(result.diagnostics, structure)
    return Measured(
        {name: dump_file(mapping, schema_line) for name, mapping in files.items()},
        diagnostics + lost_records + lost,
        coverage,
        structure,
        findings,
    )


def with_findings(files: dict[str, Any], findings: Findings) -> dict[str, Any]:
    """The record files and, when the import lost something, its findings file (added
    after both measures: the findings are not records the document's text is kept in)."""
    found = findings.file()
    return files if found is None else {**files, IMPORT_FINDINGS_FILE: found}


_P = ParamSpec("_P")


def _guarded(run: Callable[_P, ImportOutcome]) -> Callable[_P, ImportOutcome]:
    """An import whose folder the file system refuses ends as a located refusal."""

    @functools.wraps(run)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> ImportOutcome:
        try:
            return run(*args, **kwargs)
        except _Unwritable as exc:
            return ImportOutcome(None, [exc.diagnostic])

    return guarded


def render_set(
    folder: Path, slug: str, schema_line: str = MODELINE
) -> tuple[Measured | None, list[Diagnostic]]:
    """The record files an analysis set folder (``ARTIFACT.yaml`` and its members) becomes,
    after checking every member's bytes against the manifest; None, and the problems, when
    a member does not match (``schema_line`` as for ``render_measured``)."""
    manifest, problems = read_document(folder / MANIFEST_FILE)
    if manifest is None:
        return None, problems
    pinned, problems = pinned_members(manifest, (folder / MANIFEST_FILE).as_posix())
    if problems:
        return None, problems
    texts: dict[str, str] = {}
    for child in sorted(folder.iterdir()):
        if child.name.endswith(".md"):
            text, read_problems = read_document(child)
            problems.extend(read_problems)
            if text is not None:
                texts[child.name] = text
    problems.extend(verify_members(folder, pinned, texts))
    if problems:
        return None, problems
    files, diagnostics, coverage, structure, findings = merge_members(texts, folder, slug, schema_line)
    return Measured(files, diagnostics, coverage, structure, findings), []


def _is_set(path: Path) -> bool:
    """A folder given to the importer is an analysis set (a symlink is read as a document,
    and refused by the reader)."""
    return path.is_dir() and not path.is_symlink()


def import_set(folder: Path, slug: str, records: Path) -> ImportOutcome:
    """Convert an analysis set folder into ``records/slug``."""
    measured, problems = render_set(folder, slug)
    if measured is None:
        return ImportOutcome(None, problems)
    folder_written = write_folder(records, slug, measured.files)
    return ImportOutcome(
        folder_written, measured.diagnostics, measured.coverage, measured.structure, measured.findings
    )


@_guarded
def import_document(path: Path, slug: str, records: Path, force: bool = False) -> ImportOutcome:
    """Convert ``path`` into ``records/slug``; refuses an existing folder unless ``force``.
    A folder is an analysis set: its manifest and member files."""
    problem = target_problem(records, slug, force)
    if problem is not None:
        return ImportOutcome(None, [problem])
    if _is_set(path):
        return import_set(path, slug, records)
    text, problems = read_document(path)
    if text is None:
        return ImportOutcome(None, problems)
    measured = render_measured(text, path.as_posix(), slug)
    folder = write_folder(records, slug, measured.files)
    return ImportOutcome(
        folder, problems + measured.diagnostics, measured.coverage, measured.structure, measured.findings
    )


@_guarded
def import_run(path: Path, slug: str, records: Path, force: bool = False) -> ImportOutcome:
    """Convert a document, or an analysis set folder, into a further run of the existing
    system ``records/slug``: ``records/slug/runs/<run-id>/``, named by the run ID the
    document (a set's overview) states, holding the files its import as a system would."""
    system = records / slug
    display = f"{records.as_posix()}/{slug}"
    if system.is_symlink() or not system.is_dir():
        return ImportOutcome(None, [error(KB610, "there is no system folder to add a run to", display)])
    # The run's folder is two below the system's (runs/<run-id>/): so is the schema.
    if _is_set(path):
        measured, problems = render_set(path, slug, RUN_MODELINE)
        if measured is None:
            return ImportOutcome(None, problems)
    else:
        text, problems = read_document(path)
        if text is None:
            return ImportOutcome(None, problems)
        measured = render_measured(text, path.as_posix(), slug, RUN_MODELINE)
    files, diagnostics = measured.files, measured.diagnostics
    run_id = _run_id(files.get("run.yaml", "") or files.get(SET_FILE, ""))
    if run_id is None:
        hint = (
            "State the run ID (run-id in the frontmatter, a set's in its overview's) so the run "
            "folder can be named by it."
        )
        stating = "the set's overview" if _is_set(path) else "the document"
        unnamed = error(
            KB610,
            f"{stating} states no run ID (AAS-YYYY-MM-DD-<system>-NN); nothing written",
            path.as_posix(),
            hint=hint,
        )
        return ImportOutcome(None, [*problems, unnamed])
    problem = target_problem(system / RUNS_FOLDER, run_id, force, RUN_ID)
    if problem is not None:
        return ImportOutcome(None, [*problems, problem])
    folder = write_folder(system / RUNS_FOLDER, run_id, files)
    return ImportOutcome(
        folder, problems + diagnostics, measured.coverage, measured.structure, measured.findings
    )


def _run_id(run_file: str) -> str | None:
    """The run ID of the run file the importer wrote (its own YAML, read back)."""
    data = yaml.safe_load(run_file) if run_file else None
    run = data.get("run") if isinstance(data, dict) else None
    value = run.get("run_id") if isinstance(run, dict) else None
    return value if isinstance(value, str) and RUN_ID.match(value) else None
