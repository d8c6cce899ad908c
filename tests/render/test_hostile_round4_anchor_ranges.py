"""Hostile evidence anchors of several line ranges written as code in a record's text
(``a.py:102-214,287-322``): every range is visible and linked to its own lines, through the
one link builder and escaper; a flood of ranges gives one link each, no more; a source whose
files are not linked leaves the span as code."""

from __future__ import annotations

from generator.graph.system_graph import link_system
from generator.model.base import Anchor
from generator.model.records import Source
from generator.model.system import SystemRecords
from generator.render.registry import PLACEMENT
from generator.render.text import Linker

BLOB = "https://github.com/example/t/blob/abc1234"


def _linker() -> Linker:
    system = SystemRecords(
        slug="t",
        records=[
            Source.model_validate(
                {
                    "id": "SRC-1",
                    "source_kind": "Git",
                    "identity": "t",
                    "location": "https://github.com/example/t",
                    "revision": "abc1234",
                }
            ),
            Source.model_validate(
                {"id": "SRC-2", "source_kind": "Paper", "identity": "a paper", "links": "none"}
            ),
        ],
    )
    # Record text reaches a page as raw HTML (the HTML form), as the renderer writes it.
    return Linker(link_system(system, PLACEMENT), "index", html=True)


def _html(anchor: str, body: str) -> str:
    return str(_linker().citing([Anchor.model_validate(anchor)]).text(body))


def test_markup_in_a_multi_range_path_is_escaped_in_every_piece() -> None:
    out = _html("SRC-1 src/<b>x.py:1-2,5", "See SRC-1 `src/<b>x.py:1-2,5`.")
    assert "<b>" not in out
    assert f'<a href="{BLOB}/src/%3Cb%3Ex.py#L5"><code>5</code></a>' in out
    assert "<code>src/&lt;b&gt;x.py:1-2</code>" in out


def test_a_flood_of_ranges_gives_one_link_per_range() -> None:
    ranges = ",".join(f"{n}-{n + 1}" for n in range(1, 10_000, 2))
    out = _html(f"SRC-1 a.py:{ranges}", f"See `a.py:{ranges}`.")
    assert out.count("<a ") == 5_000
    assert out.count(f'href="{BLOB}/a.py#L9999-L10000"') == 1


def test_a_source_whose_files_are_not_linked_keeps_the_span_as_code() -> None:
    out = _html("SRC-2 notes/a.md:1-2,7", "See SRC-2 `notes/a.md:1-2,7`.")
    assert "<code>notes/a.md:1-2,7</code>" in out
    assert "notes/a.md#" not in out
