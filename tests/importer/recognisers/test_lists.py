"""``recognisers/lists.py``: the list item a line starts."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.lists import list_item


@pytest.mark.parametrize(
    ("line", "text", "ordered", "col"),
    [
        pytest.param("- item", "item", False, 3, id="hyphen"),
        pytest.param("* item", "item", False, 3, id="star"),
        pytest.param("+ item", "item", False, 3, id="plus"),
        pytest.param("• item", "item", False, 3, id="bullet"),
        pytest.param("1. item", "item", True, 4, id="numbered-stop"),
        pytest.param("12) item", "item", True, 5, id="numbered-bracket"),
        pytest.param("  - nested", "nested", False, 5, id="indented"),
        pytest.param("\t- tabbed", "tabbed", False, 4, id="tab"),
        pytest.param("- item   ", "item", False, 3, id="trailing-spaces"),
        pytest.param("- item\r", "item", False, 3, id="trailing-cr"),
        pytest.param("- `a | b` — c", "`a | b` — c", False, 3, id="code-and-dash"),
    ],
)
def test_a_list_item(line: str, text: str, ordered: bool, col: int) -> None:
    item = list_item(line)
    assert item is not None
    assert (item.text, item.ordered, item.col) == (text, ordered, col)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("-item", id="no-space"),
        pytest.param("- ", id="no-text"),
        pytest.param("** bold**", id="bold"),
        pytest.param("*emphasis*", id="emphasis"),
        pytest.param("— an em dash", id="em-dash"),
        pytest.param("– an en dash", id="en-dash"),
        pytest.param("1234. four digits", id="long-number"),
        pytest.param("1.5 million", id="decimal"),
        pytest.param("plain", id="prose"),
        pytest.param("", id="empty"),
    ],
)
def test_not_a_list_item(line: str) -> None:
    assert list_item(line) is None


@pytest.mark.parametrize(
    ("line", "found"),
    [
        pytest.param(" " * 200_000 + "x", False, id="spaces-then-word"),
        pytest.param("- " + " " * 200_000, False, id="marker-then-spaces"),
        pytest.param("- " + "x" * 200_000, True, id="long-item"),
    ],
)
def test_a_long_line_is_read_once(line: str, found: bool) -> None:
    assert (list_item(line) is not None) == found
