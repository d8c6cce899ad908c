"""``status_groups.py``: statuses a paragraph states once for every record after it."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.fields import STATUS_VALUES
from generator.importer.status_groups import group_statuses


@pytest.mark.parametrize(
    ("text", "statuses"),
    [
        pytest.param(
            "All runtime routes below have implementation conclusion status wired; "
            "Operation/activation/benefit conclusion status is uninspected.",
            {"implementation conclusion status": "wired", "operation conclusion status": "uninspected"},
            id="below-two-layers",
        ),
        pytest.param(
            "Unless stated otherwise, claim conclusion status is Claimed.",
            {"claim conclusion status": "claimed"},
            id="unless-stated-otherwise",
        ),
        pytest.param(
            "The following have implementation conclusion status causally supported.",
            {"implementation conclusion status": "causally supported"},
            id="following-two-word-value",
        ),
        pytest.param(
            "Routes below: Implementation conclusion status wired.   ",
            {"implementation conclusion status": "wired"},
            id="trailing-spaces",
        ),
    ],
)
def test_a_group_statement(text: str, statuses: dict[str, str]) -> None:
    assert group_statuses(text) == statuses


@pytest.mark.parametrize("value", STATUS_VALUES)
def test_every_status_value_is_read(value: str) -> None:
    assert group_statuses(f"Routes below have implementation conclusion status {value}.") == {
        "implementation conclusion status": value
    }


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("RTE-1 has implementation conclusion status wired.", id="one-record"),
        pytest.param("The following have implementation conclusion status wiredish.", id="unknown-value"),
        pytest.param("Below: nothing stated.", id="no-status"),
        pytest.param("", id="empty"),
    ],
)
def test_no_group_statement(text: str) -> None:
    assert group_statuses(text) == {}


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("below " + "a/" * 100_000 + "b conclusion status wired", 1, id="slashed-layer"),
        pytest.param("below " + "a conclusion status " * 20_000, 0, id="status-without-value"),
        pytest.param("below " + "x conclusion status wired " * 20_000, 1, id="same-layer-repeated"),
    ],
)
def test_a_large_hostile_paragraph_is_read_once(text: str, count: int) -> None:
    assert len(group_statuses(text)) == count
