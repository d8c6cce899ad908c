"""The record index reads the text of HTML as ``HTMLParser`` does: the quick path (one
split at plain tags) gives the parser's text on every section of the generated pages and
on fragments made to trip it, and leaves to the parser whatever it cannot prove plain."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.model.inline_markup import plain_text
from generator.outputs import search
from generator.pipeline import run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]


def _by_the_parser(html: str) -> str:
    parser = search._TextOnly()  # HTMLParser, keeping what it reads as data
    parser.feed(html)
    parser.close()
    return " ".join("".join(parser.parts).split())


def _sections(markdown: str) -> list[str]:
    sections, lines = [], []
    for line in markdown.splitlines():
        if line.startswith("#"):
            sections.append("\n".join(lines))
            lines = []
        lines.append(line)
    return [*sections, "\n".join(lines)]


def test_every_section_of_the_shipped_pages_reads_as_the_parser_reads_it() -> None:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.pages
    compared = tagged = 0
    for markdown in result.pages.values():
        for section in _sections(markdown):
            text = plain_text(section)
            assert search._text_of(text) == _by_the_parser(text)
            compared += 1
            tagged += "<" in text
    assert compared > 500 and tagged > 100  # the raw HTML of the pages is among them


PIECES = [
    "<p>",
    "</p>",
    "<br/>",
    "<br />",
    '<a href="x/#y">',
    "</a>",
    '<td class="n" id="a:b">',
    "</td>",
    "&amp;",
    "&am",
    "p;",
    "&lt;",
    "&#60;",
    "&#x3c;",
    "&nbsp;",
    "&copy",
    "<",
    ">",
    "<3",
    "a < b",
    "<!-- c -->",
    "<!doctype html>",
    "<?x?>",
    "<script>if (a<b) x()</script>",
    "<style>p>a{}</style>",
    "<P CLASS=x>",
    "<b",
    "<x y='1'>",
    '<x y="a>b">',
    '<x y="1"z>',
    "</ x>",
    '<a\nhref="n">',
    "text",
    " ",
    "\n",
    "\t",
    "é",
    "<Em>",
    "</EM>",
    '<span title="&quot;q&quot;">',
]


@pytest.mark.parametrize("seed", range(4))
def test_fragments_made_to_trip_it_read_as_the_parser_reads_them(seed: int) -> None:
    chooser = random.Random(seed)
    for _ in range(2000):
        html = "".join(chooser.choice(PIECES) for _ in range(chooser.randint(1, 12)))
        assert search._text_of(html) == _by_the_parser(html), repr(html)


@pytest.mark.parametrize(
    "html",
    [
        '<p>a</p> <a b="x" <a b="x" &amp; tail',
        "<script>if (a > b) <c &amp;",
        "<style>p{}</style> <b <i &lt; x",
        "<!-- c --> <!-- open &amp;",
        "x > y <z",
    ],
)
def test_a_tail_after_the_last_close_reads_as_the_parser_reads_it(html: str) -> None:
    """After the last '>' no '<' can open anything: that tail is read without the parser,
    which searched the rest of the text again for each '<' (time growing with the square)."""
    assert search._text_of(html) == _by_the_parser(html)
    assert search._text_of(html * 2000) == _by_the_parser(html * 2000)
