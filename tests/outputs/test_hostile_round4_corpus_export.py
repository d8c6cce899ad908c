"""Hostile corpus, fourth round: record text reaching the comparison CSV in the corpus's
layout (``kbgen export --format csv --layout corpus``).

The corpus layout adds free-text cells (the system's name, the comparison's scope) beside
the controlled ones. Every cell goes through the export's one cell guard, as in the default
layout: a cell a spreadsheet would read as a formula stays text, and a delimiter, quote or
line break in record text stays inside its cell. Each case compares the corpus cell with the
default layout's cell of the same text (one guard) and reads the CSV back.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hostile_support import CLEAN_SYSTEM, make_records

from generator.outputs.export import export_csv
from generator.pipeline import run_pipeline

TESTS = Path(__file__).resolve().parents[1]
CLEAN_PROFILE = TESTS / "fixtures" / "check" / "clean-memory-comparison-profile" / "records" / "demo"
SCOPE = '"Notes retained across runs and the route that reads them back."'
# What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _records(tmp_path: Path, name: str = "Demo", scope: str = SCOPE) -> Path:
    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in CLEAN_PROFILE.iterdir()})
    files["profile.yaml"] = str(files["profile.yaml"]).replace(SCOPE, scope, 1)
    files["run.yaml"] = str(files["run.yaml"]).replace("system: Demo", f"system: {name}", 1)
    return make_records(tmp_path, files)


def _both(records: Path, tmp_path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The one system's row in the corpus layout and in the default one."""
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    rows = []
    for layout in ("corpus", "default"):
        header, row, *more = list(csv.reader(io.StringIO(export_csv(result, layout=layout))))
        assert more == []
        rows.append(dict(zip(header, row, strict=True)))
    assert list(rows[0])[:2] == ["system_name", "analysis_run"]
    return rows[0], rows[1]


@pytest.mark.parametrize(
    "formula",
    ['\'=HYPERLINK("http://x","y")\'', "'+cmd|'' /C calc''!A0'", "'@SUM(A1:A9)'", "'-2+3'"],
)
def test_a_system_name_read_as_a_formula_stays_text(tmp_path: Path, formula: str) -> None:
    corpus, default = _both(_records(tmp_path, name=formula), tmp_path)
    cell = corpus["system_name"]
    assert not cell.startswith(FORMULA_START)
    assert cell == default["name"]  # the one guard of the export
    assert cell.endswith(default["name"].lstrip("'"))


@pytest.mark.parametrize(
    "scope",
    ['"=1+1"', '"+1"', '"@A1"', '"\\tleading tab"', '"-1"'],
)
def test_a_scope_read_as_a_formula_stays_text(tmp_path: Path, scope: str) -> None:
    corpus, default = _both(_records(tmp_path, scope=scope), tmp_path)
    cell = corpus["comparison_scope"]
    assert not cell.startswith(FORMULA_START)
    assert cell == default["scope"]


@pytest.mark.parametrize(
    ("scope", "written"),
    [
        ('"a, b; and \\"quoted\\" words"', 'a, b; and "quoted" words'),
        ('"two\\nlines"', "two\nlines"),
        ('"a cell ending in a quote\\""', 'a cell ending in a quote"'),
    ],
)
def test_delimiters_quotes_and_line_breaks_stay_in_their_cell(
    tmp_path: Path, scope: str, written: str
) -> None:
    corpus, _ = _both(_records(tmp_path, scope=scope), tmp_path)
    assert corpus["comparison_scope"] == written
    assert corpus["storage_substrate"] == '["files", "in-memory"]'  # the next cells are in place
