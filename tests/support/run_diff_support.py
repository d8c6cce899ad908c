"""Made-up runs for the run-diff tests: a copy of a clean fixture system, changed in place."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Severity
from generator.model.system import SystemRecords
from generator.pipeline import check_records

ALPHA = Path(__file__).resolve().parents[1] / "fixtures" / "profile" / "records" / "alpha"
REPO_ROOT = Path(__file__).resolve().parents[2]


def run_copy(root: Path, name: str = "old") -> Path:
    """A copy of the clean 'alpha' system at ``root/<name>/alpha`` (the folder name is the slug)."""
    folder = root / name / "alpha"
    shutil.copytree(ALPHA, folder)
    return folder


def edit(folder: Path, file: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Load one record file, let ``change`` edit its data, write it back."""
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def rename_id(folder: Path, old: str, new: str) -> None:
    """Renumber a record: every mention of ``old`` in every file becomes ``new``."""
    pattern = re.compile(rf"(?<![A-Za-z0-9-]){re.escape(old)}(?![A-Za-z0-9-])")
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            path.write_text(pattern.sub(new, path.read_text(encoding="utf-8")), encoding="utf-8")


def record(data: dict[str, Any], key: str, record_id: str) -> dict[str, Any]:
    """The record of that ID in one file's list ``key``."""
    return next(entry for entry in data[key] if entry["id"] == record_id)


def checked(folder: Path) -> SystemRecords:
    """The folder's records, which must check without errors."""
    (system,) = check_records(folder)
    errors = [d.as_text() for d in system.diagnostics if d.severity is Severity.ERROR]
    assert errors == []
    return system.records
