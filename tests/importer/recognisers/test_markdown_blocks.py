"""``markdown_blocks.py``: a Markdown document's top-level blocks, located, with the lenient
rules the importer's documents need."""

from __future__ import annotations

import pytest

from generator.importer.document import document_lines
from generator.importer.markdown_blocks import markdown_blocks


def _blocks(text: str, first: int = 0) -> list[tuple[str, int, list[str]]]:
    return [(b.kind, b.line, b.lines) for b in markdown_blocks(text.split("\n"), first)]


@pytest.mark.parametrize(
    ("text", "blocks"),
    [
        pytest.param("## Title", [("heading", 1, ["Title"])], id="heading"),
        pytest.param("Para one\ncontinues", [("paragraph", 1, ["Para one", "continues"])], id="paragraph"),
        pytest.param(
            "| a | b |\n|---|---|\n| 1 | 2 |",
            [("table", 1, ["| a | b |", "|---|---|", "| 1 | 2 |"])],
            id="table",
        ),
        pytest.param("- one\n- two", [("list", 1, ["- one", "- two"])], id="bullet-list"),
        pytest.param("1. one\n2. two", [("list", 1, ["1. one", "2. two"])], id="ordered-list"),
        pytest.param("> a\n> --- a.py", [("quote", 1, ["> a", "> --- a.py"])], id="quote"),
        pytest.param("```\nCMP-1 — x\n```", [("fence", 1, ["```", "CMP-1 — x", "```"])], id="fence"),
        pytest.param("    CMP-1 — x", [("fence", 1, ["    CMP-1 — x"])], id="indented-code"),
        pytest.param("<div>\nCMP-1 — x\n</div>", [("html", 1, ["<div>", "CMP-1 — x", "</div>"])], id="html"),
        pytest.param("a\n\n\n\nb", [("paragraph", 1, ["a"]), ("paragraph", 5, ["b"])], id="blank-lines"),
        pytest.param("", [], id="empty"),
    ],
)
def test_each_block_kind(text: str, blocks: list[tuple[str, int, list[str]]]) -> None:
    assert _blocks(text) == blocks


def test_a_heading_s_text_level_and_column() -> None:
    [heading] = markdown_blocks(["   #### RTE-4 — Label  "], 0)
    assert (heading.kind, heading.level, heading.text, heading.col) == ("heading", 4, "RTE-4 — Label", 9)


def test_a_paragraph_s_text_joins_its_lines() -> None:
    [paragraph] = markdown_blocks(["  CMP-1 — Label.", "  Body   "], 0)
    assert (paragraph.text, paragraph.col) == ("CMP-1 — Label. Body", 3)


def test_blocks_are_located_after_the_frontmatter() -> None:
    lines = ["---", "type: x", "---", "", "## Title"]
    assert [(b.kind, b.line) for b in markdown_blocks(lines, 4)] == [("heading", 5)]


# ---------------------------------------------------------------- the lenient rules


def test_an_unindented_labelled_line_ends_a_list() -> None:
    assert _blocks("- one\n- two\nLabel: value") == [
        ("list", 1, ["- one", "- two"]),
        ("paragraph", 3, ["Label: value"]),
    ]


def test_items_separated_by_blank_lines_are_a_list_each_and_a_paragraph_between_is_its_own() -> None:
    assert _blocks("- one\n  more\n\n  second paragraph\n- two") == [
        ("list", 1, ["- one", "  more"]),
        ("paragraph", 4, ["  second paragraph"]),
        ("list", 5, ["- two"]),
    ]


def test_pipe_lines_without_a_separator_row_are_still_a_table() -> None:
    assert _blocks("| a | b |\n| c | d |") == [("table", 1, ["| a | b |", "| c | d |"])]


@pytest.mark.parametrize(
    ("text", "blocks"),
    [
        pytest.param("Para\n---", [("paragraph", 1, ["Para"]), ("paragraph", 2, ["---"])], id="no-setext"),
        pytest.param("[x]: y", [("paragraph", 1, ["[x]: y"])], id="no-reference-definition"),
    ],
)
def test_what_commonmark_would_swallow_is_kept_as_written(text, blocks) -> None:
    assert _blocks(text) == blocks


def test_nothing_inside_a_fence_is_a_heading() -> None:
    assert [b.kind for b in markdown_blocks(["```", "#### RTE-9 — x", "```", "", "## Real"], 0)] == [
        "fence",
        "heading",
    ]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("## Title\n\n| a | b |\n|---|---|\n\n- x\n- y\n\n> q\n> --- a.py\n", id="mixed"),
        pytest.param("Label: value  \n\nCMP-1 — x.   \n", id="trailing-whitespace"),
    ],
)
def test_crlf_documents_give_the_same_blocks_as_lf(text: str) -> None:
    lf = [(b.kind, b.line, b.col, b.lines) for b in markdown_blocks(document_lines(text), 0)]
    crlf = [
        (b.kind, b.line, b.col, b.lines)
        for b in markdown_blocks(document_lines(text.replace("\n", "\r\n")), 0)
    ]
    assert crlf == lf


# ---------------------------------------------------------------- hostile input, read once


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        pytest.param(
            "\n".join(["- item", "Label: value"] * 5_000), {"list", "paragraph"}, id="list-and-labels"
        ),
        pytest.param("\n".join(["| a |"] * 20_000), {"table"}, id="pipe-lines"),
        pytest.param("\n\n".join(["- a", "  para"] * 5_000), {"list", "paragraph"}, id="loose-list"),
        pytest.param(">" * 10_000 + " x", {"quote"}, id="nested-quotes"),
        pytest.param("|" + " -" * 50_000 + "x", {"table"}, id="separator-shaped"),
        pytest.param("#" + " #" * 50_000 + "x", {"heading"}, id="heading-of-hashes"),
    ],
)
def test_a_large_hostile_document_gives_its_blocks(text: str, kinds: set[str]) -> None:
    blocks = list(markdown_blocks(text.split("\n"), 0))
    assert {b.kind for b in blocks} == kinds
    covered = sum(len(b.lines) for b in blocks)
    assert covered <= text.count("\n") + 1
