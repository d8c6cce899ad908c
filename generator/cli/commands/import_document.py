"""``kbgen import``: convert an analysis document (or an analysis set's folder) into a
system folder, then check the new folder as ``kbgen check`` would."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.diagnostics import Severity
from generator.pipeline import check_records
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def add_parser(commands: Any) -> None:
    imp = commands.add_parser(
        "import", help="convert an analysis document (Markdown or text) into a system folder"
    )
    imp.add_argument(
        "file", help="the document (Markdown with frontmatter, or plain text), or an analysis set's folder"
    )
    imp.add_argument("--system", required=True, metavar="SLUG", help="the new system folder's name")
    imp.add_argument("--records", default="records", help="records folder (default: records)")
    imp.add_argument("--force", action="store_true", help="replace an existing system folder (or run folder)")
    imp.add_argument(
        "--as-run",
        action="store_true",
        help="add the document (or set) as a further run of the existing system: records/SLUG/runs/<run-id>/",
    )
    imp.add_argument("--format", choices=("human", "json"), default="human")
    imp.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the importer is loaded only by the command that imports.
    from generator.check.import_findings_rules import KB616
    from generator.importer import import_document, import_run
    from generator.importer.import_rules import KB610

    importer = import_run if args.as_run else import_document
    outcome = importer(Path(args.file), args.system, Path(args.records), args.force)
    # A further run's folder is checked as that run of its system (with its system's other
    # runs, as 'kbgen check' checks it), and only its own findings are reported and counted.
    systems = check_records(outcome.folder) if outcome.folder is not None else []
    # The check's KB616 restates each finding the import lists at the document's line.
    checked = [d for system in systems for d in system.diagnostics if d.rule != KB616]
    found = [*outcome.diagnostics, *checked]
    errors = [d for d in found if d.severity is Severity.ERROR]
    if args.format == "json":
        payload: dict[str, Any] = {
            "folder": outcome.folder.as_posix() if outcome.folder else None,
            "diagnostics": [d.as_dict() for d in found],
            "errors": len(errors),  # what the summary line counts
            "warnings": len(found) - len(errors),
        }
        if outcome.structure is not None:
            payload["structure"] = outcome.structure.as_dict()
            payload["outside_records"] = dict(outcome.structure.outside)
        if outcome.coverage is not None:
            payload["coverage"] = {"units": outcome.coverage.units, "kept": outcome.coverage.kept}
        payload["findings"] = {
            "lost": len(outcome.findings),
            "written": outcome.findings.written,
            "file": _findings_path(outcome),
        }
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for diagnostic in found:
            say(out, diagnostic.as_text())
    if outcome.folder is None:
        say(err, f"kbgen import: nothing written to {Path(args.records) / args.system}")
        return EXIT_USAGE if any(d.rule == KB610 for d in found) else EXIT_ERRORS
    verdict = _verdict(outcome, errors, [d for d in checked if d.severity is Severity.ERROR])
    kept = ""
    if outcome.structure is not None:
        kept = f"{outcome.structure.summary()}; "
    if outcome.coverage is not None:
        kept += f"kept {outcome.coverage.kept:,} of {outcome.coverage.units:,} sentences, items and cells; "
    say(err, f"kbgen import: wrote {outcome.folder}/; {kept}{verdict}", "red" if errors else None)
    return EXIT_ERRORS if errors else EXIT_OK


def _findings_path(outcome: Any) -> str | None:
    """The findings file the import wrote (None when it kept everything)."""
    from generator.importer.findings import IMPORT_FINDINGS_FILE

    if outcome.folder is None or not outcome.findings:
        return None
    return (outcome.folder / IMPORT_FINDINGS_FILE).as_posix()


def _verdict(outcome: Any, errors: list[Any], check_errors: list[Any]) -> str:
    """What the summary line concludes: what the import could not keep (and where it is
    listed), and whether the folder it wrote checks clean, each said apart."""
    count = f"{len(errors)} error{'s' * (len(errors) != 1)}: " if errors else ""
    lost = len(outcome.findings)
    if not lost:
        return f"{count}the folder does not check clean" if check_errors else "it checks clean"
    listed = "" if outcome.findings.written == lost else f"the first {outcome.findings.written:,} "
    could_not = (
        f"the import could not keep {lost:,} construct{'s' * (lost != 1)} "
        f"({listed}listed in {_findings_path(outcome)})"
    )
    folder = "the folder does not check clean" if check_errors else "otherwise the folder checks clean"
    return f"{count}{could_not}; {folder}"
