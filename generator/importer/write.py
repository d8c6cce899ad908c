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
from generator.model.runs import RUNS_FOLDER

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")


def target_problem(records: Path, slug: str, force: bool, names: re.Pattern[str] = SLUG) -> Diagnostic | None:
    """Why the folder ``records/slug`` may not be written, or None (``names``: what the
    folder's name must match: a system's slug, or a run ID below a system's ``runs/``)."""
    display = f"{records.as_posix()}/{slug}"
    if not names.match(slug):
        return error("KB610", f"{slug!r} is not a slug (lower-case words joined by '-')", display)
    if records.is_symlink() or (records.exists() and not records.is_dir()):
        return error("KB610", "the records folder is a symlink or not a folder", records.as_posix())
    target = records / slug
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return error("KB610", "the target is a symlink or not a folder; nothing written", display)
    if target.exists() and not force:
        return error(
            "KB610",
            "the system folder already exists; nothing written",
            display,
            hint="Use --force to replace it.",
        )
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
