"""Markdown's block structure, read by a CommonMark parser with source line maps.

markdown-it-py finds the blocks (headings, paragraphs, tables, lists, block quotes, fences,
indented code, HTML); this adapter turns its top-level tokens into located ``Block``s
whose lines are the document's own lines, so the recognisers read the text as written.
The importer and its coverage measure both read a document through here, so they agree
on what is a heading, a table or a quotation, and nothing inside a fence, indented code or
an HTML block is ever read as a declaration.

The few lenient rules real documents need, each one place below:

- an unindented ``Label: value`` line after a list item ends the list (CommonMark would
  make it a lazy continuation of the item);
- a list whose items are separated by blank lines is one list block per run of items
  (an indented paragraph between them is a paragraph of its own), as a reader sees it;
- a run of ``|`` lines without a delimiter row is still a table;
- setext headings and link reference definitions are off: a ``---`` under a paragraph is
  a rule and ``[x]: y`` is text, both kept as written.

The parser is linear in the input (its rules scan each line a bounded number of times).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

# Only the block structure is read: the inline pass (emphasis, links, …) is off, so a
# heading's text is its inline token's content as written.
_PARSER = MarkdownIt("commonmark", {"html": True}).enable("table").disable(["lheading", "reference"])
_PARSER.core.ruler.disable(["inline", "text_join"])

# Top-level token → the block kind the recognisers know.
_KIND_OF_TOKEN = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
    "fence": "fence",
    "code_block": "fence",
    "html_block": "html",
    "hr": "paragraph",
}

# An unindented ``Label: value`` line: a field of its own, never a list item's continuation.
_LABELLED_LINE = re.compile(r"[A-Z][\w /()'-]{0,60}: \S")
_ITEM_START = re.compile(r"[ \t]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|\Z)")


@dataclass
class Block:
    """A run of lines that belong together: a paragraph, a table, a list, a quotation, a heading."""

    kind: str  # "heading", "paragraph", "table", "list", "quote", "fence", "html"
    line: int
    col: int
    lines: list[str]
    level: int = 0  # heading level

    @property
    def text(self) -> str:
        """The block's lines joined as one text (a paragraph's soft breaks become spaces)."""
        return " ".join(part.strip() for part in self.lines if part.strip())


def markdown_blocks(lines: list[str], first: int) -> Iterator[Block]:
    """The blocks of ``lines[first:]`` (the body after any frontmatter), in order."""
    tokens = _PARSER.parse("\n".join(lines[first:]))
    for index, token in enumerate(tokens):
        kind = _KIND_OF_TOKEN.get(token.type)
        if kind is None or token.level != 0 or token.map is None:
            continue
        start, end = first + token.map[0], first + token.map[1]
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        if kind == "heading":
            yield _heading(token, tokens[index + 1], lines[start], start)
        elif kind == "list":
            yield from _list_blocks(lines, start, end, _item_lines(tokens, index, first))
        elif kind == "paragraph" and all(line.lstrip().startswith("|") for line in lines[start:end]):
            yield _block("table", lines, start, end)
        else:
            yield _block(kind, lines, start, end)


def _block(kind: str, lines: list[str], start: int, end: int) -> Block:
    first_line = lines[start]
    return Block(kind, start + 1, len(first_line) - len(first_line.lstrip()) + 1, lines[start:end])


def _heading(token: Token, inline: Token, source: str, start: int) -> Block:
    text = inline.content
    found = source.find(text) if text else -1
    col = found + 1 if found >= 0 else len(source) - len(source.lstrip()) + 1
    return Block("heading", start + 1, col, [text], int(token.tag[1:]))


def _item_lines(tokens: list[Token], index: int, first: int) -> set[int]:
    """The 0-based document lines where the list's own items start (nested lists excluded)."""
    depth = tokens[index].level + 1
    starts: set[int] = set()
    for token in tokens[index + 1 :]:
        if token.level < depth:
            break
        if token.type == "list_item_open" and token.level == depth and token.map is not None:
            starts.add(first + token.map[0])
    return starts


def _list_blocks(lines: list[str], start: int, end: int, items: set[int]) -> Iterator[Block]:
    """One list block per run of items; an unindented labelled line ends the list, and an
    indented paragraph between blank-separated items is a paragraph of its own."""
    run_start: int | None = None
    position = start
    while position < end:
        line = lines[position]
        if not line.strip():
            if run_start is not None:
                yield _block("list", lines, run_start, position)
                run_start = None
            position += 1
            continue
        if run_start is None:
            if position in items or _ITEM_START.match(line):
                run_start = position
            else:
                # A paragraph inside the list (an item's second paragraph): its own block.
                stop = position
                while stop < end and lines[stop].strip() and stop not in items:
                    stop += 1
                yield _block("paragraph", lines, position, stop)
                position = stop
                continue
        elif position not in items and not line[:1].isspace() and _LABELLED_LINE.match(line):
            yield _block("list", lines, run_start, position)
            stop = position
            while stop < end and lines[stop].strip() and stop not in items:
                stop += 1
            yield _block("paragraph", lines, position, stop)
            run_start = None
            position = stop
            continue
        position += 1
    if run_start is not None:
        yield _block("list", lines, run_start, end)
