"""Raw HTML blocks kept out of Python-Markdown (generator/splice.py) give the same HTML.

Every generated page is converted twice with the site's Markdown extensions: whole, as
Python-Markdown would see it without splicing, and without its raw blocks, spliced back.
The two must be the same bytes, and the anchors found in the blocks must be those MkDocs'
own raw-HTML anchor finder finds.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import markdown
import pytest
from hostile_support import CLEAN_SYSTEM, make_records
from mkdocs.config import load_config
from mkdocs.structure.pages import _HTMLHandler

from generator.mkdocs.splice import markdown_share_problem, normalised, split_raw_blocks
from generator.pipeline import run_pipeline
from generator.render.registry import page_spec, registered_pages
from generator.render.urls import page_path

REPO_ROOT = Path(__file__).resolve().parents[2]
RENDER_RECORDS = REPO_ROOT / "tests" / "fixtures" / "render" / "records"


@pytest.fixture(scope="module")
def convert():
    config = load_config(str(REPO_ROOT / "mkdocs.yml"))

    def run(text: str) -> str:
        return markdown.Markdown(
            extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"]
        ).convert(text)

    return run


def _anchors_mkdocs_finds(blocks: tuple[str, ...]) -> set[str]:
    found: set[str] = set()
    for block in blocks:
        handler = _HTMLHandler()
        handler.feed(block)
        handler.close()
        found |= handler.present_anchor_ids
    return found


def _assert_same_page(convert, text: str) -> int:
    """The page converts the same both ways; returns how many markers stand for raw blocks."""
    spliced = split_raw_blocks(text)
    assert spliced.splice(convert(spliced.markdown)) == convert(text)
    assert spliced.anchors == _anchors_mkdocs_finds(spliced.blocks)
    return len(spliced.blocks)


def _pages(records: Path) -> dict[str, str]:
    result = run_pipeline(records)
    assert not result.errors
    return result.pages


def test_shipped_pages_convert_to_the_same_html(convert):
    pages = _pages(REPO_ROOT / "records").values()
    assert sum(_assert_same_page(convert, text) for text in pages) > 200
    # Most of every page is raw blocks: Python-Markdown sees a fifth of the text at most.
    left = sum(len(split_raw_blocks(text).markdown) for text in pages)
    assert left < sum(map(len, pages)) / 5


def test_every_page_keeps_its_page_type_s_markdown_share() -> None:
    """The convention is its page type's (PageSpec.markdown_share), checked page by page."""
    result = run_pipeline(REPO_ROOT / "records")
    assert not result.errors
    problems = []
    for spec in registered_pages():
        slugs = [graph.slug for graph in result.graphs] if spec.per_system else [None]
        for slug in slugs:
            path = page_path(spec.key, slug)
            if path in result.pages:
                problems.append(markdown_share_problem(spec, path, result.pages[path]))
    assert [problem for problem in problems if problem] == []
    assert len(problems) > 15  # every page of the shipped site was measured


def test_a_page_over_its_share_is_told_what_to_do() -> None:
    spec = replace(page_spec("result"), markdown_share=0.1)
    problem = markdown_share_problem(spec, "systems/x/result.md", "# Title\n\nall Markdown\n")
    assert problem is not None
    assert "leaves 100% of its text to Python-Markdown, more than the 10%" in problem
    assert "raw HTML" in problem and "markdown_share" in problem


def test_hostile_record_text_converts_to_the_same_html(convert, tmp_path):
    text = (CLEAN_SYSTEM / "records.yaml").read_text(encoding="utf-8")
    hostile = (
        '"Tab\\there, </div> and </p>\\n\\n<div>not a tag</div>\\n\\n<!--kb-raw:0000000000000000:0-->'
        ' ```\\n\\n<p markdown>x</p>\\n\\r\\n# heading?"'
    )
    text = text.replace("progression: User prompt, then CMP-1, then the answer.", f"progression: {hostile}")
    text = text.replace("form: Symbolic code.", f"form: {hostile}")
    records = make_records(tmp_path, {"records.yaml": text})
    pages = _pages(records)
    assert pages
    for page in pages.values():
        _assert_same_page(convert, page)


