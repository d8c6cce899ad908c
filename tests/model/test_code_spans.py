"""``model/code_spans.py``: inline code spans by CommonMark's rule, shared by the renderer
and the importer."""

from __future__ import annotations

import re

import pytest

from generator.model.code_spans import find_code_spans, outside_code_spans


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        pytest.param("no code", [], id="none"),
        pytest.param("a `b` c", [(2, 5, "b")], id="single"),
        pytest.param("``a ` b``", [(0, 9, "a ` b")], id="double-holds-a-backtick"),
        pytest.param("`a`` b", [], id="runs-of-other-lengths-close-nothing"),
        pytest.param("`a ``b`` c", [(3, 8, "b")], id="unmatched-run-is-text"),
        pytest.param("`a` `b`", [(0, 3, "a"), (4, 7, "b")], id="two-spans"),
        pytest.param("``a`b``c`", [(0, 7, "a`b")], id="inner-single-left-open"),
    ],
)
def test_a_backtick_run_is_closed_by_the_next_run_of_its_length(
    text: str, spans: list[tuple[int, int, str]]
) -> None:
    assert find_code_spans(text) == spans


def test_matches_inside_a_span_are_dropped() -> None:
    text = "a. ``b. c`` d. `e"
    kept = outside_code_spans(find_code_spans(text), re.finditer(r"\.", text))
    assert [m.start() for m in kept] == [1, 13]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("`a" * 100_000, 50_000, id="many-single-runs"),
        pytest.param("".join("`" * k + "a" for k in range(1, 400)), 0, id="growing-unclosed-runs"),
        pytest.param("``x" + "`a" * 100_000, 50_000, id="one-unclosed-run-first"),
    ],
)
def test_a_large_text_is_read_once(text: str, count: int) -> None:
    assert len(find_code_spans(text)) == count
