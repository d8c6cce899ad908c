"""``recognisers/ledger.py``: a compact authority-route ledger entry, one labelled line per field."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.ledger import ROUTE_ID, labelled_lines, opens_entry
from generator.model.sets import LEDGER_LABELS


@pytest.mark.parametrize(
    ("line", "opens"),
    [
        pytest.param("Route ID: RTE-1", True, id="plain"),
        pytest.param("  Route ID: RTE-1  ", True, id="indented"),
        pytest.param("Route ID: RTE-1\r", True, id="trailing-cr"),
        pytest.param("Route id: RTE-1", False, id="other-case"),
        pytest.param("Route ID RTE-1", False, id="no-colon"),
        pytest.param("Route function: retention", False, id="other-label"),
        pytest.param("", False, id="empty"),
    ],
)
def test_opens_entry(line: str, opens: bool) -> None:
    assert opens_entry(line) == opens


def test_every_ledger_label_is_read_as_its_field() -> None:
    lines = [f"{label}: value {index}" for index, label in enumerate(LEDGER_LABELS.values())]
    fields = labelled_lines(lines, 1)
    assert [(f.name, f.value) for f in fields] == [
        (name, f"value {index}") for index, name in enumerate(LEDGER_LABELS)
    ]
    assert lines[0].startswith(ROUTE_ID)


def test_lines_and_columns_are_where_the_label_and_value_stand() -> None:
    lines = ["Route ID: RTE-1", "  Route function: retention"]
    first, second = labelled_lines(lines, 20)
    assert (first.line, first.label_col, first.value_col) == (20, 1, 11)
    assert (second.line, second.label_col, second.value_col) == (21, 3, 19)
    assert lines[1][second.value_col - 1 :] == "retention"


def test_a_line_without_a_label_continues_the_value_before_it() -> None:
    fields = labelled_lines(["Route ID: RTE-1", "Route function: retention", "of notes", "Unknown: x"], 1)
    assert [(f.name, f.value) for f in fields] == [
        ("routes", "RTE-1"),
        ("route_function", "retention of notes Unknown: x"),
    ]


@pytest.mark.parametrize(
    ("lines", "values"),
    [
        pytest.param(["Route function:"], [""], id="empty-value"),
        pytest.param(["Route function:   ", "  "], [""], id="blank-line-and-spaces"),
        pytest.param(["wrapped words first", "Route ID: RTE-1"], ["RTE-1"], id="text-before-any-label"),
        pytest.param(["Route ID: RTE-1 — RTE-2"], ["RTE-1 — RTE-2"], id="unicode-dash"),
    ],
)
def test_edge_lines(lines: list[str], values: list[str]) -> None:
    assert [f.value for f in labelled_lines(lines, 1)] == values


def test_a_long_entry_is_read_once() -> None:
    lines = ["Route ID: RTE-1"] + ["Route function: x", "wrapped"] * 20_000 + [":" * 100_000]
    fields = labelled_lines(lines, 1)
    assert len(fields) == 20_001
    assert fields[-1].value.endswith(":" * 100_000)