def test_render_fixture_pages_convert_to_the_same_html(convert):
    for page in _pages(RENDER_RECORDS).values():
        _assert_same_page(convert, page)


@pytest.mark.parametrize(
    ("page", "taken"),
    [
        ('<div class="a">\n<p>x</p>\n</div>', 1),
        ("<p>one</p>\n<p>two</p>\n<hr>\n<table>\n<tr><td>3</td></tr>\n</table>", 1),
        ("<p>closed</p>\n## then a heading", 0),  # Markdown after a closed element
        ("<p>closed</p> and text", 0),
        ("<p>never closed", 0),
        ("<span>inline first</span>", 0),  # not a block-level tag: a paragraph
        ("<!-- a comment -->", 0),
        ('<div markdown="1">\n**bold**\n</div>', 0),
        ("<div>\n<p>inside</p>\n</div>\n\n```\n\n<p>in a fence</p>\n\n```\n\n<p>after</p>", 2),
        ("<div markdown>\n\n<p>inside md_in_html</p>\n\n</div>\n\n<p>after</p>", 0),
        ("text\n<div markdown>\n\n<div>\n<p>inside</p>\n</div>\n\n</div>", 0),  # opened on a text line
        ("# Title\n\n<p>a</p>\n\n<p>b</p>\n", 1),  # consecutive blocks share a marker
        # A heading separates markers; a chunk after two blank lines starts with a newline: kept.
        ("<p>a</p>\n\n<p>b</p>\n\n## Heading\n\n<p>c</p>\n\n\n<p>d</p>", 2),
        ("<p>a</p>  \n\n<p>b</p>", 2),  # trailing spaces stay after their marker
    ],
)
def test_only_whole_raw_blocks_are_taken_out(convert, page, taken):
    assert _assert_same_page(convert, page) == taken


def test_blocks_are_normalised_as_python_markdown_does(convert):
    page = "<pre>\ta\r\nb\x02</pre>"
    assert _assert_same_page(convert, page) == 1
    assert split_raw_blocks(page).blocks == ("<pre>   a\nb</pre>",)  # the tab stops at column 8


def test_markers_are_page_specific_and_text_cannot_name_one(convert):
    first = split_raw_blocks("<p>a</p>")
    second = split_raw_blocks("<p>b</p>")
    assert first.markdown != second.markdown
    forged = f"# {first.markdown}\n\n<p>b</p>"  # a heading whose text is another page's marker
    _assert_same_page(convert, forged)
    assert "<p>a</p>" not in split_raw_blocks(forged).splice(convert(split_raw_blocks(forged).markdown))


def test_anchors_of_raw_blocks(convert):
    spliced = split_raw_blocks('<div id="rte-1">\n<a name="n&amp;1">x</a><span name="no">y</span>\n</div>')
    assert spliced.anchors == {"rte-1", "n&1"}


def _python_markdown_normalised(text: str) -> str:
    """Python-Markdown's whitespace normaliser (``NormalizeWhitespace``), as it writes it."""
    text = text.replace("\x02", "").replace("\x03", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4)
    return re.sub(r"(?<=\n) +\n", "\n", text)


def test_whitespace_is_normalised_as_python_markdown_normalises_it() -> None:
    pieces = ["\n", " ", "  ", "\t", "\r", "\r\n", "a", "<p>", "\x02"]
    draw = random.Random(7)
    for _ in range(3000):
        text = "".join(draw.choice(pieces) for _ in range(draw.randint(0, 24)))
        assert normalised(text) == _python_markdown_normalised(text), repr(text)


def test_chunks_read_before_give_what_a_first_reading_gives() -> None:
    """``kbgen serve`` hands a page's chunks as last read: the page after an edit splits as
    a first reading splits it, and what is remembered is what this reading found."""
    pages = _pages(REPO_ROOT / "records")
    for path, page in pages.items():
        read: dict = {}
        first = split_raw_blocks(page, None, read)
        assert first == split_raw_blocks(page)
        edited = page.replace("</td>", "</td>\n", 3).replace('id="', 'id="x', 2)
        again: dict = {}
        assert split_raw_blocks(edited, read, again) == split_raw_blocks(edited), path
        fresh: dict = {}
        split_raw_blocks(edited, None, fresh)
        assert again == fresh, path
