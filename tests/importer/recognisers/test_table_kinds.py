"""``importer/tables.py``: a table's header read as the typed table whose columns it means,
its rows as typed rows or a generic table, and a cell that is an ID."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.tables import Row
from generator.importer.tables import (
    column_meaning,
    generic_table,
    is_id,
    typed_kind,
    typed_kind_of_words,
    typed_table,
)
from generator.model.prose import ROW_TYPES


@pytest.mark.parametrize(
    ("title", "same_as"),
    [
        pytest.param("Specialist proposals", "specialist proposal", id="plural"),
        pytest.param("`Source ID`", "Source ID", id="code"),
        pytest.param("**Kind**", "kind", id="bold"),
        pytest.param("Access   gaps  ", "Access gaps", id="spaces"),
        pytest.param("IDENTITY/LOCATION", "Identity/location", id="case"),
    ],
)
def test_titles_written_differently_mean_the_same_column(title: str, same_as: str) -> None:
    assert column_meaning(title) == column_meaning(same_as)


@pytest.mark.parametrize(
    ("title", "other"),
    [
        pytest.param("Route", "Routes and objects", id="more-words"),
        pytest.param("Object", "Objective", id="longer-word"),
    ],
)
def test_different_titles_mean_different_columns(title: str, other: str) -> None:
    assert column_meaning(title) != column_meaning(other)


@pytest.mark.parametrize("kind", list(ROW_TYPES))
def test_every_typed_table_is_known_by_its_own_column_titles(kind: str) -> None:
    titles = list(ROW_TYPES[kind].COLUMNS.values())
    assert typed_kind(titles) == kind
    assert typed_kind([f"**{title.upper()}**" for title in titles]) == kind


@pytest.mark.parametrize("kind", list(ROW_TYPES))
def test_every_typed_table_is_known_by_its_titles_on_one_line(kind: str) -> None:
    titles = list(ROW_TYPES[kind].COLUMNS.values())
    assert typed_kind_of_words(" ".join(titles)) == kind


@pytest.mark.parametrize("kind", list(ROW_TYPES))
def test_a_typed_header_in_another_order_or_cut_short_is_no_typed_table(kind: str) -> None:
    titles = list(ROW_TYPES[kind].COLUMNS.values())
    assert typed_kind([*titles[1:], titles[0]]) != kind
    assert typed_kind(titles[:-1]) != kind


def test_an_unknown_header_is_no_typed_table() -> None:
    assert typed_kind(["Name", "Value"]) is None and typed_kind([]) is None
    assert typed_kind_of_words("Name Value") is None


@pytest.mark.parametrize("kind", list(ROW_TYPES))
def test_typed_rows_map_each_cell_onto_its_field(kind: str) -> None:
    names = list(ROW_TYPES[kind].COLUMNS)
    row = Row([f"cell {i}" for i in range(len(names))], 1)
    assert typed_table(kind, [row]) == {"kind": kind, "rows": [{n: f"cell {i}" for i, n in enumerate(names)}]}


@pytest.mark.parametrize(
    "cells",
    [
        pytest.param(lambda width: ["x"] * (width - 1) + [""], id="empty-cell"),
        pytest.param(lambda width: ["x"] * (width - 1) + ["   "], id="blank-cell"),
        pytest.param(lambda width: ["x"] * (width - 1), id="short-row"),
        pytest.param(lambda width: ["x"] * (width + 1), id="long-row"),
    ],
)
def test_a_row_that_does_not_fill_the_typed_columns_gives_no_typed_table(cells) -> None:
    kind = next(iter(ROW_TYPES))
    width = len(ROW_TYPES[kind].COLUMNS)
    assert typed_table(kind, [Row(["x"] * width, 1), Row(cells(width), 2)]) is None


def test_a_generic_table_pads_short_rows_and_joins_a_long_row_s_extra_cells() -> None:
    table = generic_table(["a", "", "c"], [Row(["1"], 1), Row(["1", "2", "3", "4"], 2)])
    assert table == {
        "kind": "generic",
        "columns": ["a", "—", "c"],
        "rows": [["1", "", ""], ["1", "2", "3 | 4"]],
    }


@pytest.mark.parametrize(
    ("text", "an_id"),
    [
        pytest.param("CMP-1", True, id="numbered"),
        pytest.param("MEM-RTE-store", True, id="prefixed"),
        pytest.param("CMP-1  ", True, id="trailing-spaces"),
        pytest.param("CMP-1 and more", False, id="more-text"),
        pytest.param("see CMP-1", False, id="text-before"),
        pytest.param("`CMP-1`", False, id="in-code"),
        pytest.param("", False, id="empty"),
    ],
)
def test_is_id(text: str, an_id: bool) -> None:
    assert is_id(text) == an_id


def test_a_large_generic_table_keeps_every_row() -> None:
    rows = [Row([str(i), "x" * 100], i) for i in range(20_000)]
    table = generic_table(["n", "text"], rows)
    assert len(table["rows"]) == 20_000 and all(len(row) == 2 for row in table["rows"])
