"""``kbgen diff``: what changed between two analysis runs of one system.

``kbgen diff OLD NEW`` compares two run folders (each a folder of one system's record
files); ``kbgen diff --git REV_A REV_B SYSTEM`` compares one system folder at two git
revisions, read from the repository's objects (``cli/git_snapshot.py``). Each side is
loaded and checked as ``kbgen check`` would; a side with errors is reported as
``file:line:col: error KBxxx …`` and nothing is compared (exit 2). Any diff, empty or
not, exits 0.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from rich.console import Console

from generator.check import CheckedSystem
from generator.check.report import capped
from generator.cli.output_file import write_output
from generator.diagnostics import Diagnostic, Severity
from generator.model.ids import RUN_ID
from generator.model.runs import RUNS_FOLDER
from generator.model.system import SystemRecords
from generator.pipeline import check_records, check_system
from generator.util.console import say
from generator.util.exit_codes import EXIT_OK, EXIT_USAGE

COMMAND = "kbgen diff"


def add_parser(commands: Any) -> None:
    diff = commands.add_parser(
        "diff",
        help="what changed between two analysis runs of one system",
        description="Compare two runs of one system: two run folders (OLD NEW), or with --git "
        "one system folder (SYSTEM, below --records) at two revisions of a repository.",
    )
    diff.add_argument(
        "runs",
        nargs="*",
        metavar="RUN",
        help="OLD and NEW: run IDs (found below --records) or run folders; with --git, the SYSTEM folder",
    )
    diff.add_argument(
        "--git", nargs=2, metavar=("REV_A", "REV_B"), help="compare SYSTEM at these two revisions (old first)"
    )
    diff.add_argument("--repo", default=".", help="the git repository for --git (default: .)")
    diff.add_argument(
        "--records",
        default="records",
        help="records folder: where run IDs are found; inside the repository, for --git (default: records)",
    )
    diff.add_argument("--format", choices=("human", "json"), default="human")
    diff.add_argument("--out", default="-", help="output file, written atomically ('-' or none: stdout)")
    diff.add_argument("--schema", action="store_true", help="write the JSON output's JSON Schema instead")
    diff.set_defaults(run=run)


@dataclass
class Resolved:
    """One side of the comparison: its checked records, or why there are none (errors of
    the records, or a problem with the argument)."""

    records: SystemRecords | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    refusal: str | None = None


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the comparison (rapidfuzz, scipy) is loaded only by the command that compares.
    from generator.graph.run_diff import diff_runs
    from generator.outputs.run_diff_output import DIFF_SCHEMA_PATH, as_text, diff_schema_text, json_text

    if args.schema:
        if args.runs or args.git:
            say(err, f"{COMMAND}: --schema compares nothing; give no RUN and no --git")
            return EXIT_USAGE
        return write_output(args.out, diff_schema_text(), out, err, COMMAND, Path(DIFF_SCHEMA_PATH))
    wanted = 1 if args.git else 2
    if len(args.runs) != wanted:
        shape = "--git REV_A REV_B SYSTEM" if args.git else "OLD NEW"
        say(
            err,
            f"{COMMAND}: expected {shape} ({wanted} RUN argument{'s' * (wanted > 1)}, got {len(args.runs)})",
        )
        return EXIT_USAGE
    sides = args.git if args.git else args.runs
    resolved = [resolve_run(argument, args) for argument in sides]
    failed = [
        (argument, side) for argument, side in zip(sides, resolved, strict=True) if side.records is None
    ]
    for argument, side in failed:
        _report_failure(argument, side, err)
    if failed:
        return EXIT_USAGE
    old, new = (side.records for side in resolved)
    assert old is not None and new is not None
    diff = diff_runs(old, new)
    if args.format == "json":
        return write_output(args.out, json_text(diff), out, err, COMMAND)
    text = as_text(diff)
    if args.out == "-":
        say(out, text.removesuffix("\n"))  # through the console: no line of it reads as a CI command
        return EXIT_OK
    return write_output(args.out, text, out, err, COMMAND)


def resolve_run(argument: str, args: argparse.Namespace) -> Resolved:
    """One RUN argument as a checked system: a run ID (its run is found in
    ``<records>/<system>/``, among the system folder's own run and those below ``runs/``),
    a run folder, or with ``--git`` a revision of the SYSTEM folder. (The one place an
    argument is turned into records.)"""
    if args.git:
        return _at_revision(argument, args)
    path = Path(argument)
    if not path.exists() and RUN_ID.match(argument):
        return _by_run_id(argument, Path(args.records))
    return _in_folder(path)


def _by_run_id(run_id: str, records: Path) -> Resolved:
    match = RUN_ID.match(run_id)
    assert match is not None
    system = records / match.group("slug")
    if not system.is_dir():
        return Resolved(refusal=f"{run_id}: no system folder {system.as_posix()} holds this run")
    runs = [s for s in check_records(system) if s.records.run and s.records.run.run_id == run_id]
    if not runs:
        return Resolved(refusal=f"{run_id}: no run of {system.as_posix()} has this run ID")
    return _outcome(runs[0])


def _in_folder(path: Path) -> Resolved:
    if not path.is_dir():
        return Resolved(refusal=f"{path}: no such run folder")
    if path.parent.name == RUNS_FOLDER and path.parent.parent.is_dir():
        # A further run below a system's runs/: checked as that system's run.
        return _outcome(check_system(path, None, None, path.parent.parent.resolve().name))
    return _checked(path, None, path.as_posix())


def _checked(folder: Path, base: Path | None, shown: str) -> Resolved:
    """The one system a folder holds (of a system folder with further runs, its own run),
    checked; its errors when it has any."""
    systems = [system for system in check_records(folder, base) if not system.source.run_folder]
    if len(systems) != 1:
        found = f"{len(systems)} system folders" if systems else "no record files"
        return Resolved(refusal=f"{shown}: a run folder holds one system's record files; found {found}")
    return _outcome(systems[0])


def _outcome(system: CheckedSystem) -> Resolved:
    errors = [d for d in system.diagnostics if d.severity is Severity.ERROR]
    return Resolved(errors=errors) if errors else Resolved(records=system.records)


def _at_revision(revision: str, args: argparse.Namespace) -> Resolved:
    from generator.cli.git_snapshot import SnapshotRefused, open_repository, write_snapshot

    folder = _system_folder(args.runs[0], args.records)
    if folder is None:
        return Resolved(refusal=f"{args.runs[0]}: SYSTEM and --records are paths inside the repository")
    try:
        repo = open_repository(Path(args.repo))
    except SnapshotRefused as exc:
        return Resolved(refusal=str(exc))
    try:
        with tempfile.TemporaryDirectory(prefix="kbgen-diff-") as private:
            snapshot = write_snapshot(repo, revision, folder, Path(private) / "tree")
            refused = [d for d in snapshot.diagnostics if d.severity is Severity.ERROR]
            shown = f"{revision}:{folder.as_posix()}"
            checked = _checked(snapshot.folder, snapshot.root, shown)
    except SnapshotRefused as exc:
        return Resolved(refusal=str(exc))
    finally:
        repo.close()  # its git processes end here
    # The loader names files below the copy's root: the repository's own paths, at the revision.
    errors = refused + [replace(d, file=f"{revision}:{d.file}") for d in checked.errors]
    if errors:
        return Resolved(errors=errors)
    return checked


def _system_folder(system: str, records: str) -> PurePosixPath | None:
    """SYSTEM below the records folder (a SYSTEM that already starts with it is taken as
    it is); None for a path that leaves the repository."""
    given, base = PurePosixPath(system), PurePosixPath(records)
    if any(path.is_absolute() or ".." in path.parts for path in (given, base)):
        return None
    return given if given.parts[: len(base.parts)] == base.parts else base / given


def _report_failure(argument: str, side: Resolved, err: Console) -> None:
    if side.refusal is not None:
        say(err, f"{COMMAND}: {side.refusal}")
        return
    for item in capped(sorted(side.errors, key=lambda d: d.sort_key())):
        say(err, item if isinstance(item, str) else item.as_text())
    count = len(side.errors)
    say(err, f"{COMMAND}: {argument}: {count} error{'s' * (count != 1)} in the records; nothing compared")
