"""Building blocks of the hostile corpus: a clean demo system to plant an attack into.

Each hostile case starts from the clean fixture system (``tests/fixtures/check/clean-run``),
changes or adds files (or symlinks) in a temporary records folder, runs ``kbgen`` and
asserts the rule code, file, line and column of what it must report.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # tests/browser has a conftest of its own: import only for the annotation
    from conftest import CliResult

CLEAN_SYSTEM = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "clean-run" / "records" / "demo"

Located = tuple[str, str, int, int]  # (code, file, line, col)


def make_records(
    root: Path, changes: dict[str, str | bytes | None] | None = None, slug: str = "demo"
) -> Path:
    """Copy the clean demo system to ``root/records/<slug>`` and apply ``changes``.

    ``changes`` maps a path relative to the system folder to new text (or bytes), or to
    None to delete the file. Returns the records folder.
    """
    records = root / "records"
    system = records / slug
    shutil.copytree(CLEAN_SYSTEM, system)
    for relative, content in (changes or {}).items():
        target = system / relative
        if content is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return records


def located(result: CliResult) -> set[Located]:
    """The (code, file, line, col) of every diagnostic of a ``--format json`` run."""
    return {(d["code"], d["file"], d["line"], d["col"]) for d in result.json()["diagnostics"]}
