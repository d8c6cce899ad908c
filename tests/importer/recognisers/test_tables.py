"""``recognisers/tables.py``: pipe and tab rows, separator rows, and rows written on one line."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.tables import Row, is_separator_row, is_table_line, reflow, table_rows

# ---------------------------------------------------------------- separator rows


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("|---|---|", id="plain"),
        pytest.param("| --- | --- |", id="spaced"),
        pytest.param("|:---|---:|:---:|", id="aligned"),
        pytest.param("---|---", id="no-outer-pipes"),
        pytest.param("|---|", id="one-cell"),
        pytest.param("|---|---|   ", id="trailing-spaces"),
        pytest.param("|---|---|\r", id="trailing-cr"),
    ],
)
def test_a_separator_row(line: str) -> None:
    assert is_separator_row(line)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("| a | b |", id="data"),
        pytest.param("|---|abc|", id="one-data-cell"),
        pytest.param("|  |  |", id="empty-cells"),
        pytest.param("||", id="no-cells"),
        pytest.param("| — | — |", id="em-dashes"),
        pytest.param("| –– | –– |", id="en-dashes"),
        pytest.param("| ::- |", id="colons"),
        pytest.param("|--|--|", id="too-few-dashes"),
        pytest.param("|---|   |---|", id="an-empty-cell-between"),
    ],
)
def test_not_a_separator_row(line: str) -> None:
    assert not is_separator_row(line)


def test_the_dashes_a_separator_needs_may_be_fewer() -> None:
    assert is_separator_row("|--|--|", dashes=2) and not is_separator_row("|-|-|", dashes=2)


def test_a_long_separator_shaped_row_is_read_once() -> None:
    assert is_separator_row("|" + " " * 200_000 + "---|")
    assert not is_separator_row("|" + " -" * 100_000 + "x|")
    assert is_separator_row("|---" * 50_000 + "|")


# ---------------------------------------------------------------- table lines


@pytest.mark.parametrize(
    ("line", "table"),
    [
        pytest.param("| a |", True, id="pipe"),
        pytest.param("  | a |", True, id="indented-pipe"),
        pytest.param("| a", True, id="unterminated"),
        pytest.param("a\tb", True, id="tab"),
        pytest.param("\ta\tb", False, id="tab-indented"),
        pytest.param(" a\tb", False, id="space-indented-tab"),
        pytest.param("a | b", False, id="pipe-inside"),
        pytest.param("", False, id="empty"),
    ],
)
def test_is_table_line(line: str, table: bool) -> None:
    assert is_table_line(line) == table


# ---------------------------------------------------------------- rows


@pytest.mark.parametrize(
    ("lines", "cells"),
    [
        pytest.param(
            ["| a | b |", "|---|---|", "| 1 | 2 |"], [["a", "b"], ["1", "2"]], id="separator-dropped"
        ),
        pytest.param(["| `a|b` | c |"], [["`a|b`", "c"]], id="pipe-in-code"),
        pytest.param(["| a \\| b | c |"], [["a | b", "c"]], id="escaped-pipe"),
        pytest.param(["| a |  |"], [["a", ""]], id="empty-cell"),
        pytest.param(["| a | b |   "], [["a", "b"]], id="trailing-spaces"),
        pytest.param(["| a | b |\r"], [["a", "b"]], id="trailing-cr"),
        pytest.param(["| é — ü | – |"], [["é — ü", "–"]], id="unicode-and-dashes"),
        pytest.param(["a\tb\tc", "| x | y |"], [["a", "b", "c"], ["x", "y"]], id="tab-and-pipe-rows"),
        pytest.param(["| a |", "", "   ", "| b |"], [["a"], ["b"]], id="blank-lines-skipped"),
    ],
)
def test_table_rows(lines: list[str], cells: list[list[str]]) -> None:
    assert [row.cells for row in table_rows(lines, 1)] == cells


def test_rows_carry_their_line_numbers() -> None:
    rows = table_rows(["| a |", "|---|", "| b |"], 10)
    assert [row.line for row in rows] == [10, 12]


@pytest.mark.parametrize(
    ("line", "cells"),
    [
        pytest.param("| a | b", ["a", "b"], id="no-closing-pipe"),
        pytest.param("|", [""], id="lone-pipe"),
    ],
)
def test_an_unterminated_row_is_marked_and_still_read(line: str, cells: list[str]) -> None:
    [row] = table_rows([line], 1)
    assert row.unterminated and row.cells == cells


@pytest.mark.parametrize(
    ("line", "cells"),
    [
        pytest.param("| a | `unclosed | b |", ["a", "`unclosed", "b"], id="lone-backtick"),
        pytest.param("| ``a|b`` | x |", ["``a|b``", "x"], id="pipe-in-double-backtick-span"),
    ],
)
def test_only_a_code_span_holds_a_pipe(line: str, cells: list[str]) -> None:
    [row] = table_rows([line], 1)
    assert row.cells == cells


@pytest.mark.parametrize(
    ("lines", "rows"),
    [
        pytest.param(["| a |" * 20_000], 1, id="one-long-row"),
        pytest.param(["| a | `b|c` | \\| |"] * 20_000, 20_000, id="many-rows"),
        pytest.param(["|" + "`|" * 100_000], 1, id="backtick-flood"),
        pytest.param(["|" + "\\" * 100_000 + "|"], 1, id="backslash-flood"),
    ],
)
def test_large_tables_are_read_once(lines: list[str], rows: int) -> None:
    assert len(table_rows(lines, 1)) == rows


# ---------------------------------------------------------------- rows written on one line


def test_a_line_holding_several_rows_is_split_into_them() -> None:
    assert [r.cells for r in reflow([Row(["a", "b", "", "c", "d"], 1)], 2)] == [["a", "b"], ["c", "d"]]


@pytest.mark.parametrize(
    ("cells", "width"),
    [
        pytest.param(["a", "b", "x", "c", "d"], 2, id="no-empty-cell-between"),
        pytest.param(["a", "b", "", "c"], 2, id="not-a-whole-number-of-rows"),
        pytest.param(["a", "b"], 2, id="one-row"),
        pytest.param(["a", "", "b"], 1, id="width-one"),
    ],
)
def test_a_row_that_is_not_several_is_kept(cells: list[str], width: int) -> None:
    assert [r.cells for r in reflow([Row(cells, 1)], width)] == [cells]


def test_a_long_joined_row_is_split_whole() -> None:
    cells = ["a", "b", ""] * 20_000 + ["a", "b"]
    assert len(reflow([Row(cells, 1)], 2)) == 20_001
