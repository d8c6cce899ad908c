"""The structure of an analysis document: a tree of sections holding located blocks.

A Markdown document (frontmatter, or ``#`` headings) is read by a CommonMark parser
(``markdown_blocks``); a plain-text document (the seeds) writes a heading as a short line
of its own that ends without punctuation, and is cut into blank-line separated runs of
lines here. Either way each block has the 1-based line and column where it starts; the
recognisers in ``recognisers/`` then decide what a block means (a record declaration, a
table, a quotation, …). Finding the structure is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache

from generator.importer.markdown_blocks import Block, markdown_blocks
from generator.importer.recognisers.lists import list_item
from generator.importer.recognisers.tables import is_table_line


@dataclass
class Section:
    """A heading and what follows it up to the next heading of the same or a higher level."""

    title: str
    level: int
    line: int
    col: int = 1
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)


@dataclass
class Document:
    """A parsed document: its frontmatter text (Markdown only), title and section tree."""

    form: str  # "markdown" or "text"
    frontmatter: str | None
    frontmatter_line: int
    root: Section


# An ATX heading's opening: one to six ``#`` and a space (or nothing) after them.
_ATX_OPEN = re.compile(r"#{1,6}(?:[ \t]|\Z)")


def document_lines(text: str) -> list[str]:
    """The document's lines, whatever its line endings."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def is_markdown(lines: list[str], first: int) -> bool:
    """A document with frontmatter or an ATX heading is Markdown; otherwise plain text."""
    return first > 0 or any(_ATX_OPEN.match(line) for line in lines[first:])


def document_blocks(lines: list[str]) -> tuple[str | None, int, bool, list[Block]]:
    """The frontmatter, where the body starts, whether it is Markdown, and the body's blocks
    (read once per text: the importer, its text measure and its structure measure share them)."""
    frontmatter, first, markdown, blocks = _read_blocks(tuple(lines))
    return frontmatter, first, markdown, [replace(block, lines=list(block.lines)) for block in blocks]


@lru_cache(maxsize=4)
def _read_blocks(lines: tuple[str, ...]) -> tuple[str | None, int, bool, tuple[Block, ...]]:
    frontmatter, first, markdown, blocks = _blocks_of(list(lines))
    return frontmatter, first, markdown, tuple(blocks)


def _blocks_of(lines: list[str]) -> tuple[str | None, int, bool, list[Block]]:
    frontmatter, first = _frontmatter(lines)
    markdown = frontmatter is not None or is_markdown(lines, first)
    if markdown:
        return frontmatter, first, True, list(markdown_blocks(lines, first))
    blocks = _join_tables(list(_text_blocks(lines, first)), lines)
    return frontmatter, first, False, [_promote_text_heading(block) for block in blocks]


def parse_document(text: str) -> Document:
    """Cut the text into a section tree of located blocks."""
    frontmatter, _, markdown, blocks = document_blocks(document_lines(text))
    root = _tree(blocks)
    return Document("markdown" if markdown else "text", frontmatter, 2 if frontmatter else 0, root)


def _join_tables(blocks: list[Block], lines: list[str]) -> list[Block]:
    """In plain text a table may continue after a blank line (the seeds do): one table."""
    out: list[Block] = []
    for block in blocks:
        previous = out[-1] if out else None
        if previous is not None and previous.kind == block.kind == "table":
            end = block.line - 1 + len(block.lines)
            previous.lines = lines[previous.line - 1 : end]
            continue
        out.append(block)
    return out


def _frontmatter(lines: list[str]) -> tuple[str | None, int]:
    """The YAML between a first line ``---`` and the next ``---`` line, and where the body starts."""
    if not lines or lines[0].strip() != "---":
        return None, 0
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return "\n".join(lines[1:index]) + "\n", index + 1
    return None, 0


def _text_blocks(lines: list[str], first: int) -> Iterator[Block]:
    """Yield the blocks of a plain-text ``lines[first:]`` in order: blank-line separated runs
    of lines of one kind (quotation, table row, list item, paragraph)."""
    index = first
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        start = index
        col = len(line) - len(line.lstrip()) + 1
        kind = _kind_of(line)
        index += 1
        while index < len(lines) and lines[index].strip():
            if _kind_of(lines[index]) != kind and not _continues(kind, lines[index]):
                break
            index += 1
        yield Block(kind, start + 1, col, lines[start:index])


def _kind_of(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith(">"):
        return "quote"
    if is_table_line(line):
        return "table"
    if list_item(line) is not None:
        return "list"
    return "paragraph"


def _continues(kind: str, line: str) -> bool:
    """A line that does not start a block of its own joins the block before it."""
    if kind == "list":  # an indented continuation of an item
        return line.startswith((" ", "\t")) and _kind_of(line) == "paragraph"
    return False


# A plain-text heading: one short line, no final punctuation, not a labelled field.
_TEXT_HEADING = re.compile(r"^[^\s].{0,90}\Z")
_LABELLED = re.compile(r"^[A-Z][\w /()'-]{0,60}: \S")


def _promote_text_heading(block: Block) -> Block:
    """In plain text, a one-line block that reads as a title is a heading (level decided later)."""
    if len(block.lines) != 1 or block.kind not in ("paragraph", "list"):
        return block
    if block.kind == "list" and not block.lines[0][:1].isdigit():
        return block  # an unindented "1. Title" line is a numbered heading; bullets stay lists
    line = block.lines[0]
    if not _TEXT_HEADING.match(line) or line.rstrip().endswith((".", ":", ";", ",", "!", "?")):
        return block
    if _LABELLED.match(line):
        return block
    return Block("heading", block.line, block.col, [line.strip()], 0)


def _tree(blocks: list[Block]) -> Section:
    """Nest blocks under headings; plain-text headings (level 0) get their level from ``levels``.

    A record heading written at its kind heading's own level (``### Components`` then
    ``### CMP-1 — …``) nests under the kind: it is placed half a level deeper, so the next
    record heading of that level closes it and a deeper heading stays inside it.
    """
    from generator.importer.sections import heading_level, kind_list_of_title, starts_with_id

    root = Section("", 0, 1)
    stack = [root]
    depths = [0.0]  # the nesting depth of each open section (a half level for re-levelled records)
    for block in blocks:
        if block.kind != "heading":
            stack[-1].blocks.append(block)
            continue
        title = block.lines[0]
        level = block.level or heading_level(title, [s.title for s in stack], block is blocks[0])
        if level is None:  # not a heading after all
            stack[-1].blocks.append(Block("paragraph", block.line, block.col, block.lines))
            continue
        depth = float(level)
        if starts_with_id(title):
            kind = next((s for s in reversed(stack) if kind_list_of_title(s.title)), None)
            if kind is not None and kind.level == level:
                depth = level + 0.5
        while len(stack) > 1 and depths[-1] >= depth:
            stack.pop()
            depths.pop()
        section = Section(title, level, block.line, block.col)
        stack[-1].children.append(section)
        stack.append(section)
        depths.append(depth)
    return root
