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
        problem = _not_a_records_folder(target)
        if problem is not None:
            return error(
                KB610,
                f"--force replaces only a records folder, and this one {problem}; nothing written",
                display,
                hint="Name the records folder with --records and a system (or run) folder in it.",
            )
    return None


# The files a system (or run) folder holds: YAML records and Markdown prose.
_RECORD_FILE = re.compile(r"[^/]+\.(?:yaml|yml|md)\Z")


def _not_a_records_folder(folder: Path) -> str | None:
    """Why an existing folder is not one an import may replace, or None: it must be empty,
    or hold only record files (at least one YAML) and a ``runs/`` folder; so a source
    folder, the docs, the theme or a ``.git`` folder is never replaced."""
    yaml_files = 0
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue  # an interrupted import's staging folder, the editor's files
            if entry.is_symlink():
                return f"holds a symlink ({entry.name})"
            if entry.is_dir():
                if entry.name != RUNS_FOLDER:
                    return f"holds a folder that is not runs/ ({entry.name})"
                continue
            if not _RECORD_FILE.match(entry.name):
                return f"holds a file that is not a record file ({entry.name})"
            yaml_files += not entry.name.endswith(".md")
    if yaml_files == 0 and any(not name.startswith(".") for name in os.listdir(folder)):
        return "holds no YAML records"
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
