"""Writing the new system folder atomically, never outside the records folder.

The folder is built complete in a hidden sibling (``.<slug>.import-<pid>``, a name the
loader ignores) and renamed into place. With ``--force`` an existing folder is renamed
away only after the new one is complete, then removed.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from generator.diagnostics import Diagnostic, error
from generator.importer.import_rules import KB610
from generator.load.records import load_record_file
from generator.model.runs import RUNS_FOLDER

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")


def target_problem(records: Path, slug: str, force: bool, names: re.Pattern[str] = SLUG) -> Diagnostic | None:
    """Why the folder ``records/slug`` may not be written, or None (``names``: what the
    folder's name must match: a system's slug, or a run ID below a system's ``runs/``)."""
    display = f"{records.as_posix()}/{slug}"
    if not names.match(slug):
        return error(KB610, f"{slug!r} is not a slug (lower-case words joined by '-')", display)
    if records.is_symlink() or (records.exists() and not records.is_dir()):
        return error(KB610, "the records folder is a symlink or not a folder", records.as_posix())
    if any(part == ".git" for part in records.resolve().parts):
        return error(KB610, "the records folder is inside a git repository's metadata", records.as_posix())
    target = records / slug
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return error(KB610, "the target is a symlink or not a folder; nothing written", display)
    if target.exists() and not force:
        return error(
            KB610,
            "the system folder already exists; nothing written",
            display,
            hint="Use --force to replace it.",
        )
    if target.exists():
        problem = _not_written_by_an_import(target)
        if problem is not None:
            return error(
                KB610,
                f"--force replaces only a records folder an import wrote, and this one {problem}; "
                "nothing written",
                display,
                hint="Name the records folder with --records and a system (or run) folder in it: "
                f"one holding the {' or '.join(RUN_FILES)} an import writes.",
            )
    return None


# The file an import writes a folder's run into: ``run.yaml`` for a document (and a further
# run), ``set.yaml`` for an analysis set (``finish.assemble``, ``sets.merge_members``).
RUN_FILES = ("run.yaml", "set.yaml")
# The other files an import writes (YAML records), or an analyst adds (Markdown prose).
_RECORD_FILE = re.compile(r"[^./][^/]*\.(?:yaml|yml|md)\Z")


def _not_written_by_an_import(folder: Path) -> str | None:
    """Why an existing folder is not one an import may replace, or None. It must be empty,
    or hold a run file of its own (a regular ``run.yaml`` or ``set.yaml`` whose top-level
    mapping has ``run``), other record files and a ``runs/`` folder (moved into the new
    folder, never removed), and nothing else: no hidden entry, no symlink, no other folder.
    So a folder of YAML and Markdown that an import did not write (``.github/workflows``,
    the docs, a configuration folder) is never replaced."""
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as exc:
        return f"cannot be listed ({exc.strerror or type(exc).__name__})"
    for entry in entries:
        if entry.is_symlink():
            return f"holds a symlink ({entry.name})"
        if entry.is_dir():
            if entry.name != RUNS_FOLDER:
                return f"holds a folder that is not runs/ ({entry.name})"
        elif not entry.is_file() or not _RECORD_FILE.match(entry.name):
            return f"holds a file that is not a record file ({entry.name})"
    if not entries:
        return None  # nothing to lose
    names = {entry.name for entry in entries if entry.is_file(follow_symlinks=False)}
    run_file = next((name for name in RUN_FILES if name in names), None)
    if run_file is None:
        return f"holds no {' or '.join(RUN_FILES)} (the run file an import writes)"
    loaded, _ = load_record_file(folder / run_file, f"{folder.as_posix()}/{run_file}")
    if loaded is None or "run" not in loaded.data:
        return f"has a {run_file} that is not a run file (a readable mapping with a top-level 'run')"
    return None


def write_folder(records: Path, slug: str, files: dict[str, str]) -> Path:
    """Write ``files`` (name → text) as ``records/slug`` atomically; returns the folder."""
    records.mkdir(parents=True, exist_ok=True)
    target = records / slug
    staging = records / f".{slug}.import-{os.getpid()}"
    old = records / f".{slug}.replaced-{os.getpid()}"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    try:
        for name, text in files.items():
            with open(staging / name, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        if target.exists():
            _keep_runs(target, staging)
            os.rename(target, old)
        os.rename(staging, target)
    except BaseException:
        # Runs moved into the staging folder go back to the folder they came from first.
        _keep_runs(staging, target if target.exists() and not old.exists() else old)
        shutil.rmtree(staging, ignore_errors=True)
        if old.exists() and not target.exists():
            os.rename(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return target


def _keep_runs(source: Path, destination: Path) -> None:
    """Move a replaced system folder's further runs (``runs/``) into its replacement: an
    import replaces the system folder's own run, never the runs kept beside it."""
    runs = source / RUNS_FOLDER
    if (
        destination.is_dir()
        and runs.is_dir()
        and not runs.is_symlink()
        and not (destination / RUNS_FOLDER).exists()
    ):
        os.rename(runs, destination / RUNS_FOLDER)
